// The ALSA sequencer input of `boop synth` (see AlsaSeqInput.hpp).
#include "backend/alsa/AlsaSeqInput.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "backend/RealtimePriority.hpp"
#include "backend/alsa/AlsaCommon.hpp"
#include "backend/alsa/AlsaSeqPorts.hpp"

namespace boop {

AlsaSeqInput::~AlsaSeqInput() { stop(); }

boop_status AlsaSeqInput::open(const Config& config, std::string& why) {
    const boop_status opened = openSeqClientPort(
        seq_, port_, config.devicePath, config.clientName, SND_SEQ_NONBLOCK, config.portName, kSeqWritable,
        SND_SEQ_PORT_TYPE_MIDI_GENERIC | SND_SEQ_PORT_TYPE_SYNTHESIZER | SND_SEQ_PORT_TYPE_APPLICATION, why);
    if (opened != BOOP_OK) return opened;
    wakeFd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (port_ < 0 || wakeFd_ < 0) {
        why = std::string("the ALSA sequencer refused the port ") + config.portName;
        stop();
        return BOOP_ERROR_DEVICE_UNAVAILABLE;
    }
    realtimePriority_ = config.realtimePriority;
    portName_ = std::string(config.clientName) + ":" + config.portName + " (" +
                std::to_string(snd_seq_client_id(seq_)) + ":" + std::to_string(port_) + ")";
    return BOOP_OK;
}

boop_status AlsaSeqInput::start(Sink sink, void* context) {
    if (seq_ == nullptr || sink == nullptr) return BOOP_ERROR_NOT_RUNNING;
    if (thread_.joinable()) return BOOP_ERROR_ALREADY_RUNNING;
    sink_ = sink;
    context_ = context;
    stopping_.store(false, std::memory_order_release);
    try {
        thread_ = std::thread([this] { run(); });
    } catch (...) {
        return BOOP_ERROR_INTERNAL;
    }
    return BOOP_OK;
}

std::vector<SeqPort> AlsaSeqInput::sources() const {
    return seq_ != nullptr ? listSeqPorts(seq_, kSeqReadable) : std::vector<SeqPort>{};
}

boop_status AlsaSeqInput::subscribe(const char* spec, std::string& why) {
    SeqPort p;
    const boop_status found = findSeqPeer(seq_, kSeqReadable, spec, "source", p, why);
    if (found != BOOP_OK) return found;
    const int r = snd_seq_connect_from(seq_, port_, p.client, p.port);
    if (r < 0 && r != -EBUSY) {  // EBUSY: already subscribed
        why = "the sequencer refused the subscription to " + p.clientName + ":" + p.portName + ": " + snd_strerror(r);
        return BOOP_ERROR_DEVICE_UNAVAILABLE;
    }
    why = std::to_string(p.client) + ":" + std::to_string(p.port) + " " + p.clientName + ":" + p.portName;
    return BOOP_OK;
}

void AlsaSeqInput::stop() noexcept {
    if (thread_.joinable()) {
        stopping_.store(true, std::memory_order_release);
        const uint64_t one = 1;
        if (write(wakeFd_, &one, sizeof one) < 0) {
            // the eventfd cannot be full; the reader also checks `stopping_` each second
        }
        thread_.join();
    }
    if (wakeFd_ >= 0) ::close(wakeFd_);
    wakeFd_ = -1;
    if (seq_ != nullptr) snd_seq_close(seq_);
    seq_ = nullptr;
    port_ = -1;
}

void AlsaSeqInput::run() noexcept {
    if (realtimePriority_ > 0) makeCurrentThreadRealtime(realtimePriority_);
    const int count = snd_seq_poll_descriptors_count(seq_, POLLIN);
    if (count <= 0 || count > 15) return;
    pollfd fds[16];
    snd_seq_poll_descriptors(seq_, fds, static_cast<unsigned>(count), POLLIN);
    fds[count] = pollfd{wakeFd_, POLLIN, 0};
    while (!stopping_.load(std::memory_order_acquire)) {
        const int r = poll(fds, nfds_t(count + 1), 1000);
        if (r < 0 && errno != EINTR) return;
        if (fds[count].revents & POLLIN) return;
        for (int i = 0; i < count; ++i)
            if (fds[i].revents & (POLLERR | POLLNVAL)) return;  // the sequencer is gone: the sound plays on
        if (r > 0) drain();
    }
}

// Takes every event waiting, each stamped as it is taken: after a wake-up that is within the
// scheduling latency of a real-time thread (tens of microseconds) of its arrival.
void AlsaSeqInput::drain() noexcept {
    for (;;) {
        snd_seq_event_t* event = nullptr;
        const int r = snd_seq_event_input(seq_, &event);
        if (r == -ENOSPC) continue;  // the kernel's buffer overran: the events lost are gone; go on
        if (r < 0 || event == nullptr) return;
        sink_(context_, static_cast<uint64_t>(monotonicNs()), *event);
    }
}

}  // namespace boop
