// MIDI out through the ALSA sequencer (see AlsaSeqOutput.hpp).
#include "backend/alsa/AlsaSeqOutput.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <vector>

#include "backend/alsa/AlsaCommon.hpp"

namespace boop {

namespace {
constexpr unsigned kWritable = SND_SEQ_PORT_CAP_WRITE | SND_SEQ_PORT_CAP_SUBS_WRITE;

std::vector<SeqPort> sinks(snd_seq_t* seq) {
    std::vector<SeqPort> out;
    snd_seq_client_info_t* client;
    snd_seq_port_info_t* port;
    snd_seq_client_info_alloca(&client);
    snd_seq_port_info_alloca(&port);
    snd_seq_client_info_set_client(client, -1);
    const int self = snd_seq_client_id(seq);
    while (snd_seq_query_next_client(seq, client) >= 0) {
        const int id = snd_seq_client_info_get_client(client);
        if (id == SND_SEQ_CLIENT_SYSTEM || id == self) continue;
        snd_seq_port_info_set_client(port, id);
        snd_seq_port_info_set_port(port, -1);
        while (snd_seq_query_next_port(seq, port) >= 0) {
            const unsigned caps = snd_seq_port_info_get_capability(port);
            if ((caps & kWritable) != kWritable || (caps & SND_SEQ_PORT_CAP_NO_EXPORT)) continue;
            out.push_back(SeqPort{id, snd_seq_port_info_get_port(port), snd_seq_client_info_get_name(client),
                                  snd_seq_port_info_get_name(port)});
        }
    }
    return out;
}
}  // namespace

AlsaSeqOutput::~AlsaSeqOutput() { close(); }

boop_status AlsaSeqOutput::open(const Config& config, std::string& why) {
    if (seq_ != nullptr) return BOOP_ERROR_ALREADY_RUNNING;
    if (access(config.devicePath, R_OK | W_OK) != 0) {
        why = std::string("no ALSA sequencer (") + config.devicePath + ": " + std::strerror(errno) + ")";
        return BOOP_ERROR_DEVICE_UNAVAILABLE;
    }
    silenceAlsaErrors();
    if (snd_seq_open(&seq_, "default", SND_SEQ_OPEN_DUPLEX, 0) < 0) {
        seq_ = nullptr;
        why = "the ALSA sequencer refused a client";
        return BOOP_ERROR_DEVICE_UNAVAILABLE;
    }
    snd_seq_set_client_name(seq_, config.clientName);
    port_ = snd_seq_create_simple_port(seq_, config.portName, SND_SEQ_PORT_CAP_READ | SND_SEQ_PORT_CAP_SUBS_READ,
                                       SND_SEQ_PORT_TYPE_MIDI_GENERIC | SND_SEQ_PORT_TYPE_APPLICATION);
    queue_ = snd_seq_alloc_named_queue(seq_, config.clientName);
    if (port_ < 0 || queue_ < 0 || snd_midi_event_new(16, &encoder_) < 0) {
        why = std::string("the ALSA sequencer refused the port ") + config.portName + " or its queue";
        close();
        return BOOP_ERROR_DEVICE_UNAVAILABLE;
    }
    snd_midi_event_no_status(encoder_, 1);  // every message whole: scheduled events stand alone
    snd_seq_start_queue(seq_, queue_, nullptr);
    snd_seq_drain_output(seq_);
    queueStartNs_ = uint64_t(monotonicNs());
    return BOOP_OK;
}

void AlsaSeqOutput::follow(const MidiArrivalClock* line, uint32_t latencyFrames, uint64_t startNs,
                           double rate) noexcept {
    line_ = line;
    latency_ = latencyFrames;
    fallback_ = MidiArrivalClock::Line{startNs, 0, 1e9 / rate};
}

uint64_t AlsaSeqOutput::frameTimeNs(const MidiArrivalClock::Line& line, uint64_t frame,
                                    uint32_t latencyFrames) noexcept {
    const double frames = double(static_cast<int64_t>(frame - line.head)) + double(latencyFrames);
    return line.timeNs + static_cast<uint64_t>(std::llround(frames * line.nsPerFrame));
}

boop_status AlsaSeqOutput::send(uint64_t frame, const uint8_t* bytes, uint32_t size) {
    if (seq_ == nullptr) return BOOP_ERROR_NOT_RUNNING;
    snd_seq_event_t event;
    snd_seq_ev_clear(&event);
    snd_midi_event_reset_encode(encoder_);
    if (snd_midi_event_encode(encoder_, bytes, long(size), &event) != long(size) || event.type == SND_SEQ_EVENT_NONE)
        return BOOP_ERROR_INVALID_ARGUMENT;
    MidiArrivalClock::Line line = fallback_;
    if (line_ != nullptr) line_->line(line);
    // Queue time is counted from the queue's start; a time already past goes out at once.
    const int64_t at = std::max<int64_t>(0, static_cast<int64_t>(frameTimeNs(line, frame, latency_) - queueStartNs_));
    snd_seq_real_time_t rt{unsigned(at / 1'000'000'000), unsigned(at % 1'000'000'000)};
    snd_seq_ev_schedule_real(&event, queue_, 0, &rt);
    track(bytes, size);
    return output(event) < 0 ? BOOP_ERROR_DEVICE_LOST : BOOP_OK;
}

int AlsaSeqOutput::output(snd_seq_event_t& event) {
    snd_seq_ev_set_source(&event, port_);
    snd_seq_ev_set_subs(&event);
    const int r = snd_seq_event_output(seq_, &event);
    return r < 0 ? r : snd_seq_drain_output(seq_);
}

void AlsaSeqOutput::track(const uint8_t* bytes, uint32_t size) noexcept {
    const uint8_t kind = bytes[0] & 0xF0, ch = bytes[0] & 0x0F;
    if (bytes[0] == 0xFA || bytes[0] == 0xFB) clockRunning_ = true;
    if (bytes[0] == 0xFC) clockRunning_ = false;
    if (size < 3 || (kind != 0x90 && kind != 0x80)) return;
    const uint8_t key = bytes[1] & 0x7F;
    const uint64_t bit = uint64_t(1) << (key & 63);
    if (kind == 0x90 && bytes[2] > 0)
        held_[ch][key >> 6] |= bit;
    else
        held_[ch][key >> 6] &= ~bit;
}

void AlsaSeqOutput::panic() {
    if (seq_ == nullptr) return;
    snd_seq_drop_output(seq_);  // what is scheduled and not yet sent, here and in the kernel
    snd_seq_remove_events_t* remove;
    snd_seq_remove_events_alloca(&remove);
    snd_seq_remove_events_set_condition(remove, SND_SEQ_REMOVE_OUTPUT);
    snd_seq_remove_events_set_queue(remove, queue_);
    snd_seq_remove_events(seq_, remove);
    for (int ch = 0; ch < 16; ++ch)
        for (int key = 0; key < 128; ++key) {
            if ((held_[ch][key >> 6] >> (key & 63) & 1u) == 0) continue;
            snd_seq_event_t off;
            snd_seq_ev_clear(&off);
            snd_seq_ev_set_noteoff(&off, ch, key, 64);
            snd_seq_ev_set_direct(&off);
            output(off);
        }
    if (clockRunning_) {
        snd_seq_event_t stop;
        snd_seq_ev_clear(&stop);
        stop.type = SND_SEQ_EVENT_STOP;
        snd_seq_ev_set_direct(&stop);
        output(stop);
    }
    std::memset(held_, 0, sizeof held_);
    clockRunning_ = false;
}

boop_status AlsaSeqOutput::connect(const char* spec, std::string& why) {
    if (seq_ == nullptr) return BOOP_ERROR_NOT_RUNNING;
    if (spec == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    const std::vector<SeqPort> ports = sinks(seq_);
    const int found = matchSeqPort(ports, spec);
    if (found < 0) {
        why = "no ALSA sequencer port that takes MIDI matches it (see boop devices)";
        return BOOP_ERROR_INVALID_ARGUMENT;
    }
    const SeqPort& p = ports[std::size_t(found)];
    const int r = snd_seq_connect_to(seq_, port_, p.client, p.port);
    return r < 0 && r != -EBUSY ? BOOP_ERROR_DEVICE_UNAVAILABLE : BOOP_OK;
}

void AlsaSeqOutput::close() noexcept {
    if (seq_ != nullptr) {
        panic();
        if (queue_ >= 0) snd_seq_free_queue(seq_, queue_);
        snd_seq_close(seq_);
    }
    if (encoder_ != nullptr) snd_midi_event_free(encoder_);
    encoder_ = nullptr;
    seq_ = nullptr;
    port_ = queue_ = -1;
}

}  // namespace boop
