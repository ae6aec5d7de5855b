#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include "dsp/SimdTypes.hpp"
#include "engine/Command.hpp"
#include "engine/DrumBank.hpp"
#include "engine/Instrument.hpp"
#include "engine/Kit.hpp"
#include "engine/VoiceBank.hpp"
#include "include/CAudioEngine.h"
#include "rt/LockFreeQueue.hpp"
#include "rt/Realtime.hpp"

namespace boop {

// The voice pool and its sample-accurate render. Construction allocates everything; after that
// the control thread only pushes Commands and the audio thread only renders.
class Engine {
  public:
    static constexpr uint32_t kDrumVoices = DrumBank::kVoices;
    static constexpr float kMasterGain = 0.3f;
    static constexpr double kStealFadeSeconds = 0.005;  // >= 3 ms: a stolen voice is faded, never cut
    // Events stamped BOOP_FRAME_NOW skip the time-ordered queue: an audition must not wait behind
    // the steps a player has already queued ahead.
    static constexpr uint32_t kNowQueueCapacity = 256;

    static bool isValid(const boop_engine_config& config) noexcept;
    explicit Engine(const boop_engine_config& config);  // allocates; config must be valid

    // Control thread (the queue's only producer). False when the queue is full (counted).
    bool push(const Command& command) noexcept;
    // Control thread: discard everything queued so far and fade all voices at the next block.
    void cancelPending(double fadeSeconds) noexcept;

    // Audio thread.
    void render(float* out, uint32_t frames) BOOP_RT;
    // Audio thread: applies a command on the next frame to render. A live MIDI input renders up
    // to each event's frame, then applies it here, so the event lands on its own frame.
    void applyNow(const Command& command) BOOP_RT { apply(command, clock_); }

    // Any thread.
    uint64_t frameClock() const noexcept { return publishedClock_.load(std::memory_order_acquire); }
    uint32_t activeVoices() const noexcept { return activeVoices_.load(std::memory_order_relaxed); }
    uint64_t droppedEvents() const noexcept { return dropped_.load(std::memory_order_relaxed); }
    float peak() const noexcept { return peak_.load(std::memory_order_relaxed); }
    const boop_engine_config& config() const noexcept { return config_; }
    // Tap-to-sound (boop edit -v): the control thread marks a frame; the audio thread notes when
    // (CLOCK_MONOTONIC ns) it finished the first block that took its clock past it, so the
    // measurement waits on no one. markTime is 0 until then. Marking the frame marked is a no-op.
    void markFrame(uint64_t frame) noexcept { markFrame_.store(frame, std::memory_order_release); }
    uint64_t markTime(uint64_t frame) const noexcept {
        return markedFrame_.load(std::memory_order_acquire) == frame ? markNs_.load(std::memory_order_relaxed) : 0;
    }

  private:
    void apply(const Command& command, uint64_t frame) BOOP_RT;
    void noteOn(const Command& command, uint64_t frame) BOOP_RT;
    void stealOne() BOOP_RT;
    uint32_t ownedVoices() const BOOP_RT;  // held or releasing tonal voices: what the polyphony limit counts
    void renderSegment(uint32_t begin, uint32_t end) BOOP_RT;
    void applyInstrument(const Command& command) BOOP_RT;
    float mixStereo(float* out, uint32_t frames, const float* centre) BOOP_RT;
    float renderSlice(float* out, uint32_t frames) BOOP_RT;  // returns the slice's peak
    float mixDown(float* out, uint32_t frames) BOOP_RT;
    using FoldKernel = uint32_t (*)(const dsp::simd::f8*, const float*, float*, uint32_t, dsp::simd::f8&) BOOP_RT;
    static FoldKernel chooseFold() noexcept;
    FoldKernel foldEights_ = chooseFold();
    bool wide_ = dsp::simd::useAvx2();  // the mix's AVX2 loops (no FMA: the baseline's bits)
    bool sumsUsed_ = true;              // the slice's partial sums hold something (they start uncleared)
    static constexpr uint32_t kSliceFrames = 512;

    boop_engine_config config_;
    LockFreeQueue<Command> queue_;
    LockFreeQueue<Command> now_;
    VoiceBank banks_[BOOP_TIMBRE_COUNT];
    DrumBank drums_;
    // A song's tracks with instruments of their own and its 808 and chip kits, panned: they add
    // into a stereo pair beside the centred mono mix, which alone is used while they are silent
    // (so everything else renders exactly as without them).
    InstrumentBank instruments_[BOOP_INSTRUMENT_SLOTS];
    KitBank kits_;
    std::unique_ptr<float[]> left_, right_;         // one slice
    bool stereoUsed_ = false;                       // the slice's stereo pair holds something
    std::unique_ptr<dsp::simd::f8[]> partialSums_;  // one slice
    std::unique_ptr<float[]> mono_;                 // one slice, folded
    std::unique_ptr<float[]> direct_;               // one slice: voices rendered along time add here
    bool directUsed_ = true;                        // the slice's direct sums may hold something
    std::unique_ptr<float[]> silence_;              // one slice of +0: the centre when nothing sounds there
    uint64_t clock_ = 0;
    uint64_t noteOrder_ = 0;
    uint32_t drumSeed_ = 0;
    std::atomic<uint64_t> publishedClock_{0};
    std::atomic<uint32_t> activeVoices_{0};
    std::atomic<uint64_t> dropped_{0};
    std::atomic<float> peak_{0.0f};
    void stampMark() BOOP_RT;
    std::atomic<uint64_t> markFrame_{UINT64_MAX};
    std::atomic<uint64_t> markedFrame_{UINT64_MAX};
    std::atomic<uint64_t> markNs_{0};
    // Cancellation: the producer counts what it pushed; a cancel publishes that count, and the
    // audio thread discards queued events until it has popped as many (lock-free, no reordering).
    uint64_t pushed_ = 0;  // producer only
    uint64_t popped_ = 0;  // audio thread only
    std::atomic<uint64_t> cancelUpTo_{0};
    std::atomic<double> cancelFade_{0.01};
};

}  // namespace boop
