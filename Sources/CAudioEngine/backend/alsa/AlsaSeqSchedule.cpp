// Sequencer events for MIDI out (see AlsaSeqSchedule.hpp).
#include "backend/alsa/AlsaSeqSchedule.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace boop {

AlsaSeqSchedule::AlsaSeqSchedule() {
    if (snd_midi_event_new(16, &encoder_) < 0) encoder_ = nullptr;
    // Every message whole: scheduled events stand alone.
    if (encoder_ != nullptr) snd_midi_event_no_status(encoder_, 1);
}

AlsaSeqSchedule::~AlsaSeqSchedule() {
    if (encoder_ != nullptr) snd_midi_event_free(encoder_);
}

void AlsaSeqSchedule::setQueue(int queue, int port, uint64_t queueStartNs) noexcept {
    queue_ = queue;
    port_ = port;
    queueStartNs_ = queueStartNs;
}

void AlsaSeqSchedule::follow(const MidiArrivalClock* line, uint32_t latencyFrames, uint64_t startNs,
                             double rate) noexcept {
    line_ = line;
    latency_ = latencyFrames;
    fallback_ = MidiArrivalClock::Line{startNs, 0, 1e9 / rate};
    fixed_ = false;
}

void AlsaSeqSchedule::followFixed(uint64_t startNs, double rate) noexcept {
    line_ = nullptr;
    latency_ = 0;
    fixed_ = true;
    fixedStartNs_ = startNs;
    fixedRate_ = rate;
}

uint64_t AlsaSeqSchedule::frameTimeNs(const MidiArrivalClock::Line& line, uint64_t frame,
                                      uint32_t latencyFrames) noexcept {
    const double frames = double(static_cast<int64_t>(frame - line.head)) + double(latencyFrames);
    return line.timeNs + static_cast<uint64_t>(std::llround(frames * line.nsPerFrame));
}

uint64_t AlsaSeqSchedule::fixedFrameTimeNs(uint64_t startNs, uint64_t frame, double rate) noexcept {
    const auto whole = static_cast<uint64_t>(rate);
    if (double(whole) == rate && whole > 0) {
        // 128 bits: frame x 1e9 overflows 64 after about 5 hours at 48 kHz.
        const unsigned __int128 ns = (static_cast<unsigned __int128>(frame) * 1'000'000'000u + whole / 2) / whole;
        return startNs + static_cast<uint64_t>(ns);
    }
    return startNs + static_cast<uint64_t>(std::llround(double(frame) * 1e9 / rate));
}

uint64_t AlsaSeqSchedule::heardNs(uint64_t frame) const noexcept {
    if (fixed_) return fixedFrameTimeNs(fixedStartNs_, frame, fixedRate_);
    MidiArrivalClock::Line line = fallback_;
    if (line_ != nullptr) line_->line(line);
    return frameTimeNs(line, frame, latency_);
}

bool AlsaSeqSchedule::event(uint64_t frame, const uint8_t* bytes, uint32_t size, snd_seq_event_t& out) noexcept {
    if (encoder_ == nullptr || bytes == nullptr || size < 1 || size > 3) return false;
    snd_seq_ev_clear(&out);
    snd_midi_event_reset_encode(encoder_);
    if (snd_midi_event_encode(encoder_, bytes, long(size), &out) != long(size) || out.type == SND_SEQ_EVENT_NONE)
        return false;
    // Queue time is counted from the queue's start; a time already past goes out at once.
    const int64_t at = std::max<int64_t>(0, static_cast<int64_t>(heardNs(frame) - queueStartNs_));
    snd_seq_real_time_t rt{unsigned(at / 1'000'000'000), unsigned(at % 1'000'000'000)};
    snd_seq_ev_schedule_real(&out, queue_, 0, &rt);
    snd_seq_ev_set_source(&out, port_);
    snd_seq_ev_set_subs(&out);
    track(bytes, size);
    return true;
}

void AlsaSeqSchedule::track(const uint8_t* bytes, uint32_t size) noexcept {
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

snd_seq_event_t& AlsaSeqSchedule::panicNoteOff(snd_seq_event_t& e, int ch, int key) const noexcept {
    snd_seq_ev_clear(&e);
    snd_seq_ev_set_noteoff(&e, ch, key, 64);
    snd_seq_ev_set_direct(&e);
    snd_seq_ev_set_source(&e, port_);
    snd_seq_ev_set_subs(&e);
    return e;
}

snd_seq_event_t& AlsaSeqSchedule::panicStop(snd_seq_event_t& e) const noexcept {
    snd_seq_ev_clear(&e);
    e.type = SND_SEQ_EVENT_STOP;
    snd_seq_ev_set_direct(&e);
    snd_seq_ev_set_source(&e, port_);
    snd_seq_ev_set_subs(&e);
    return e;
}

void AlsaSeqSchedule::forget() noexcept {
    std::memset(held_, 0, sizeof held_);
    clockRunning_ = false;
}

}  // namespace boop
