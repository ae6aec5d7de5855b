#pragma once
// Live MIDI from a source without a frame clock of its own (the ALSA sequencer): a reader thread
// stamps each event on arrival (CLOCK_MONOTONIC, nanoseconds) and the audio thread plays it on the
// engine frame
//     frame = head + round((arrival - time) / nsPerFrame) + delay
// where (time, head, nsPerFrame) is the line "the engine had rendered up to `head` at `time`",
// which the audio thread reports after every block and a delay-locked loop (F. Adriaensen, "Using
// a DLL to filter time", 2005) smooths: the wake-ups of an ALSA I/O thread jitter, the line does
// not, so the spacing of events is kept (to the loop's slow corrections, far under 1 ms). With a
// delay of one period after the render head an event is due in a block rendered a period or more
// after it arrived: wake-ups may come up to a period late before anything is played late, and a
// late event is played at the start of the next block (counted), never dropped.
// Arithmetic is modular (uint64 with signed differences), so neither clock wrapping matters.
#include <atomic>
#include <cstdint>
#include <memory>

#include "engine/MidiInput.hpp"
#include "rt/LockFreeQueue.hpp"
#include "rt/Realtime.hpp"

namespace boop {

class MidiArrivalClock {
  public:
    struct Line {
        uint64_t timeNs = 0;
        uint64_t head = 0;
        double nsPerFrame = 0;
    };
    // A report this far off the line (an xrun, a suspend, a stopped process) starts the line
    // again from that report instead of being smoothed in.
    static constexpr int64_t kResetNs = 20'000'000;

    // Control thread, before the audio thread runs.
    void prepare(double sampleRate, uint32_t delayFrames, double bandwidthHz = 0.5) noexcept;

    // Audio thread: after rendering up to `head`, at `nowNs`.
    void observe(uint64_t nowNs, uint64_t head) BOOP_RT;

    // Any thread (a seqlock read: the audio thread never waits). False before the first report.
    bool line(Line& out) const noexcept;
    uint32_t delay() const noexcept { return delay_; }
    uint64_t restarts() const noexcept { return restarts_.load(std::memory_order_relaxed); }

    // The placement formula.
    static uint64_t place(const Line& line, uint64_t arrivalNs, uint32_t delayFrames) noexcept;

  private:
    void publish() BOOP_RT;

    double nominalNsPerFrame_ = 0;
    double omegaPerFrame_ = 0;  // 2 pi B x (ns per frame) / 1e9: the loop's angle per frame
    uint32_t delay_ = 0;
    // The audio thread's loop.
    bool locked_ = false;
    Line loop_;
    // What the reader sees.
    std::atomic<uint32_t> seq_{0};
    std::atomic<uint64_t> pubTime_{0}, pubHead_{0};
    std::atomic<double> pubNsPerFrame_{0};
    std::atomic<uint64_t> restarts_{0};
};

// A timed channel message on its way from the reader thread to the audio thread.
struct TimedMidi {
    uint64_t frame = 0;
    MidiMessage message;
    bool atOnce = false;  // stamped before the audio thread's first report: due in the next block
};

// The path between them: the reader places and queues (lock-free, SPSC), the audio thread takes
// each event in the block that holds its frame.
class MidiArrivalScheduler {
  public:
    explicit MidiArrivalScheduler(std::size_t capacity) : queue_(capacity) {}

    MidiArrivalClock& clock() noexcept { return clock_; }
    const MidiArrivalClock& clock() const noexcept { return clock_; }

    // Reader thread (the one producer): false when the queue is full (counted as dropped).
    // Before the audio thread's first report an event is due at once.
    bool arrive(uint64_t arrivalNs, const MidiMessage& message) noexcept;

    // Audio thread, for the block [blockStart, blockStart + frames): the next event due in it and
    // its offset `at`, not before `done` (events keep their arrival order; one placed before
    // `done`, late or out of order, is played at `done`). False when none is due in this block.
    bool next(uint64_t blockStart, uint32_t frames, uint32_t done, uint32_t& at, MidiMessage& out) BOOP_RT;

    uint64_t late() const noexcept { return late_.load(std::memory_order_relaxed); }
    uint64_t dropped() const noexcept { return dropped_.load(std::memory_order_relaxed); }

  private:
    MidiArrivalClock clock_;
    LockFreeQueue<TimedMidi> queue_;
    std::atomic<uint64_t> late_{0};
    std::atomic<uint64_t> dropped_{0};
};

}  // namespace boop
