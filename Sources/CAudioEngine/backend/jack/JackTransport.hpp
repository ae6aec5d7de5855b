#pragma once
// `play --sync jack`: JACK transport, read in the process callback. Each cycle the callback
// queries the transport (jack_transport_query reads the server's shared memory: no lock, no
// system call) and reports what a follower must act on, stamped with the engine frame of the
// cycle's start, through a lock-free queue: the transport began rolling or was moved while
// rolling (with its frame there), it stopped, or its BBT tempo changed. The sequencer on the
// control thread re-anchors on those: transport frame F at engine frame E.
#include <jack/jack.h>
#include <jack/transport.h>

#include <atomic>
#include <cstdint>

#include "include/CAudioEngine.h"
#include "rt/LockFreeQueue.hpp"
#include "rt/Realtime.hpp"

namespace boop {

class TransportWatch {
  public:
    TransportWatch() : queue_(4096) {}

    // Process thread: the cycle of `frames` frames starting at engine frame `engineFrame`.
    void cycle(jack_client_t* client, uint64_t engineFrame, uint32_t frames) BOOP_RT;
    // Process thread: the MIDI real-time and position messages of a midi_in port buffer, each
    // at engineFrame + its offset in the cycle.
    void midi(void* portBuffer, uint64_t engineFrame) BOOP_RT;
    // Control thread (the queue's one consumer).
    bool next(boop_transport_event& out) noexcept { return queue_.tryPop(out); }
    uint64_t dropped() const noexcept { return dropped_.load(std::memory_order_relaxed); }

  private:
    void push(const boop_transport_event& e) BOOP_RT;

    LockFreeQueue<boop_transport_event> queue_;
    std::atomic<uint64_t> dropped_{0};
    bool rolling_ = false;
    jack_nframes_t expected_ = 0;   // the transport frame the next cycle starts on when rolling on
    jack_nframes_t nextCycle_ = 0;  // the server frame time the next cycle starts on
    double bpm_ = 0.0;
};

}  // namespace boop
