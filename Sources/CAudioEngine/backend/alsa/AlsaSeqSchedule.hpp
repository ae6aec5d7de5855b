#pragma once
// What `play --midi-out` puts on the ALSA sequencer, without the sequencer: each message the
// transport makes (stamped with an engine frame) becomes one snd_seq_event_t scheduled on the
// queue at the real time its frame is heard; notes sent on and not off are remembered, so a panic
// knows what to end. Pure (no /dev/snd/seq needed), so the unit tests check every stamp and the
// stop sequence on machines without a sequencer; AlsaSeqOutput does the I/O.
//
// Two ways to know when a frame is heard: the playback's frame line (the I/O thread's reports
// against CLOCK_MONOTONIC, smoothed: MidiArrivalClock) plus the device's latency; or, with no
// sound device (`--no-sound`), a fixed line: frame f is heard at startNs + f x 1e9 / rate, in
// integer nanoseconds, so stamps never drift.
#include <alsa/asoundlib.h>

#include <cstdint>

#include "engine/MidiArrival.hpp"

namespace boop {

class AlsaSeqSchedule {
  public:
    AlsaSeqSchedule();
    ~AlsaSeqSchedule();
    AlsaSeqSchedule(const AlsaSeqSchedule&) = delete;
    AlsaSeqSchedule& operator=(const AlsaSeqSchedule&) = delete;

    bool ready() const noexcept { return encoder_ != nullptr; }
    // The queue the events go on, the port they come from, and CLOCK_MONOTONIC when the
    // queue's real time was 0.
    void setQueue(int queue, int port, uint64_t queueStartNs) noexcept;
    // A sound device's line and latency; `startNs`/`rate` stand in until its first report.
    void follow(const MidiArrivalClock* line, uint32_t latencyFrames, uint64_t startNs, double rate) noexcept;
    // No sound device: frame f is heard at startNs + f / rate exactly.
    void followFixed(uint64_t startNs, double rate) noexcept;

    // One message (1 ... 3 bytes) for engine frame `frame` -> a scheduled event. False for
    // bytes that make no sequencer event.
    bool event(uint64_t frame, const uint8_t* bytes, uint32_t size, snd_seq_event_t& out) noexcept;
    // CLOCK_MONOTONIC ns at which `frame` is heard.
    uint64_t heardNs(uint64_t frame) const noexcept;

    // The stop sequence, each event direct: a note-off for every held note, then Stop when a
    // clock ran (Start or Continue went out). Calls `emit(const snd_seq_event_t&)` for each and
    // forgets them.
    template <typename Emit>
    void panic(Emit&& emit) {
        snd_seq_event_t e;
        for (int ch = 0; ch < 16; ++ch)
            for (int key = 0; key < 128; ++key)
                if (held(ch, key)) emit(panicNoteOff(e, ch, key));
        if (clockRunning_) emit(panicStop(e));
        forget();
    }

    bool held(int channel, int key) const noexcept { return (held_[channel][key >> 6] >> (key & 63) & 1u) != 0; }
    bool clockRunning() const noexcept { return clockRunning_; }

    // Engine frame -> CLOCK_MONOTONIC ns at which it is heard, on a smoothed line.
    static uint64_t frameTimeNs(const MidiArrivalClock::Line& line, uint64_t frame, uint32_t latencyFrames) noexcept;
    // The same on a fixed line: startNs + round(frame x 1e9 / rate), in integers for whole rates.
    static uint64_t fixedFrameTimeNs(uint64_t startNs, uint64_t frame, double rate) noexcept;

  private:
    void track(const uint8_t* bytes, uint32_t size) noexcept;
    snd_seq_event_t& panicNoteOff(snd_seq_event_t& e, int ch, int key) const noexcept;
    snd_seq_event_t& panicStop(snd_seq_event_t& e) const noexcept;
    void forget() noexcept;

    snd_midi_event_t* encoder_ = nullptr;
    int queue_ = 0;
    int port_ = 0;
    uint64_t queueStartNs_ = 0;
    const MidiArrivalClock* line_ = nullptr;
    uint32_t latency_ = 0;
    MidiArrivalClock::Line fallback_;
    bool fixed_ = false;
    uint64_t fixedStartNs_ = 0;
    double fixedRate_ = 48000;
    uint64_t held_[16][2] = {};
    bool clockRunning_ = false;
};

}  // namespace boop
