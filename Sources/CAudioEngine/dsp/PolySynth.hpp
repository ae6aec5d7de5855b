#pragma once
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include "dsp/FmLead.hpp"
#include "dsp/PolyBlep.hpp"
#include "dsp/Rng.hpp"
#include "dsp/SimdTypes.hpp"
#include "dsp/Svf.hpp"
#include "rt/Realtime.hpp"

namespace boop::dsp {

// The sums of eight frames' lanes (v[f] the lanes of frame f), each added as simd::sum adds
// one vector, ((0 + 4) + (1 + 5)) + ((2 + 6) + (3 + 7)): halves, then pairs, then the two pair
// sums, eight frames at a time, and the result's lanes put back in frame order.
BOOP_SIMD_INLINE dsp::simd::f8 frameSums(const dsp::simd::f8* v) noexcept {
    using dsp::simd::f8;
    f8 t[4];
    for (int j = 0; j < 4; ++j)
        t[j] = __builtin_shufflevector(v[2 * j], v[2 * j + 1], 0, 1, 2, 3, 8, 9, 10, 11) +
               __builtin_shufflevector(v[2 * j], v[2 * j + 1], 4, 5, 6, 7, 12, 13, 14, 15);
    const f8 u0 = dsp::simd::pairSums(t[0], t[1]), u1 = dsp::simd::pairSums(t[2], t[3]);
    const f8 w = dsp::simd::pairSums(u0, u1);  // frames 0, 2, 4, 6, 1, 3, 5, 7
    return __builtin_shufflevector(w, w, 0, 4, 1, 5, 2, 6, 3, 7);
}

// Each frame's sounding lanes summed into out, eight frames at a time where they can be.
BOOP_SIMD_INLINE void sumFrames(const dsp::simd::f8* lanes, float* out, int m) noexcept {
    int i = 0;
    for (; i + 8 <= m; i += 8) *reinterpret_cast<dsp::simd::f8u*>(out + i) = frameSums(lanes + i);
    for (; i < m; ++i) out[i] = dsp::simd::sum(lanes[i]);
}

// The FM lead's tone lowpass over frames [0, live) of its terms (FmLead::terms) into out, zeros
// after: stepped frame by frame beside the pad's, its recursion (a scalar chain, latency-bound)
// overlaps the pad's vector work, where one after the other they added up.
struct PadBeside {
    FmLeadState* lead;
    const FmLeadTerms* terms;
    int live;
    float* out;
};

// A PadBeside's filter in locals for the pad's kernel (the same arithmetic as FmLead's kernel in
// the kernel's instruction set); nothing where there is none.
struct BesideRun {
    int live = 0;
    dsp::SvfStateSpace tone{};
    float s1 = 0.0f, s2 = 0.0f;
    const float *bx1 = nullptr, *bx2 = nullptr, *dx = nullptr;
    float* out = nullptr;
    BOOP_SIMD_INLINE explicit BesideRun(const PadBeside* b) noexcept {
        if (!b) return;
        live = b->live;
        tone = b->lead->toneSpace;
        s1 = b->lead->tone.ic1;
        s2 = b->lead->tone.ic2;
        bx1 = b->terms->bx1;
        bx2 = b->terms->bx2;
        dx = b->terms->dx;
        out = b->out;
    }
    BOOP_SIMD_INLINE void step(int i) noexcept {
        if (i < live) out[i] = tone.processTerms(s1, s2, bx1[i], bx2[i], dx[i]);
    }
    BOOP_SIMD_INLINE void finish(const PadBeside* b, int m) noexcept {
        if (!b) return;
        b->lead->tone.ic1 = s1;
        b->lead->tone.ic2 = s2;
        for (int i = live; i < m; ++i) out[i] = 0.0f;
    }
};

// One pass over m (at most 32) frames of the pad's lanes (PolySynth::Lanes is its state); compiled
// for the baseline target and, where the CPU has them, for AVX2 + FMA, where the eight lanes fill
// one register and the whole state stays in registers. MayEnd: whether a released voice can fall
// under the end threshold within these frames; where none can, its checks are left out (they
// would change nothing). The polyBLEP's correction is zero on a frame where no lane of an
// oscillator is within one increment of its wrap (most frames): there the saw is the ramp alone.
template <bool MayEnd, class Lanes>
__attribute__((always_inline)) inline void renderPadLanes(Lanes& lanes, const dsp::SvfCoeffs& c, float attackStep,
                                                          float releaseCoef, float* outL, float* outR, int m,
                                                          const PadBeside* beside) noexcept {
    using f8 = dsp::simd::f8;
    using i8 = dsp::simd::i8;
    constexpr int kOscs = 3;
    Lanes s = lanes;
    const f8 zero = dsp::simd::splat(0.0f), one = dsp::simd::splat(1.0f);
    f8 frameL[32], frameR[32];
    BesideRun lead(beside);
    for (int i = 0; i < m; ++i) {
        lead.step(i);
        s.env = dsp::simd::select<f8>(s.gate, dsp::simd::min(s.env + attackStep, one), s.env * releaseCoef);
        f8 o[kOscs];
        i8 near = {};
        for (int k = 0; k < kOscs; ++k) near |= (s.phase[k] < s.inc[k]) | (s.phase[k] > 1.0f - s.inc[k]);
        if (dsp::simd::anyLane(near)) {
            for (int k = 0; k < kOscs; ++k) o[k] = dsp::polyBlepSaw(s.phase[k], s.inc[k], s.perInc[k]);
        } else {
            for (int k = 0; k < kOscs; ++k) o[k] = s.phase[k] + s.phase[k] - 1.0f;
        }
        for (int k = 0; k < kOscs; ++k) {
            // Silent voices keep their phases, so a voice reused later starts where it stopped: their
            // increments are zero (Lanes), so t is the phase itself.
            const f8 t = s.phase[k] + s.inc[k];
            s.phase[k] = dsp::simd::select<f8>(t >= 1.0f, t - 1.0f, t);
        }
        const f8 a = s.env * s.gain;
        const f8 l = (0.6f * o[0] + 0.9f * o[2] + 0.3f * o[1]) * a;
        const f8 r = (0.6f * o[0] + 0.9f * o[1] + 0.3f * o[2]) * a;
        const f8 yl = s.left.lowpass(c, l), yr = s.right.lowpass(c, r);
        // A silent lane's filter holds zeros and its input is zero: its output is +0, as a mask would make it.
        frameL[i] = yl;
        frameR[i] = yr;
        if constexpr (MayEnd) {
            // A released voice under -100 dB ends after this frame: it and its filters go quiet.
            const i8 ended = s.active & ~s.gate & (s.env < 1e-5f);
            s.active &= ~ended;
            s.env = dsp::simd::select<f8>(ended, zero, s.env);
            for (int k = 0; k < kOscs; ++k) s.inc[k] = dsp::simd::select<f8>(ended, zero, s.inc[k]);
            s.left.ic1 = dsp::simd::select<f8>(s.active, s.left.ic1, zero);
            s.left.ic2 = dsp::simd::select<f8>(s.active, s.left.ic2, zero);
            s.right.ic1 = dsp::simd::select<f8>(s.active, s.right.ic1, zero);
            s.right.ic2 = dsp::simd::select<f8>(s.active, s.right.ic2, zero);
        }
    }
    lanes = s;
    lead.finish(beside, m);
    // The frames' lanes summed here, in the kernel's own instruction set.
    sumFrames(frameL, outL, m);
    sumFrames(frameR, outR, m);
}

// The pad: six voices, each three polyBLEP saws (polyBlepSaw) (centre, +detune panned right, -detune panned
// left) into a stereo TPT state-variable lowpass whose cutoff the composer moves slowly.
// Envelopes are linear attack / exponential release, slow by design (seconds).
//
// The six voices are lanes of eight-wide vectors (two lanes stay silent), so one pass of
// straight-line vector code renders all of them per frame; each lane does exactly what one voice
// did when they were rendered one after another.
class PolySynth {
  public:
    static constexpr int kVoices = 6;
    static constexpr int kOscs = 3;

    void prepare(double sampleRate, std::uint64_t seed) noexcept {
        sampleRate_ = sampleRate;
        seed_ = seed;
        setAttack(attackSeconds_);
        setRelease(releaseSeconds_);
        setFilter(cutoffHz_, q_);
        reset();
    }

    void reset() BOOP_RT {
        dsp::Rng rng(seed_, dsp::kStreamPad);
        lanes_ = Lanes{};
        for (int i = 0; i < kVoices; ++i) {
            voices_[i] = Voice{};
            for (auto& p : lanes_.phase) p[i] = rng.uniform();
        }
        ageCounter_ = 0;
    }

    void setDetuneCents(float cents) BOOP_RT { detuneCents_ = cents < 0.0f ? 0.0f : (cents > 100.0f ? 100.0f : cents); }
    void setAttack(double seconds) BOOP_RT {
        attackSeconds_ = seconds < 0.001 ? 0.001 : seconds;
        attackStep_ = static_cast<float>(1.0 / (attackSeconds_ * sampleRate_));
    }
    // Time to fall by 60 dB.
    void setRelease(double seconds) BOOP_RT {
        releaseSeconds_ = seconds < 0.005 ? 0.005 : seconds;
        releaseCoef_ = static_cast<float>(std::exp(std::log(0.001) / (releaseSeconds_ * sampleRate_)));
        releaseOverFold_ = std::pow(static_cast<double>(releaseCoef_), kFold);
    }
    // Control rate: shared by every voice.
    void setFilter(double cutoffHz, double q) BOOP_RT {
        cutoffHz_ = cutoffHz;
        q_ = q;
        coeffs_.set(sampleRate_, cutoffHz, q);
    }

    // Starts a note on the quietest released voice (or the quietest voice at all), keeping its
    // oscillator phases and current envelope level so a reused voice never clicks.
    int noteOn(double frequencyHz, float gain) BOOP_RT {
        int best = 0;
        float bestScore = 1e30f;
        for (int i = 0; i < kVoices; ++i) {
            const Voice& v = voices_[i];
            // Prefer released voices, then the quietest, then the oldest.
            const float score = (lanes_.gate[i] ? 10.0f : 0.0f) + lanes_.env[i] + static_cast<float>(v.age) * 1e-9f;
            if (score < bestScore) {
                bestScore = score;
                best = i;
            }
        }
        Voice& v = voices_[best];
        const double nyq = 0.45 * sampleRate_;
        if (frequencyHz > nyq) frequencyHz = nyq;
        if (frequencyHz < 1.0) frequencyHz = 1.0;
        v.frequency = frequencyHz;
        lanes_.gate[best] = -1;
        lanes_.active[best] = -1;
        lanes_.gain[best] = gain;
        v.age = ageCounter_++;
        updateIncrements(best, detuneRatio());
        return best;
    }

    void releaseAll() BOOP_RT { lanes_.gate = dsp::simd::i8{}; }

    // Recomputes increments after a detune change (control rate).
    void refreshTuning() BOOP_RT {
        const double ratio = detuneRatio();  // the same for every voice: worked out once
        for (int i = 0; i < kVoices; ++i)
            if (lanes_.active[i]) updateIncrements(i, ratio);
    }

    int activeVoices() const BOOP_RT {
        int n = 0;
        for (int i = 0; i < kVoices; ++i) n += lanes_.active[i] ? 1 : 0;
        return n;
    }

    // Writes n stereo samples (overwrites outL/outR).
    void process(float* outL, float* outR, int n) BOOP_RT {
        if (activeVoices() == 0) {
            for (int i = 0; i < n; ++i) outL[i] = outR[i] = 0.0f;
            return;
        }
        for (int done = 0; done < n; done += kFold) {
            const int m = n - done < kFold ? n - done : kFold;
            renderLanes(outL + done, outR + done, m, nullptr);
        }
    }

    // process() of n (at most kFold) frames with the lead's filter stepped beside (PadBeside).
    // False when no voice sounds: the pad's zeros are written and the lead is left to the caller.
    bool processBeside(float* outL, float* outR, int n, const PadBeside& beside) BOOP_RT {
        if (activeVoices() == 0) {
            for (int i = 0; i < n; ++i) outL[i] = outR[i] = 0.0f;
            return false;
        }
        renderLanes(outL, outR, n, &beside);
        return true;
    }

    // Per-lane state (lanes kVoices ... 7 stay inactive); public for the render kernels below.
    struct alignas(32) Lanes {
        dsp::simd::f8 phase[kOscs] = {};
        dsp::simd::f8 inc[kOscs] = {};     // zero in a silent lane (set by noteOn, cleared when the voice ends)
        dsp::simd::f8 perInc[kOscs] = {};  // 1 / inc, for the polyBLEP
        dsp::simd::f8 env = {}, gain = {};
        dsp::simd::i8 gate = {}, active = {};        // -1 where true
        dsp::SvfStateOf<dsp::simd::f8> left, right;  // the stereo lowpass, a lane per voice
    };

  private:
    using f8 = dsp::simd::f8;
    using i8 = dsp::simd::i8;
    static constexpr int kFold = 32;
    using Kernel = void (*)(Lanes&, const dsp::SvfCoeffs&, float, float, float*, float*, int, const PadBeside*) BOOP_RT;
    struct Kernels {
        Kernel mayEnd, noEnd;
    };
    static Kernels chooseKernels() noexcept;

    struct Voice {
        double frequency = 0.0;
        std::uint64_t age = 0;
    };

    // m frames of every lane, each frame's lanes summed into outL/outR, with the kernel chosen for
    // this CPU at construction.
    void renderLanes(float* outL, float* outR, int m, const PadBeside* beside) BOOP_RT {
        const Kernel k = mayEnd() ? kernels_.mayEnd : kernels_.noEnd;
        k(lanes_, coeffs_, attackStep_, releaseCoef_, outL, outR, m, beside);
    }
    // Whether a released voice may end within the next kFold frames: its level falls by the
    // factor releaseCoef_ a frame (each step rounded, by at most 2^-24 of it, hence the margin).
    bool mayEnd() const BOOP_RT {
        for (int i = 0; i < kVoices; ++i)
            if (lanes_.active[i] && !lanes_.gate[i] &&
                !(static_cast<double>(lanes_.env[i]) * releaseOverFold_ > 1.001e-5))
                return true;
        return false;
    }

    double detuneRatio() const BOOP_RT { return std::exp2(static_cast<double>(detuneCents_) / 1200.0); }
    void updateIncrements(int lane, double ratio) BOOP_RT {
        const double frequency = voices_[lane].frequency;
        const double f[kOscs] = {frequency, frequency * ratio, frequency / ratio};
        for (int o = 0; o < kOscs; ++o) {
            lanes_.inc[o][lane] = static_cast<float>(f[o] / sampleRate_);
            lanes_.perInc[o][lane] = 1.0f / lanes_.inc[o][lane];
        }
    }

    double sampleRate_ = 48000.0;
    std::uint64_t seed_ = 0;
    double attackSeconds_ = 2.0, releaseSeconds_ = 4.0;
    float attackStep_ = 0.0f, releaseCoef_ = 0.999f;
    double releaseOverFold_ = 0.0;  // releaseCoef_ to the power kFold
    float detuneCents_ = 8.0f;
    double cutoffHz_ = 1200.0, q_ = 0.707;
    dsp::SvfCoeffs coeffs_;
    Lanes lanes_;
    Kernels kernels_ = chooseKernels();
    Voice voices_[kVoices];
    std::uint64_t ageCounter_ = 0;
};

template <bool MayEnd>
inline void renderPadBaseline(PolySynth::Lanes& lanes, const dsp::SvfCoeffs& c, float attackStep, float releaseCoef,
                              float* outL, float* outR, int m, const PadBeside* beside) BOOP_RT {
    renderPadLanes<MayEnd>(lanes, c, attackStep, releaseCoef, outL, outR, m, beside);
}
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
template <bool MayEnd>
__attribute__((target("avx2,fma"))) inline void renderPadAvx2(PolySynth::Lanes& lanes, const dsp::SvfCoeffs& c,
                                                              float attackStep, float releaseCoef, float* outL,
                                                              float* outR, int m, const PadBeside* beside) BOOP_RT {
    renderPadLanes<MayEnd>(lanes, c, attackStep, releaseCoef, outL, outR, m, beside);
}
#endif

inline PolySynth::Kernels PolySynth::chooseKernels() noexcept {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    if (dsp::simd::useAvx2()) return {renderPadAvx2<true>, renderPadAvx2<false>};
#endif
    return {renderPadBaseline<true>, renderPadBaseline<false>};
}

}  // namespace boop::dsp
