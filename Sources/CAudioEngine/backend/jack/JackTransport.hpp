#pragma once
// `play --sync jack`: JACK transport, read in the process callback. Each cycle the callback
// queries the transport (jack_transport_query reads the server's shared memory: no lock, no
// system call) and reports what a follower must act on, stamped with the engine frame of the
// cycle's start, through a lock-free queue: the transport is starting (or was moved) and waits
// for its slow-sync clients, it began rolling or was moved while rolling (with its frame there),
// it stopped, or its BBT tempo changed. The sequencer on the control thread re-anchors on those:
// transport frame F at engine frame E.
//
// Slow sync, so that the first step of a run is never skipped: boop is a slow-sync client
// (jack_set_sync_callback). When the transport is starting from frame F, the control thread
// queues the run's events for an engine frame A it picks ahead of the engine's clock and arms
// (request, A) in one atomic word. The process thread renders the engine up to A and holds it
// there (silence, the clock standing still) until the transport rolls; the sync callback (same
// thread, before the process callback) answers ready in the cycle that reaches A. JACK rolls from
// the next cycle once every slow-sync client is ready (JackTransportEngine::CycleEnd: Starting ->
// Rolling when all are, the frame advancing only from then), so the transport's frame F falls on
// engine frame A however long the others take: the held engine resumes exactly there.
#include <jack/jack.h>
#include <jack/midiport.h>
#include <jack/transport.h>

#include <atomic>
#include <cstdint>

#include "include/CAudioEngine.h"
#include "rt/LockFreeQueue.hpp"
#include "rt/Realtime.hpp"

namespace boop {

class TransportWatch {
  public:
    // `engineClock`: the frames the engine has rendered (the playback's counter, read by the
    // sync callback at a cycle's start).
    explicit TransportWatch(const std::atomic<uint64_t>& engineClock) : queue_(4096), engineClock_(engineClock) {}

    // Control thread, before activation: boop becomes a slow-sync client.
    void attach(jack_client_t* client) noexcept;
    // Control thread: the events of start `request` are queued for engine frame `frame`; 0 withdraws.
    void arm(uint32_t request, uint64_t frame) noexcept {
        const uint64_t word = request == 0 ? 0 : uint64_t(request & kRequestMask) << 48 | (frame & kFrameMask);
        armed_.store(word, std::memory_order_release);
        acts_.fetch_add(1, std::memory_order_release);
    }

    // Process thread: the cycle of `frames` frames starting at engine frame `engineFrame`; `xruns`:
    // the server's xruns reported to this client so far.
    void cycle(jack_client_t* client, uint64_t engineFrame, uint32_t frames, uint64_t xruns) BOOP_RT;
    // Process thread, after cycle(): rolling on after an xrun, the engine realigns with the
    // transport: skip() frames rendered and dropped before this cycle (it lagged), or lead()
    // frames of silence at the cycle's start with the engine standing still (it led).
    uint32_t skip() const BOOP_RT { return skip_; }
    uint32_t lead() const BOOP_RT { return lead_; }
    // Any thread: the realignments so far.
    uint64_t realigned() const noexcept { return realigned_.load(std::memory_order_relaxed); }
    // Process thread: the engine frame the engine may render up to now (UINT64_MAX: no limit).
    uint64_t holdLimit() const BOOP_RT;
    // Process thread: the transport stopped (or was moved) and the control thread has not acted on
    // it yet (an arm or a withdrawal since): the MIDI output sends nothing queued meanwhile.
    bool midiHeld() const BOOP_RT { return midiHeld_; }
    // Process thread: the MIDI real-time and position messages of a midi_in port buffer (a cycle
    // of `frames` frames whose start the engine reached at `engineFrame`), each stamped with the
    // engine frame it lands on. Start and Continue hold the engine (nothing plays from a stopped
    // state) and report the held frame A with a request number; the first Clock after them (or
    // Stop) releases it, so the clock's own server frame is engine frame A: the cycle then renders
    // only the spans() the engine is not held in. The control thread queues the run's first step
    // for A and arms (request, A) meanwhile; the clock says whether that came in time (prepared).
    void midi(void* portBuffer, uint64_t engineFrame, uint32_t frames) BOOP_RT;
    // Process thread: the engine is held for a Start or Continue (since an earlier cycle).
    bool clockHeld() const BOOP_RT { return clockHeld_; }
    // Process thread, after midi(): the parts of the cycle the engine renders, in order, the
    // engine's frames following on from one to the next.
    struct Span {
        uint32_t offset;
        uint32_t frames;
    };
    const Span* spans() const BOOP_RT { return spans_; }
    uint32_t spanCount() const BOOP_RT { return spanCount_; }
    // Control thread (the queue's one consumer).
    bool next(boop_transport_event& out) noexcept { return queue_.tryPop(out); }
    uint64_t dropped() const noexcept { return dropped_.load(std::memory_order_relaxed); }

  private:
    static constexpr uint64_t kFrameMask = (uint64_t(1) << 48) - 1;
    static constexpr uint32_t kRequestMask = 0xFFFF;
    static int onSync(jack_transport_state_t state, jack_position_t* pos, void* self) BOOP_RT;
    bool ready(jack_transport_state_t state, jack_nframes_t frame) BOOP_RT;
    void push(const boop_transport_event& e) BOOP_RT;
    void fill(boop_transport_event& e, const jack_position_t& pos, uint64_t engineFrame) BOOP_RT;
    void starting(const jack_position_t& pos, uint64_t engineFrame) BOOP_RT;
    bool prepared(const jack_position_t& pos, uint64_t engineFrame) BOOP_RT;
    bool follow(const jack_position_t& pos, uint64_t engineFrame, uint32_t frames, bool disturbed) BOOP_RT;
    // Realigned at most this far; a larger difference is a move.
    static constexpr double kRealignSeconds = 2.0;

    LockFreeQueue<boop_transport_event> queue_;
    const std::atomic<uint64_t>& engineClock_;
    std::atomic<uint64_t> dropped_{0};
    std::atomic<uint64_t> armed_{0};  // request << 48 | engine frame; 0: nothing armed
    std::atomic<uint64_t> acts_{0};   // arms and withdrawals so far
    std::atomic<uint64_t> realigned_{0};
    // The process thread's own (the sync callback runs on it too, just before the process callback).
    bool rolling_ = false;
    bool starting_ = false;
    bool midiHeld_ = false;
    uint64_t actsAtStop_ = 0;
    uint32_t request_ = 0;           // the latest start's number (1 ... 65535)
    uint32_t released_ = 0;          // the last armed request the engine no longer holds for
    uint64_t missed_ = 0;            // the armed word last reported as come too late
    jack_nframes_t startFrame_ = 0;  // the transport frame the latest start is from
    jack_nframes_t expected_ = 0;    // the transport frame the next cycle starts on when rolling on
    jack_nframes_t nextCycle_ = 0;   // the server frame time the next cycle starts on
    uint32_t cycleFrames_ = 0;       // the last cycle's length
    uint64_t xruns_ = 0;             // the xruns reported at the last cycle
    jack_nframes_t offset_ = 0;      // transport frame less engine frame, as the run was anchored
    bool unsettled_ = false;         // disturbed since the last clean cycle on the anchor
    uint32_t skip_ = 0;
    uint32_t lead_ = 0;
    jack_nframes_t rate_ = 48000;
    double bpm_ = 0.0;
    double startBpm_ = 0.0;  // the latest start's BBT tempo (0: none given)
    // --sync midi (the process thread's own).
    static constexpr uint32_t kMaxSpans = 8;
    void closeSpan(uint32_t from, uint32_t to) BOOP_RT;
    bool midiEvent(const jack_midi_event_t& event, boop_transport_event& e, uint32_t at) BOOP_RT;
    bool clockHeld_ = false;
    uint64_t clockHoldAt_ = 0;  // the engine frame held on
    uint32_t spanStart_ = 0;    // this cycle's offset the engine last resumed at
    Span spans_[kMaxSpans] = {};
    uint32_t spanCount_ = 0;
};

}  // namespace boop
