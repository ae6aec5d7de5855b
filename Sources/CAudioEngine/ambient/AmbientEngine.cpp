// The engine: its construction, the requests from the control thread, the render loop and the
// published status. The composition is in AmbientComposer.cpp, the worker thread in
// AmbientWorker.cpp, the mix and master stage in AmbientMaster.cpp.
#include "ambient/AmbientEngine.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include "rt/Denormals.hpp"

namespace boop::ambient {

AmbientEngine::AmbientEngine(const boop_ambient_config& config) : cfg_(config), sr_(config.sample_rate) {
    prepareVoices();
    prepareEffects();
    prepareComposition();
    // With the baseline kernels the pad and the lead take longer and the worker is the busier
    // side: the ocean is made by the render thread. With AVX2 it is made beside the echo, whose
    // recursion it overlaps (docs/DESIGN.md). Without the worker either serves.
    oceanWithSources_ = dsp::simd::useAvx2();
    leadBesidePad_ = dsp::simd::useAvx2();
}

AmbientEngine::~AmbientEngine() { stopWorker(); }

void AmbientEngine::normalize(double targetLufs, double expectedLufs) noexcept {
    level_.prepare(sr_, targetLufs);
    level_.setEstimate(expectedLufs);
    normalizing_ = true;
}

double AmbientEngine::measureLoudness(const boop_ambient_config& config, double seconds) {
    AmbientEngine probe(config);
    dsp::LoudnessMeter meter;
    meter.prepare(config.sample_rate, 2);
    probe.probe_ = &meter;
    const bool twoCores = probe.startWorker();
    const auto total = static_cast<std::uint64_t>((config.fade_in_seconds + seconds) * config.sample_rate);
    float block[2 * 1024];
    for (std::uint64_t done = 0; done < total; done += 1024) {
        const auto n = static_cast<std::uint32_t>(std::min<std::uint64_t>(1024, total - done));
        if (twoCores)
            probe.renderWithWorker(block, n);
        else
            probe.render(block, n);
    }
    return meter.integrated();
}

void AmbientEngine::prepareEffects() {
    delay_.prepare(sr_, 2.1);
    delay_.setTime(cfg_.delay_seconds);
    delay_.setFeedback(cfg_.delay_feedback);
    delay_.setDamping(cfg_.delay_damping);
    delay_.reset();

    reverb_.prepare(sr_);
    reverb_.setSize(cfg_.reverb_size);
    reverb_.setDecay(cfg_.reverb_decay_seconds);
    reverb_.setDamping(cfg_.reverb_damping);
    limiter_.prepare(sr_);
}

void AmbientEngine::requestFadeOut(double seconds) noexcept {
    fadeOutSeconds_.store(seconds, std::memory_order_relaxed);
    fadeOutSeq_.fetch_add(1, std::memory_order_release);
}

void AmbientEngine::requestPause(bool paused, double fadeSeconds) noexcept {
    pauseFadeSeconds_.store(fadeSeconds, std::memory_order_relaxed);
    pauseWanted_.store(paused ? 1 : 0, std::memory_order_relaxed);
    pauseSeq_.fetch_add(1, std::memory_order_release);
}

void AmbientEngine::applyRequests() BOOP_RT {
    const std::uint32_t fseq = fadeOutSeq_.load(std::memory_order_acquire);
    if (fseq != seenFadeOutSeq_) {
        seenFadeOutSeq_ = fseq;
        const double s = fadeOutSeconds_.load(std::memory_order_relaxed);
        finishing_ = true;
        fadeTarget_ = 0.0f;
        fadeStep_ = s > 0.0 ? static_cast<float>(1.0 / (s * sr_)) : 1.0f;
    }
    const std::uint32_t pseq = pauseSeq_.load(std::memory_order_acquire);
    if (pseq != seenPauseSeq_ && !finishing_) {
        seenPauseSeq_ = pseq;
        const double s = pauseFadeSeconds_.load(std::memory_order_relaxed);
        pausing_ = pauseWanted_.load(std::memory_order_relaxed) != 0;
        fadeTarget_ = pausing_ ? 0.0f : 1.0f;
        fadeStep_ = s > 0.0 ? static_cast<float>(1.0 / (s * sr_)) : 1.0f;
    }
}

// At most n frames, fewer when a fade to silence ends sooner: it must stop the clock on the
// exact sample it reaches silence.
std::uint64_t AmbientEngine::untilSilence(std::uint64_t n) const BOOP_RT {
    if (fade_ != fadeTarget_ && fadeTarget_ == 0.0f) {
        const std::uint64_t left = static_cast<std::uint64_t>(std::ceil(fade_ / fadeStep_));
        if (left >= 1 && left < n) return left;
    }
    return n;
}

void AmbientEngine::render(float* out, std::uint32_t frames) BOOP_RT {
    if (worker_.joinable()) {
        // Not for a real-time thread (see startWorker): silence rather than a race.
        for (std::uint32_t i = 0; i < 2 * frames; ++i) out[i] = 0.0f;
        return;
    }
    DenormalGuard guard;
    applyRequests();
    for (auto& s : sums_) s = 0.0;
    std::uint32_t done = 0;
    std::uint32_t counted = 0;
    while (done < frames) {
        if (finished_ || (pausing_ && fade_ == 0.0f)) {
            // Silent: the composition clock stands still.
            for (std::uint32_t i = 2 * done; i < 2 * frames; ++i) out[i] = 0.0f;
            break;
        }
        int n;
        if (mixFrame_ < captured_) {
            // What measureAhead mixed comes first; the composition is already past it.
            const std::uint64_t left = captured_ - mixFrame_, want = frames - done < kChunk ? frames - done : kChunk;
            n = static_cast<int>(untilSilence(left < want ? left : want));
            replay(out + 2 * done, n);
        } else {
            renderSources(chunk_, untilSilence(frames - done));
            n = chunk_.n;
            mix(chunk_, 0, out + 2 * done, n);
        }
        mixFrame_ += static_cast<std::uint64_t>(n);
        done += static_cast<std::uint32_t>(n);
        counted += static_cast<std::uint32_t>(n);
        if (finishing_ && fade_ == 0.0f) finished_ = true;
    }
    finishRender(out, frames, counted);
}

void AmbientEngine::finishRender(const float* out, std::uint32_t frames, std::uint32_t counted) BOOP_RT {
    // The peaks, four frames (eight samples) a step in two vectors of maxima: a maximum is the
    // same in any order, so this is the frame-by-frame loop's result.
    using dsp::simd::f4;
    typedef float f4u __attribute__((vector_size(16), aligned(4)));
    f4 m0 = {}, m1 = {};
    std::uint32_t i = 0;
    for (; i + 4 <= frames; i += 4) {
        const f4 a = dsp::simd::abs(*reinterpret_cast<const f4u*>(out + 2 * i));
        const f4 b = dsp::simd::abs(*reinterpret_cast<const f4u*>(out + 2 * i + 4));
        m0 = dsp::simd::max(m0, a);
        m1 = dsp::simd::max(m1, b);
    }
    const f4 m = dsp::simd::max(m0, m1);  // lanes: left, right, left, right
    float pl = m[0] > m[2] ? m[0] : m[2], pr = m[1] > m[3] ? m[1] : m[3];
    for (; i < frames; ++i) {
        const float l = std::fabs(out[2 * i]), r = std::fabs(out[2 * i + 1]);
        pl = l > pl ? l : pl;
        pr = r > pr ? r : pr;
    }
    publish(pl, pr, sums_, counted);
}

void AmbientEngine::publish(float peakL, float peakR, const double* sums, std::uint32_t n) BOOP_RT {
    constexpr auto relaxed = std::memory_order_relaxed;
    pubFrame_.store(mixFrame_, relaxed);
    pubPeakL_.store(peakL, relaxed);
    pubPeakR_.store(peakR, relaxed);
    if (n > 0) {
        pubPad_.store(static_cast<float>(std::sqrt(sums[0] / n)), relaxed);
        pubLead_.store(static_cast<float>(std::sqrt(sums[1] / n)), relaxed);
        pubGrain_.store(static_cast<float>(std::sqrt(sums[2] / n)), relaxed);
        pubOcean_.store(static_cast<float>(std::sqrt(sums[3] / n)), relaxed);
        pubReverb_.store(static_cast<float>(std::sqrt(sums[4] / n)), relaxed);
    } else {
        pubPad_.store(0, relaxed);
        pubLead_.store(0, relaxed);
        pubGrain_.store(0, relaxed);
        pubOcean_.store(0, relaxed);
        pubReverb_.store(0, relaxed);
    }
    pubPaused_.store(pausing_ && fade_ == 0.0f ? 1 : 0, relaxed);
    pubFading_.store(fade_ != fadeTarget_ ? 1 : 0, relaxed);
    pubFinished_.store(finished_ ? 1 : 0, relaxed);
    pubNonfinite_.store(nonfinite_ + echoNonfinite_.load(relaxed), relaxed);
}

void AmbientEngine::status(boop_ambient_status& s) const noexcept {
    constexpr auto relaxed = std::memory_order_relaxed;
    std::memset(&s, 0, sizeof s);
    s.frame = pubFrame_.load(relaxed);
    s.chords = pubChords_.load(relaxed);
    s.key = pubKey_.load(relaxed);
    s.scale = cfg_.scale;
    s.chord_root = pubRoot_.load(relaxed);
    s.chord_degree = pubDegree_.load(relaxed);
    const auto spelling = static_cast<Spelling>(cfg_.key_spelling);
    std::snprintf(s.key_name, sizeof s.key_name, "%s", noteName(s.key, spelling));
    HarmonyManager::chordName(s.chord_root, static_cast<ChordQuality>(pubQuality_.load(relaxed)), s.chord_name,
                              sizeof s.chord_name, spelling);
    s.peak_left = pubPeakL_.load(relaxed);
    s.peak_right = pubPeakR_.load(relaxed);
    s.level_pad = pubPad_.load(relaxed);
    s.level_lead = pubLead_.load(relaxed);
    s.level_grain = pubGrain_.load(relaxed);
    s.level_ocean = pubOcean_.load(relaxed);
    s.level_reverb = pubReverb_.load(relaxed);
    s.paused = pubPaused_.load(relaxed);
    s.fading = pubFading_.load(relaxed);
    s.finished = pubFinished_.load(relaxed);
    s.nonfinite_resets = pubNonfinite_.load(relaxed);
}
}  // namespace boop::ambient
