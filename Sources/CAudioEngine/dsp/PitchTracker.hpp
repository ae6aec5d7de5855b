#pragma once
// A pitch track for voices: YIN's dips in every frame, weighed as probabilistic YIN weighs them
// (M. Mauch and S. Dixon, "pYIN: a fundamental frequency estimator using probabilistic threshold
// distributions", ICASSP 2014), and a path through them found by a fixed-lag Viterbi search.
//
// Why: one frame alone cannot tell a voice's period T from 2T (a weak first dip in breath noise)
// or from T/2 (a strong second harmonic under a formant), nor a breathy voiced frame from noise.
// Continuity can: a path pays for every cent it jumps between frames and for every switch between
// voiced and unvoiced, so an isolated octave jump or a one-frame dropout costs more than it is
// worth. The decision for a frame is taken `lag` frames later (the live needle trails by that
// much; flush() gives the last frames at the end of a recording).
//
// Each frame's candidates are YIN's dips that are deeper than every dip before them; the
// probability that a candidate is "the first dip below the threshold" for a threshold drawn from
// a Beta(2, 8) distribution (mean 0.2: the paper's 0.1 calls a voice in 10 dB of noise unvoiced) is F(depth of the
// previous one) − F(its own), F the distribution's CDF; what is left, F(deepest), is the probability of "unvoiced".
#include <array>
#include <cstdint>
#include <vector>

#include "dsp/Yin.hpp"
#include "rt/Realtime.hpp"

namespace boop {
namespace dsp {

struct PitchFrame {
    uint64_t index = 0;       // frame number, from 0 after reset()
    double frequency = 0.0;   // Hz on the chosen path; 0 = unvoiced
    double guess = 0.0;       // Hz: the path's pitch, or when unvoiced the likeliest candidate's (0: none)
    double voicedProb = 0.0;  // the frame's probability of a dip below the threshold, 0 ... 1
    double depth = 1.0;       // d' of the chosen dip
};

class PitchTracker {
  public:
    static constexpr uint32_t kMaxCandidates = 12;
    static constexpr uint32_t kMaxLag = 31;

    // Allocates the YIN detector for windows of windowSize frames; decisions `lag` frames late.
    void prepare(double sampleRate, uint32_t windowSize, uint32_t lag);
    void setRange(double minHz, double maxHz) noexcept { yin_.setRange(minHz, maxHz); }
    void setSilenceThreshold(double dbfs) noexcept { yin_.setSilenceThreshold(dbfs); }
    // Cost per semitone of pitch change between frames (default 0.5; hop-dependent).
    void setJumpCost(double perSemitone) noexcept { jumpCost_ = perSemitone; }
    // The threshold distribution Beta(2, b): mean 2/(2+b) (default b = 8, mean 0.2).
    void setThresholdShape(double b) noexcept { betaB_ = b; }
    // Cutoff (Hz) of the lowpass ahead of YIN (0 = none; default 3000 Hz).
    void setLowpass(double hz) noexcept;
    void reset() noexcept;

    // Analyses the last window of samples as the next frame. True when the decision for the
    // frame `lag` frames back is in `out`.
    bool push(const float* samples, uint32_t n, PitchFrame& out) BOOP_RT;
    // At the end: the frames not decided yet, in order; returns how many were written (≤ max).
    uint32_t flush(PitchFrame* out, uint32_t max) BOOP_RT;

  private:
    static constexpr uint32_t kStates = kMaxCandidates + 1;  // state 0 = unvoiced
    static constexpr uint32_t kRing = kMaxLag + 1;
    struct Slot {
        uint32_t count = 0;                   // candidates (states 1 ... count)
        std::array<double, kStates> cents{};  // state's pitch (cents above MIDI 0)
        std::array<double, kStates> hz{};
        std::array<double, kStates> depth{};
        std::array<uint8_t, kStates> back{};  // best previous state
        double voicedProb = 0.0;
        double guess = 0.0;
    };

    void analyse(const float* samples, uint32_t n) BOOP_RT;
    const float* lowpassed(const float* w, uint32_t m) BOOP_RT;
    void markHalfPeriods(uint32_t count, std::array<bool, kMaxCandidates>& half) const BOOP_RT;
    void observe(const float* samples, uint32_t n, Slot& slot, std::array<double, kStates>& emission) BOOP_RT;
    void step(Slot& slot, const std::array<double, kStates>& emission) BOOP_RT;
    PitchFrame decided(uint64_t frame, uint32_t state, double aheadCents) BOOP_RT;
    uint32_t bestState() const BOOP_RT;

    Yin yin_;
    static constexpr double kHalfRatio = 0.1;
    double jumpCost_ = 0.5;
    double betaB_ = 8.0;
    double lastVoicedCents_ = 0.0;
    uint64_t lastVoicedFrame_ = 0;
    static constexpr uint64_t kHoldFrames = 10;
    uint32_t window_ = 0;
    double lowpassHz_ = 3000.0;
    double lowpassCoefficient_ = 0.0;
    std::vector<float> filtered_;
    uint32_t lag_ = 8;
    uint64_t frames_ = 0;   // frames pushed
    uint64_t emitted_ = 0;  // frames decided
    std::array<Slot, kRing> ring_{};
    std::array<double, kStates> cost_{};  // cumulative path cost per state of the newest frame
    std::array<YinCandidate, kMaxCandidates> scratch_{};
};

}  // namespace dsp
}  // namespace boop
