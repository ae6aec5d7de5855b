#pragma once
// The hand-over between a sequencer reader thread and a control loop (boop edit --midi): the
// reader converts each event (seqEventToMidi) and pushes it on a lock-free queue, then bumps an
// eventfd; the loop polls the descriptor and takes the messages. Neither ever waits on the other.
#include <alsa/asoundlib.h>

#include <atomic>
#include <cstdint>

#include "include/CAudioEngine.h"
#include "rt/LockFreeQueue.hpp"

namespace boop {

class AlsaSeqMailbox {
  public:
    static constexpr std::size_t kCapacity = 1024;

    AlsaSeqMailbox();
    ~AlsaSeqMailbox();
    AlsaSeqMailbox(const AlsaSeqMailbox&) = delete;
    AlsaSeqMailbox& operator=(const AlsaSeqMailbox&) = delete;

    // -1 when the eventfd could not be made.
    int descriptor() const noexcept { return wake_; }
    // Reader thread: one event in (those that are no channel message are left out).
    void post(uint64_t arrivalNs, const snd_seq_event_t& event) noexcept;
    // Reader thread: one channel message in (the sequencer event, converted).
    void post(const boop_midi_event& event) noexcept;
    // Control thread: clears the descriptor, takes up to `max`; the descriptor stays readable
    // while more wait.
    uint32_t take(boop_midi_event* out, uint32_t max) noexcept;
    uint64_t dropped() const noexcept { return dropped_.load(std::memory_order_relaxed); }

  private:
    void signal() noexcept;

    LockFreeQueue<boop_midi_event> queue_{kCapacity};
    int wake_ = -1;
    std::atomic<uint64_t> dropped_{0};
};

}  // namespace boop
