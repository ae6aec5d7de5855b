#pragma once
#include <atomic>
#include <cstdint>
#include "ambient/AmbientConfig.hpp"
#include "ambient/EuclideanRhythm.hpp"
#include "ambient/FmLead.hpp"
#include "ambient/HarmonyManager.hpp"
#include "ambient/OceanNoise.hpp"
#include "ambient/PolySynth.hpp"
#include "ambient/SlowDrift.hpp"
#include "dsp/FdnReverb.hpp"
#include "dsp/Granulator.hpp"
#include "dsp/LoudnessFollower.hpp"
#include "dsp/PingPongDelay.hpp"
#include "dsp/Rng.hpp"
#include "dsp/SoftLimiter.hpp"
#include "include/CAudioEngine.h"
#include "rt/Realtime.hpp"

namespace boop::ambient {

// Composes the units into stereo. Deterministic: every decision (chord changes, lead steps,
// drift) happens on an exact frame computed from the frame clock, and the units advance per
// sample, so the output is a function of (config, seed, rate) alone, independent of how the
// frames are split into render calls. Only pause/fade requests, which come from outside, are
// applied at render-call boundaries.
class AmbientEngine {
  public:
    static constexpr int kChunk = 32;  // control-rate period in frames; also the scratch size

    // Allocates everything (delay lines, reverb, grain buffer). The config must be valid.
    explicit AmbientEngine(const boop_ambient_config& config);

    // Stereo interleaved. Real-time safe.
    void render(float* out, std::uint32_t frames) BOOP_RT;

    // Control thread; lock-free.
    void requestFadeOut(double seconds) noexcept;
    void requestPause(bool paused, double fadeSeconds) noexcept;
    // Any thread.
    void status(boop_ambient_status& s) const noexcept;

    const boop_ambient_config& config() const noexcept { return cfg_; }

    // Loudness normalisation (control thread, before rendering): the output is kept near
    // `targetLufs`, starting from `expectedLufs`, what this piece measures without it
    // (measureLoudness). Off until called: the composition's own level.
    void normalize(double targetLufs, double expectedLufs) noexcept;
    // Renders `seconds` of the piece `config` describes after its fade-in, on an engine of its
    // own, and returns its integrated loudness (BS.1770, LUFS) before any normalisation.
    // Allocates; control thread.
    static double measureLoudness(const boop_ambient_config& config, double seconds);
    std::uint64_t frame() const noexcept { return frame_; }

  private:
    void applyRequests() BOOP_RT;
    void controlTick() BOOP_RT;
    void chordChange() BOOP_RT;
    void leadStep() BOOP_RT;
    void processChunk(float* out, int n) BOOP_RT;
    void mixDry(int n) BOOP_RT;
    void master(float* out, int n) BOOP_RT;
    void prepareVoices();
    void prepareEffects();
    void prepareComposition();
    void publish(float peakL, float peakR, const double* sums, std::uint32_t n) BOOP_RT;
    std::uint64_t stepFrame(std::uint64_t k) const BOOP_RT;

    boop_ambient_config cfg_;
    double sr_;

    PolySynth pad_;
    FmLead lead_;
    PingPongDelay delay_;
    FdnReverb reverb_;
    Granulator grains_;
    OceanNoise ocean_;
    HarmonyManager harmony_;
    EuclideanRhythm rhythm_;
    SoftLimiter limiter_;
    LoudnessFollower level_;
    bool normalizing_ = false;
    LoudnessMeter* probe_ = nullptr;  // measureLoudness's meter of the unnormalised signal
    Rng leadRng_, driftRng_;
    SlowDrift cutoffDrift_, detuneDrift_, grainDrift_, oceanDrift_, leadDrift_;

    // composition clock
    std::uint64_t frame_ = 0;
    std::uint64_t nextControl_ = 0;
    std::uint64_t stepIndex_ = 0, nextStepFrame_ = 0;
    std::uint64_t chordIndex_ = 0, nextChordFrame_ = 0;
    std::uint64_t chordSteps_ = 16;
    double framesPerStep_ = 1.0;
    int leadIndex_ = 3;
    float leadPanL_ = 0.7071f, leadPanR_ = 0.7071f, panL_ = 0.7071f, panR_ = 0.7071f, panGlide_ = 0.01f;

    // control-rate values
    float padLevel_ = 0, leadLevel_ = 0, grainLevel_ = 0, oceanLevel_ = 0;

    // master gain ramps
    double fadeInStep_ = 1.0, fadeIn_ = 1.0;
    float fade_ = 1.0f, fadeTarget_ = 1.0f, fadeStep_ = 1.0f;
    bool finishing_ = false, finished_ = false, pausing_ = false;

    // requests from the control thread
    std::atomic<std::uint32_t> fadeOutSeq_{0};
    std::atomic<double> fadeOutSeconds_{0.02};
    std::atomic<std::uint32_t> pauseSeq_{0};
    std::atomic<int> pauseWanted_{0};
    std::atomic<double> pauseFadeSeconds_{0.02};
    std::uint32_t seenFadeOutSeq_ = 0, seenPauseSeq_ = 0;

    // published for the terminal view
    std::atomic<std::uint64_t> pubFrame_{0}, pubChords_{0}, pubNonfinite_{0};
    std::atomic<std::int32_t> pubKey_{0}, pubRoot_{0}, pubDegree_{0}, pubQuality_{0};
    std::atomic<float> pubPeakL_{0}, pubPeakR_{0}, pubPad_{0}, pubLead_{0}, pubGrain_{0}, pubOcean_{0}, pubReverb_{0};
    std::atomic<int> pubPaused_{0}, pubFading_{0}, pubFinished_{0};
    std::uint64_t nonfinite_ = 0;

    // scratch, one control period long
    float padL_[kChunk], padR_[kChunk], leadMono_[kChunk], grainIn_[kChunk], grL_[kChunk], grR_[kChunk];
    float ocL_[kChunk], ocR_[kChunk], dlIn_[kChunk], dlL_[kChunk], dlR_[kChunk];
    float dryL_[kChunk], dryR_[kChunk], rvL_[kChunk], rvR_[kChunk];
    double sums_[5] = {0, 0, 0, 0, 0};
};

}  // namespace boop::ambient
