#pragma once
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include "ambient/AmbientConfig.hpp"
#include "ambient/EuclideanRhythm.hpp"
#include "ambient/HarmonyManager.hpp"
#include "dsp/FdnReverb.hpp"
#include "dsp/FmLead.hpp"
#include "dsp/Granulator.hpp"
#include "dsp/LoudnessFollower.hpp"
#include "dsp/OceanNoise.hpp"
#include "dsp/PingPongDelay.hpp"
#include "dsp/PolySynth.hpp"
#include "dsp/Rng.hpp"
#include "dsp/SlowDrift.hpp"
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

    // Stereo interleaved. Real-time safe (unless the worker was started).
    void render(float* out, std::uint32_t frames) BOOP_RT;

    // Offline rendering on two cores: from now on the composition, the pad, the lead and its echo
    // (and with the AVX2 kernels the ocean) are rendered up to a few thousand frames ahead on a
    // thread of the engine's own, while render() adds the grains (and otherwise the ocean),
    // mixes, reverberates and masters what they made. The samples
    // are exactly those of a render without it. Call before the first render; render() then
    // waits on that thread, so a real-time thread must never render this engine. False when no
    // thread could be had (the engine renders alone, as before). Allocates; control thread.
    bool startWorker();
    bool hasWorker() const noexcept { return worker_.joinable(); }
    // render() for an engine whose worker runs: waits on it, so never on a real-time thread.
    void renderWithWorker(float* out, std::uint32_t frames);
    ~AmbientEngine();
    AmbientEngine(const AmbientEngine&) = delete;
    AmbientEngine& operator=(const AmbientEngine&) = delete;

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
    // measureLoudness on this engine, rendering the piece once: the first `seconds` after the
    // fade-in are mixed now (two cores where it can) and kept before the master stage, the
    // loudness is measured on them, and render() later puts them through the master stage with
    // the gain normalize() set: the samples of an engine that never measured. False (the engine
    // must not be used then) when the mix held anything not finite or near it, where the master
    // stage would have reset the effects: the caller measures on an engine of its own instead.
    // Call on a new engine, before startWorker. Allocates (8 bytes a frame); control thread.
    bool measureAhead(double seconds, double& lufs);
    std::uint64_t frame() const noexcept { return mixFrame_; }

  private:
    // The control values: the sources' levels, the lead's place in the stereo field, the grains'
    // density. A stretch of the sources takes them at its start.
    struct Mix {
        float padLevel = 0, leadLevel = 0, grainLevel = 0, oceanLevel = 0;
        float leadPanL = 0.7071f, leadPanR = 0.7071f;
        float grainDensity = 0;
    };
    // One stretch of the sources (pad, lead, ocean) and of the lead's echo, between two
    // composition events (at most kChunk frames), and the control values the rest takes at its
    // start. The echo is fed by the lead alone, so it is made with the sources: on the worker's
    // core, which balances the two threads (docs/DESIGN.md). The ocean depends on nothing but its
    // own frame count, so it may be made on either side (oceanWithSources_).
    struct Sources {
        int n = 0;
        Mix mix;
        float padL[kChunk], padR[kChunk], lead[kChunk], ocL[kChunk], ocR[kChunk], dlL[kChunk], dlR[kChunk];
    };
    // Stretches the worker may run ahead, and the stretches made or freed before a sleeping side
    // is woken: large batches, since each wake-up is a system call on the waking side's path.
    static constexpr std::uint32_t kRing = 512;
    static constexpr std::uint32_t kWakeBatch = 128;

    // The composition up to the next event (at most `limit` frames), rendered into s.
    void renderSources(Sources& s, std::uint64_t limit) BOOP_RT;
    void renderOceanAndEcho(Sources& s) BOOP_RT;
    // Frames [at, at + n) of s mixed, reverberated and mastered into out.
    void mix(const Sources& s, int at, float* out, int n) BOOP_RT;
    // The same before the master stage: the dry and reverberated sound into l, r.
    void mixWet(const Sources& s, int at, float* l, float* r, int n) BOOP_RT;
    // n (at most kChunk) frames of the mix measureAhead kept, from frame mixFrame_, mastered into out.
    void replay(float* out, int n) BOOP_RT;
    // Where the ring is empty, waits for the worker's next stretch; then the stretch is done with.
    void waitForStretch(std::uint32_t tail);
    void releaseStretch(std::uint32_t& tail);
    // measureAhead's loop: frames mixed into capture_ and measured; false where not finite.
    bool capture(dsp::LoudnessMeter& meter, std::uint64_t total, bool twoCores);
    void workerLoop() noexcept;
    void stopWorker() noexcept;
    void applyRequests() BOOP_RT;
    void controlTick() BOOP_RT;
    void chordChange() BOOP_RT;
    // A chord change as the status shows it, from the frame it starts on.
    struct ChordShown {
        std::uint64_t frame, chords;
        std::int32_t key, root, degree, quality;
    };
    void showChord(const ChordShown& c) BOOP_RT;
    void leadStep() BOOP_RT;
    void mixDry(const Sources& s, int at, int n) BOOP_RT;
    std::uint64_t untilSilence(std::uint64_t n) const BOOP_RT;
    void master(float* l, float* r, float* out, int n) BOOP_RT;
    void steadyGains(const float* l, const float* r, float* gain, int n) BOOP_RT;
    void rampGains(const float* l, const float* r, float* gain, int n) BOOP_RT;
    void limit(float* l, float* r, const float* gain, float* out, int n) BOOP_RT;
    void prepareVoices();
    void prepareEffects();
    void prepareComposition();
    void finishRender(const float* out, std::uint32_t frames, std::uint32_t counted) BOOP_RT;
    void publish(float peakL, float peakR, const double* sums, std::uint32_t n) BOOP_RT;
    std::uint64_t stepFrame(std::uint64_t k) const BOOP_RT;

    boop_ambient_config cfg_;
    double sr_;

    dsp::PolySynth pad_;
    dsp::FmLead lead_;
    dsp::PingPongDelay delay_;
    dsp::FdnReverb reverb_;
    dsp::Granulator grains_;
    dsp::OceanNoise ocean_;
    HarmonyManager harmony_;
    EuclideanRhythm rhythm_;
    dsp::SoftLimiter limiter_;
    dsp::LoudnessFollower level_;
    bool normalizing_ = false;
    dsp::LoudnessMeter* probe_ = nullptr;  // measureLoudness's meter of the unnormalised signal
    dsp::Rng leadRng_, driftRng_;
    dsp::SlowDrift cutoffDrift_, detuneDrift_, grainDrift_, oceanDrift_, leadDrift_;

    // composition clock
    std::uint64_t frame_ = 0;
    std::uint64_t nextControl_ = 0;
    std::uint64_t stepIndex_ = 0, nextStepFrame_ = 0;
    std::uint64_t chordIndex_ = 0, nextChordFrame_ = 0;
    std::uint64_t chordSteps_ = 16;
    double framesPerStep_ = 1.0;
    int leadIndex_ = 3;
    float panL_ = 0.7071f, panR_ = 0.7071f, panGlide_ = 0.01f;

    // control-rate values
    Mix mix_;

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
    std::atomic<std::uint64_t> echoNonfinite_{0};  // counted where the echo runs (the worker)

    // scratch, one control period long
    Sources chunk_;
    float grainIn_[kChunk], grL_[kChunk], grR_[kChunk];
    float dryL_[kChunk], dryR_[kChunk], rvL_[kChunk], rvR_[kChunk], ocL_[kChunk], ocR_[kChunk];
    double sums_[5] = {0, 0, 0, 0, 0};

    // The worker (offline only): it fills ring_[head_ % kRing], render() empties
    // ring_[tail_ % kRing]; each waits on wake_ only when the ring is full or empty.
    std::unique_ptr<Sources[]> ring_;
    std::thread worker_;
    std::atomic<std::uint32_t> head_{0}, tail_{0};
    std::atomic<bool> stopping_{false};
    std::atomic<bool> workerWaits_{false};  // for room in the ring
    std::atomic<bool> renderWaits_{false};  // for a stretch
    std::mutex wakeMutex_;
    std::condition_variable wake_;
    int tailAt_ = 0;              // frames of ring_[tail_] already mixed
    std::uint64_t mixFrame_ = 0;  // the frames mixed so far (frame_ is the worker's clock)
    // Whether the ocean is made with the sources (beside the echo) or by mix(); the same samples
    // either way. startWorker picks the side that balances the two threads for the kernel.
    bool oceanWithSources_ = true;
    // Whether the lead's lowpass runs inside the pad's kernel (renderSources): with AVX2 the pad's
    // eight lanes fill one register and the lead's recursion overlaps them (7 % less time for the
    // two); the baseline's pad, already short of registers, gains nothing from it.
    bool leadBesidePad_ = true;
    // The worker stops when the composition clock reaches this frame (measureAhead's end).
    std::uint64_t workerStop_ = UINT64_MAX;
    // What measureAhead mixed: the first captured_ frames before the master stage (interleaved),
    // and the layers' energies for the meters, five per kChunk frames.
    std::unique_ptr<float[]> capture_;
    std::unique_ptr<double[]> captureSums_;
    std::uint64_t captured_ = 0;
    // The chord changes the composition made before logUntil_ (measureAhead's frames), shown as
    // replay() reaches them rather than when they were composed.
    std::unique_ptr<ChordShown[]> chordLog_;
    std::size_t chordLogSize_ = 0, chordLogCap_ = 0, chordLogAt_ = 0;
    std::uint64_t logUntil_ = 0;
};

}  // namespace boop::ambient
