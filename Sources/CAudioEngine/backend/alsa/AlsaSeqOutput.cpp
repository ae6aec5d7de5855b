// MIDI out through the ALSA sequencer (see AlsaSeqOutput.hpp).
#include "backend/alsa/AlsaSeqOutput.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "backend/alsa/AlsaCommon.hpp"
#include "backend/alsa/AlsaSeqPorts.hpp"

namespace boop {

AlsaSeqOutput::~AlsaSeqOutput() { close(); }

boop_status AlsaSeqOutput::open(const Config& config, std::string& why) {
    const boop_status opened =
        openSeqClientPort(seq_, port_, config.devicePath, config.clientName, 0, config.portName, kSeqReadable,
                          SND_SEQ_PORT_TYPE_MIDI_GENERIC | SND_SEQ_PORT_TYPE_APPLICATION, why);
    if (opened != BOOP_OK) return opened;
    queue_ = snd_seq_alloc_named_queue(seq_, config.clientName);
    if (port_ < 0 || queue_ < 0 || !schedule_.ready()) {
        why = std::string("the ALSA sequencer refused the port ") + config.portName + " or its queue";
        close();
        return BOOP_ERROR_DEVICE_UNAVAILABLE;
    }
    snd_seq_start_queue(seq_, queue_, nullptr);
    snd_seq_drain_output(seq_);
    schedule_.setQueue(queue_, port_, uint64_t(monotonicNs()));
    return BOOP_OK;
}

boop_status AlsaSeqOutput::send(uint64_t frame, const uint8_t* bytes, uint32_t size) {
    if (seq_ == nullptr) return BOOP_ERROR_NOT_RUNNING;
    snd_seq_event_t event;
    if (!schedule_.event(frame, bytes, size, event)) return BOOP_ERROR_INVALID_ARGUMENT;
    return output(event) < 0 ? BOOP_ERROR_DEVICE_LOST : BOOP_OK;
}

int AlsaSeqOutput::output(snd_seq_event_t& event) {
    const int r = snd_seq_event_output(seq_, &event);
    return r < 0 ? r : snd_seq_drain_output(seq_);
}

void AlsaSeqOutput::panic() {
    if (seq_ == nullptr) return;
    snd_seq_drop_output(seq_);  // what is scheduled and not yet sent, here and in the kernel
    snd_seq_remove_events_t* remove;
    snd_seq_remove_events_alloca(&remove);
    snd_seq_remove_events_set_condition(remove, SND_SEQ_REMOVE_OUTPUT);
    snd_seq_remove_events_set_queue(remove, queue_);
    snd_seq_remove_events(seq_, remove);
    schedule_.panic([this](snd_seq_event_t& e) { output(e); });
}

boop_status AlsaSeqOutput::connect(const char* spec, std::string& why) {
    SeqPort p;
    const boop_status found = findSeqPeer(seq_, kSeqWritable, spec, "port that takes MIDI", p, why);
    if (found != BOOP_OK) return found;
    const int r = snd_seq_connect_to(seq_, port_, p.client, p.port);
    return r < 0 && r != -EBUSY ? BOOP_ERROR_DEVICE_UNAVAILABLE : BOOP_OK;
}

void AlsaSeqOutput::close() noexcept {
    if (seq_ != nullptr) {
        panic();
        if (queue_ >= 0) snd_seq_free_queue(seq_, queue_);
        snd_seq_close(seq_);
    }
    seq_ = nullptr;
    port_ = queue_ = -1;
}

}  // namespace boop
