#pragma once
#include <cstdint>
#include <vector>

#include "dsp/TruePeak.hpp"
#include "rt/Realtime.hpp"

namespace boop {
namespace dsp {

// The output stage of everything boop makes: a plain gain, then a look-ahead limiter that keeps
// the true peak (4x oversampled, TruePeak) under a ceiling without ever clipping.
//
// How it guarantees the ceiling: each input's true peak asks for a gain (ceiling / peak, or 1).
// That request is held for `hold` samples (a running minimum) and then smoothed by a moving
// average over `lookahead` samples; every average therefore contains only values at or below the
// request of the sample it is applied to, so the gain has fully come down when the peak leaves the
// delay line, and it came down along a smooth 1.5 ms ramp rather than a step. Afterwards the gain
// recovers exponentially (release). Below the ceiling the gain is exactly 1: the signal passes
// unchanged, only delayed by latency() frames.
//
// prepare() allocates; process() is real-time safe.
class TruePeakLimiter {
  public:
    static constexpr int kMaxChannels = 2;

    void prepare(double sampleRate, int channels, double ceilingDbtp = -1.0, double lookaheadSeconds = 0.0015,
                 double releaseSeconds = 0.08);
    void reset() noexcept;

    // The plain gain before the limiter, as a linear factor. Set before the first sample it
    // applies at once (so a render is exactly scaled); later changes glide over 20 ms.
    void setGain(float linear) noexcept {
        targetGain_ = linear;
        if (index_ == 0) inputGain_ = linear;
    }
    float gain() const noexcept { return targetGain_; }

    // In place, interleaved.
    void process(float* interleaved, std::uint32_t frames) BOOP_RT;

    std::uint32_t latency() const noexcept { return latency_; }
    // The deepest gain reduction since the last call, in dB (0 or negative); for meters.
    float takeMaxReductionDb() BOOP_RT;

  private:
    int channels_ = 1;
    float ceiling_ = 0.891f;
    float release_ = 0.999f;
    float gainStep_ = 0.001f;
    float inputGain_ = 1.0f;
    float targetGain_ = 1.0f;
    std::uint32_t lookahead_ = 64, hold_ = 68, latency_ = 78;
    TruePeak detector_;  // its taps; the history is lin_ below

    // The detector works a block at a time: each channel's last kTaps - 1 inputs followed by the
    // block, in a line (plus room for a partial last group of eight), and a request per frame.
    static constexpr std::uint32_t kBlock = 256;
    static constexpr std::uint32_t kLine = TruePeak::kTaps - 1 + kBlock + 8;
    float lin_[kMaxChannels][kLine] = {};
    float requests_[kBlock] = {};
    bool blockQuiet_ = false;  // every request of the block is 1 (requests_ not filled)
    // The true peaks of eight frames starting at line position `at` (all channels).
    using PeakKernel = void (*)(const float (*lin)[kLine], int channels, std::uint32_t at, const TruePeak::Phases* taps,
                                float* peaks) BOOP_RT;
    PeakKernel peakKernel_ = nullptr;
    static PeakKernel choosePeakKernel() noexcept;

    // The delay line: latency_ frames per channel, ring.
    std::vector<float> delay_;
    std::uint32_t delayAt_ = 0;
    // Running minimum over the last hold_ requests (a monotonic queue in a ring of hold_ slots).
    std::vector<float> minValue_;
    std::vector<std::uint64_t> minIndex_;
    std::uint32_t minHead_ = 0, minSize_ = 0;
    std::uint64_t index_ = 0;
    // Moving average of the held minimum over lookahead_ samples.
    std::vector<float> avgRing_;
    std::uint32_t avgAt_ = 0;
    double avgSum_ = 0;
    double perLookahead_ = 1.0 / 64;
    float gain_ = 1.0f;  // after release
    float minGainSeen_ = 1.0f;
    // Quiet passages skip the detector: when every input in its window is under quietLevel_, no
    // interpolated point can reach the ceiling, so the request is exactly 1 without computing it.
    float quietLevel_ = 0.0f;
    std::uint32_t quietRun_ = 0;  // inputs in a row under quietLevel_ (saturates)

    void applyInputGain(float* io, std::uint32_t frames) BOOP_RT;
    void computeRequests(const float* io, std::uint32_t frames) BOOP_RT;
    void processBlock(float* io, std::uint32_t frames) BOOP_RT;
    void passRun(float* io, std::uint32_t frames) BOOP_RT;
    float applyRequest(float request) BOOP_RT;
    // Gain 1, nothing held below 1, nothing in the average below 1: a request of 1 changes nothing.
    bool settled() const noexcept {
        return gain_ == 1.0f && minSize_ == 1 && minValue_[minHead_] == 1.0f &&
               avgSum_ == static_cast<double>(lookahead_);
    }
};

}  // namespace dsp
}  // namespace boop
