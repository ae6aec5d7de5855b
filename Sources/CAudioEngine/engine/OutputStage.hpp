#pragma once
#include <atomic>
#include <cmath>
#include <cstdint>

#include "dsp/TruePeakLimiter.hpp"
#include "include/CAudioEngine.h"
#include "rt/Realtime.hpp"

namespace boop {

// The end of every signal chain (CAudioEngine.h, "The output stage"): the user's gain, then the
// true-peak limiter. One class for both uses, so live and offline cannot drift apart: a playback
// runs process() on its audio thread (the device hears the input latency() frames late), an
// offline render runs processAligned() and finish(), which take that delay out so a file is
// exactly as long as its source and every note lands on its frame.
class OutputStage {
  public:
    static bool isValid(const boop_output_config& config) noexcept;
    static float linearGain(double gainDb) noexcept;

    // Control thread; allocates. The ceiling must be in range, channels 1 ... BOOP_CHANNELS_MAX.
    // The gain is not touched: it is set apart (setGainDb), and may be before prepare.
    void prepare(double sampleRate, uint32_t channels, double ceilingDbtp);

    // Any thread: the gain (checked by the caller), read at the start of each block.
    void setGainDb(double gainDb) noexcept { gain_.store(linearGain(gainDb), std::memory_order_relaxed); }
    float takeReductionDb() noexcept { return reduction_.exchange(0.0f, std::memory_order_relaxed); }
    uint32_t latency() const noexcept { return direct_ ? 0 : limiter_.latency(); }
    // Control thread, after prepare and before any processing: false for the live synth's
    // --lookahead 0, the gain and then a soft clipper (clip()) in place of the limiter, no delay.
    void setLookahead(bool on) noexcept {
        direct_ = !on;
        toSkip_ = latency();
    }
    bool lookahead() const noexcept { return !direct_; }
    // The clipper's curve: the identity up to kClipKnee x the level, then a tanh shoulder that
    // approaches the level (the ceiling less kClipHeadroomDb, room for the peaks between samples).
    static constexpr float kClipKnee = 0.5f;
    static constexpr double kClipHeadroomDb = 3.0;
    static float clip(float x, float level) BOOP_RT {
        const float ax = std::fabs(x), knee = kClipKnee * level;
        if (ax <= knee) return x;
        const float room = level - knee;
        return std::copysign(knee + room * std::tanh((ax - knee) / room), x);
    }
    uint32_t channels() const noexcept { return channels_; }
    double sampleRate() const noexcept { return sampleRate_; }

    // Live: in place; the output is the input of latency() frames ago.
    void process(float* io, uint32_t frames) BOOP_RT;
    // Offline: in place; the frames aligned with the input are moved to the start of `io`.
    // Returns how many (fewer than `frames` only while the look-ahead fills).
    uint32_t processAligned(float* io, uint32_t frames) BOOP_RT;
    // Offline, after the last input: writes what is still in the look-ahead to `out` (room for
    // latency() frames) and returns how many frames that is; a second call returns 0.
    uint32_t finish(float* out) BOOP_RT;

  private:
    dsp::TruePeakLimiter limiter_;
    bool direct_ = false;
    float clipLevel_ = 1.0f;
    double sampleRate_ = 0;
    uint32_t channels_ = 1;
    // Written by any thread, read by the processing thread at each block.
    std::atomic<float> gain_{1.0f};
    std::atomic<float> reduction_{0.0f};  // the deepest reduction (dB) not yet taken
    // Offline bookkeeping (processing thread only): the pre-roll still to drop, and the input
    // frames that went in but have not come out aligned yet.
    uint64_t toSkip_ = 0;
    uint64_t undelivered_ = 0;
};

static_assert(std::atomic<float>::is_always_lock_free, "the gain is shared with the audio thread");

}  // namespace boop
