#pragma once
// MIDI out on JACK: a control thread queues messages stamped with engine frames (the frames the
// sequencer computes); the process callback writes each into the port buffer of the cycle that
// contains its frame, at its exact offset. The writer also remembers which notes it has sent on
// and not yet off, so a panic (stop, pause, Ctrl-C) can end every one of them: no stuck note.
#include <jack/midiport.h>

#include <atomic>
#include <cstdint>

#include "include/CAudioEngine.h"
#include "rt/LockFreeQueue.hpp"
#include "rt/Realtime.hpp"

namespace boop {

struct MidiOutEvent {
    uint64_t frame = 0;  // engine frame; one already past goes out at the start of the next cycle
    uint8_t size = 0;    // 1 ... 3
    uint8_t bytes[3] = {0, 0, 0};
};

class MidiOutWriter {
  public:
    static constexpr uint8_t kStop = 0xFC;

    explicit MidiOutWriter(std::size_t capacity) : queue_(capacity) {}

    // Control thread (the queue's one producer, under the caller's lock). False when full.
    bool push(const MidiOutEvent& event) noexcept {
        if (!queue_.tryPush(event)) return false;
        pushed_.fetch_add(1, std::memory_order_release);
        return true;
    }
    // The same for a message of 1 ... 3 bytes (checked by the caller): OK or QUEUE_FULL.
    boop_status send(uint64_t frame, const uint8_t* bytes, uint32_t size) noexcept {
        MidiOutEvent e;
        e.frame = frame;
        e.size = static_cast<uint8_t>(size);
        for (uint32_t i = 0; i < size; ++i) e.bytes[i] = bytes[i];
        return push(e) ? BOOP_OK : BOOP_ERROR_QUEUE_FULL;
    }
    // Control thread: at the next cycle drop what is queued, send a note-off for every note
    // sounding and, if a clock was running (a Start or Continue sent since the last Stop), Stop.
    // Only what was pushed before the panic is dropped: a run queued right after it (a transport
    // moved while rolling) goes out.
    void panic() noexcept {
        panicUpTo_.store(pushed_.load(std::memory_order_relaxed), std::memory_order_relaxed);
        panics_.fetch_add(1, std::memory_order_release);
    }
    // Any thread: true once every panic asked for has been carried out.
    bool panicDone() const noexcept {
        return panicsDone_.load(std::memory_order_acquire) == panics_.load(std::memory_order_acquire);
    }
    uint64_t written() const noexcept { return written_.load(std::memory_order_relaxed); }
    uint64_t late() const noexcept { return late_.load(std::memory_order_relaxed); }

    // Process thread: the cycle of `frames` frames starting at engine frame `clock`.
    void writeCycle(void* portBuffer, uint64_t clock, uint32_t frames) BOOP_RT;
    // Process thread: engine frames [clock, clock + frames) written from cycle offset `at` on (a
    // cycle the engine renders in pieces, held between them); after one quietCycle returned false.
    void writeSpan(void* portBuffer, uint64_t clock, uint32_t frames, uint32_t at) BOOP_RT;
    // Process thread: a cycle that sends nothing queued, only a panic asked for (true if one went out).
    bool quietCycle(void* portBuffer) BOOP_RT;

  private:
    void write(void* buffer, uint32_t offset, const uint8_t* bytes, uint8_t size) BOOP_RT;
    void track(const uint8_t* bytes, uint8_t size) BOOP_RT;
    void carryOutPanic(void* buffer) BOOP_RT;

    LockFreeQueue<MidiOutEvent> queue_;
    std::atomic<uint64_t> pushed_{0};
    std::atomic<uint64_t> panics_{0};
    std::atomic<uint64_t> panicUpTo_{0};  // the pushes the latest panic drops
    uint64_t popped_ = 0;                 // process thread only
    std::atomic<uint64_t> panicsDone_{0};
    std::atomic<uint64_t> written_{0};
    std::atomic<uint64_t> late_{0};
    uint64_t held_[16][2] = {};  // a bit per channel and key: sent on, not yet off
    bool clockRunning_ = false;
};

}  // namespace boop
