#pragma once
#include <cmath>
#include <cstdlib>
#include "dsp/SimdTypes.hpp"
#include "dsp/Svf.hpp"
#include "rt/Realtime.hpp"

namespace boop::dsp {

// The lead's render state: what one pass of its kernel reads and advances (FmLead below).
// Frames are computed in groups of eight, counted from the last event (a note-on, a parameter
// change), never from where a render call began, so the output does not depend on how the frames
// are split into calls, and the carrier and modulator of a group are one vector of frames. The
// envelope stays the frame-by-frame recursion (eight scalar steps a group): where a note ends
// decides the phase the next one starts at, so it must not move with rounding.
struct FmLeadState {
    bool active = false;
    int used = 0;                             // frames of the current group already rendered (a call ended inside it)
    double carrierBase = 0.0, modBase = 0.0;  // phases (turns, [0, 1)) at the group's first frame
    double carrierInc = 0.0, modInc = 0.0;
    alignas(32) double carrierSteps[8] = {}, modSteps[8] = {};  // k * increment
    float groupEnv = 0.0f;                                      // the level before the group's first frame
    bool groupAttacking = false;
    float env = 0.0f;  // the last rendered frame's level, and whether it was still rising
    bool attacking = false;
    float peak = 0.0f, attackStep = 0.0f, decayCoef = 0.999f;
    float indexTracked = 2.0f;
    // The tone lowpass (SvfState::lowpass) in state-space form: the same filter, each frame's
    // recursion one multiply-add deep.
    dsp::SvfStateSpace toneSpace;
    dsp::SvfState tone;
};

// The lowpass's input terms of up to 32 frames (b1 x, b2 x and d x of SvfStateSpace::processTerms).
struct FmLeadTerms {
    float bx1[32], bx2[32], dx[32];
};

// The lead's kernel, compiled for each instruction set by the wrappers below.
struct FmLeadKernel {
    typedef double d4 __attribute__((vector_size(32), aligned(32)));

    // x - round(x) for |x| < 2^51: the phase in [-0.5, 0.5] turns, without floor (a libm call on
    // the SSE2 baseline) — adding and removing 1.5 * 2^52 rounds to the nearest integer.
    static BOOP_SIMD_INLINE d4 reduceTurns(d4 x) noexcept {
        const d4 magic = d4{} + 6755399441055744.0;
        return x - ((x + magic) - magic);
    }
    static BOOP_SIMD_INLINE dsp::simd::f8 reduceTurns(dsp::simd::f8 x) noexcept {
        const dsp::simd::f8 magic = dsp::simd::splat(12582912.0f);  // 1.5 * 2^23
        return x - ((x + magic) - magic);
    }
    // The eight frames' phases base + k * inc, reduced in double and then rounded to float.
    static BOOP_SIMD_INLINE dsp::simd::f8 groupPhases(double base, const double* steps) noexcept {
        const d4 lo = reduceTurns(base + *reinterpret_cast<const d4*>(steps));
        const d4 hi = reduceTurns(base + *reinterpret_cast<const d4*>(steps + 4));
        typedef float f4 __attribute__((vector_size(16)));
        const f4 l = __builtin_convertvector(lo, f4), h = __builtin_convertvector(hi, f4);
        return __builtin_shufflevector(l, h, 0, 1, 2, 3, 4, 5, 6, 7);
    }
    // Phases stay in [0, 1): truncation is floor for the non-negative sums here.
    static BOOP_SIMD_INLINE double wrapTurns(double x) noexcept {
        return x - static_cast<double>(static_cast<long long>(x));
    }

    // The envelope of a group, frame by frame as defined: linear attack to the peak, then
    // exponential decay; the note ends on the frame it falls under -100 dB (then `end` is the frames
    // it sounds, `dies` is set and the rest are zero). peakLane: the frame the attack reached the
    // peak on, if it did in this group.
    static BOOP_SIMD_INLINE void groupLevels(const FmLeadState& s, float* levels, int& end, bool& dies,
                                             int& peakLane) noexcept {
        bool up = s.groupAttacking;
        float e = s.groupEnv;
        if (!up) {
            // Decaying (the common case): eight multiplies; the level only falls, so the note ends in
            // this group only if its last frame is under the threshold.
            for (int k = 0; k < 8; ++k) levels[k] = e *= s.decayCoef;
            if (levels[7] >= 1e-5f) return;
        }
        e = s.groupEnv;
        up = s.groupAttacking;
        for (int k = 0; k < 8; ++k) {
            if (up) {
                e += s.attackStep;
                if (e >= s.peak) {
                    e = s.peak;
                    up = false;
                    peakLane = k;
                }
            } else {
                e *= s.decayCoef;
            }
            levels[k] = e;
            if (!up && e < 1e-5f) {
                end = k + 1;
                dies = true;
                for (int r = k + 1; r < 8; ++r) levels[r] = 0.0f;
                return;
            }
        }
    }

    // The tone lowpass's input terms of up to n frames (at most 32) of the lead, whose carrier and
    // modulator of a group of eight frames are computed as vectors and the envelope frame by frame;
    // returns how many frames sound (the lead falls silent after them). The lowpass's recursion is
    // filterTerms, run by the caller beside other work (PolySynth::processBeside) or by render.
    static BOOP_SIMD_INLINE int terms(FmLeadState& s, FmLeadTerms& t, int n) noexcept {
        using dsp::simd::f8;
        constexpr float kInvTwoPi = 0.15915494309189533577f;
        const dsp::SvfStateSpace tone = s.toneSpace;
        int i = 0;
        while (i < n && s.active) {
            alignas(32) float levels[8];
            int end = 8;
            bool dies = false;
            int peakLane = -1;  // the frame the attack reached the peak on, if it did in this group
            groupLevels(s, levels, end, dies, peakLane);
            const f8 env = *reinterpret_cast<const f8*>(levels);
            const f8 mod = dsp::simd::sinTurns(groupPhases(s.modBase, s.modSteps));
            const f8 idx = s.indexTracked * (0.25f + 0.75f * env);
            const f8 arg = groupPhases(s.carrierBase, s.carrierSteps) + idx * mod * kInvTwoPi;
            const f8 raw = env * dsp::simd::sinTurns(reduceTurns(arg));

            const int stop = end - s.used < n - i ? end : s.used + (n - i);
            const f8 in1 = tone.b1 * raw, in2 = tone.b2 * raw, inOut = tone.d * raw;
            if (s.used == 0 && stop == 8) {
                // A whole group (most of them): three vector stores rather than 24 lanes one by one.
                *reinterpret_cast<dsp::simd::f8u*>(t.bx1 + i) = in1;
                *reinterpret_cast<dsp::simd::f8u*>(t.bx2 + i) = in2;
                *reinterpret_cast<dsp::simd::f8u*>(t.dx + i) = inOut;
                i += 8;
            } else {
                for (int k = s.used; k < stop; ++k, ++i) {
                    t.bx1[i] = in1[k];
                    t.bx2[i] = in2[k];
                    t.dx[i] = inOut[k];
                }
            }
            s.env = levels[stop - 1];
            s.attacking = s.groupAttacking && (peakLane < 0 || stop - 1 < peakLane);
            if (stop < end) {
                s.used = stop;
                break;
            }
            s.used = 0;
            s.carrierBase = wrapTurns(s.carrierBase + end * s.carrierInc);
            s.modBase = wrapTurns(s.modBase + end * s.modInc);
            if (dies) {
                s.active = false;
                s.env = 0.0f;
            }
            s.groupEnv = s.env;
            s.groupAttacking = s.attacking;
        }
        return i;
    }

    // The lowpass over frames [0, live) of the terms into out, zeros after, up to n.
    static BOOP_SIMD_INLINE void filterTerms(FmLeadState& s, const FmLeadTerms& t, int live, float* out,
                                             int n) noexcept {
        float ic1 = s.tone.ic1, ic2 = s.tone.ic2;
        const dsp::SvfStateSpace tone = s.toneSpace;
        int i = 0;
        for (; i < live; ++i) out[i] = tone.processTerms(ic1, ic2, t.bx1[i], t.bx2[i], t.dx[i]);
        for (; i < n; ++i) out[i] = 0.0f;
        s.tone.ic1 = ic1;
        s.tone.ic2 = ic2;
    }

    // n frames of the lead into out (overwrites), 32 at a time.
    static BOOP_SIMD_INLINE void render(FmLeadState& s, float* out, int n) noexcept {
        FmLeadTerms t;
        for (int done = 0; done < n; done += 32) {
            const int m = n - done < 32 ? n - done : 32;
            filterTerms(s, t, terms(s, t, m), out + done, m);
        }
    }
};

inline void renderFmLeadBaseline(FmLeadState& s, float* out, int n) BOOP_RT { FmLeadKernel::render(s, out, n); }
inline int fmLeadTermsBaseline(FmLeadState& s, FmLeadTerms& t, int n) BOOP_RT { return FmLeadKernel::terms(s, t, n); }
inline void fmLeadFilterBaseline(FmLeadState& s, const FmLeadTerms& t, int live, float* out, int n) BOOP_RT {
    FmLeadKernel::filterTerms(s, t, live, out, n);
}
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
__attribute__((target("avx2,fma"))) inline void renderFmLeadAvx2(FmLeadState& s, float* out, int n) BOOP_RT {
    FmLeadKernel::render(s, out, n);
}
__attribute__((target("avx2,fma"))) inline int fmLeadTermsAvx2(FmLeadState& s, FmLeadTerms& t, int n) BOOP_RT {
    return FmLeadKernel::terms(s, t, n);
}
__attribute__((target("avx2,fma"))) inline void fmLeadFilterAvx2(FmLeadState& s, const FmLeadTerms& t, int live,
                                                                 float* out, int n) BOOP_RT {
    FmLeadKernel::filterTerms(s, t, live, out, n);
}
#endif

// A two-operator FM (phase-modulation) voice: a sine modulator at ratio x f drives a sine carrier
// at f. One percussive envelope (linear attack, exponential decay) shapes both the level and the
// modulation index, so notes start bright and mellow as they fade: the bell/pluck of the lead.
// Monophonic; a new note starts from the current level so retriggers never click.
class FmLead {
  public:
    void prepare(double sampleRate) noexcept {
        sampleRate_ = sampleRate;
        // A gentle lowpass takes the glassy edge (and any fold-over) off the top sidebands.
        dsp::SvfCoeffs tone;
        tone.set(sampleRate, 7000.0, 0.6);
        s_.toneSpace = dsp::SvfStateSpace::of(tone);
        setEnvelope(attackSeconds_, decaySeconds_);
        reset();
    }
    void reset() BOOP_RT {
        s_.carrierBase = s_.modBase = 0.0;
        s_.used = 0;
        s_.env = s_.groupEnv = 0.0f;
        s_.attacking = s_.groupAttacking = false;
        s_.peak = 0.0f;
        s_.active = false;
        s_.tone.reset();
    }

    void setRatio(double ratio) BOOP_RT {
        ratio_ = ratio < 0.0 ? 0.0 : ratio;
        updateIncrements();
    }
    void setIndex(float index) BOOP_RT {
        index_ = index < 0.0f ? 0.0f : (index > 20.0f ? 20.0f : index);
        updateIncrements();
    }
    // decaySeconds: time to fall 60 dB after the attack.
    void setEnvelope(double attackSeconds, double decaySeconds) BOOP_RT {
        rebase();
        attackSeconds_ = attackSeconds < 0.0005 ? 0.0005 : attackSeconds;
        decaySeconds_ = decaySeconds < 0.01 ? 0.01 : decaySeconds;
        attackFrames_ = static_cast<float>(attackSeconds_ * sampleRate_);
        s_.decayCoef = static_cast<float>(std::exp(std::log(0.001) / (decaySeconds_ * sampleRate_)));
    }

    void noteOn(double frequencyHz, float velocity) BOOP_RT {
        const double nyq = 0.45 * sampleRate_;
        frequency_ = frequencyHz < 1.0 ? 1.0 : (frequencyHz > nyq ? nyq : frequencyHz);
        updateIncrements();
        s_.peak = velocity < 0.0f ? 0.0f : (velocity > 1.0f ? 1.0f : velocity);
        s_.attackStep = (s_.peak - s_.env) / attackFrames_;
        if (s_.attackStep < 0.0f) s_.attackStep = 0.0f;
        s_.attacking = s_.groupAttacking = s_.attackStep > 0.0f;
        s_.groupEnv = s_.env;
        s_.active = true;
    }

    bool active() const BOOP_RT { return s_.active; }
    float level() const BOOP_RT { return s_.env; }

    void process(float* out, int n) BOOP_RT { kernel_(s_, out, n); }

    // process() in two parts, for a caller that runs the tone lowpass's recursion beside other
    // work: the terms of n (at most 32) frames, returning how many sound; then the lowpass over
    // them into out (filter, or the caller's own loop on state(), in the kernel's instruction set:
    // PolySynth::processBeside). The same samples.
    int terms(FmLeadTerms& t, int n) BOOP_RT { return kernels_.terms(s_, t, n); }
    void filter(const FmLeadTerms& t, int live, float* out, int n) BOOP_RT { kernels_.filter(s_, t, live, out, n); }
    FmLeadState& state() BOOP_RT { return s_; }

  private:
    using Kernel = void (*)(FmLeadState&, float*, int) BOOP_RT;
    struct Parts {
        int (*terms)(FmLeadState&, FmLeadTerms&, int) BOOP_RT;
        void (*filter)(FmLeadState&, const FmLeadTerms&, int, float*, int) BOOP_RT;
    };
    static Kernel chooseKernel() noexcept {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
        if (dsp::simd::useAvx2()) return renderFmLeadAvx2;
#endif
        return renderFmLeadBaseline;
    }
    static Parts chooseParts() noexcept {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
        if (dsp::simd::useAvx2()) return {fmLeadTermsAvx2, fmLeadFilterAvx2};
#endif
        return {fmLeadTermsBaseline, fmLeadFilterBaseline};
    }

    // Starts a new group at the next frame, folding the frames already rendered of the current
    // one into its bases, so a change takes effect from the next frame on.
    void rebase() BOOP_RT {
        if (s_.used == 0) return;
        s_.carrierBase = FmLeadKernel::wrapTurns(s_.carrierBase + s_.used * s_.carrierInc);
        s_.modBase = FmLeadKernel::wrapTurns(s_.modBase + s_.used * s_.modInc);
        s_.groupEnv = s_.env;
        s_.groupAttacking = s_.attacking;
        s_.used = 0;
    }

    void updateIncrements() BOOP_RT {
        rebase();
        // Key tracking: high notes get a smaller index, as acoustic bells and pianos get duller
        // relative to their pitch; it also keeps the upper sidebands below Nyquist.
        double track = std::sqrt(400.0 / (frequency_ > 1.0 ? frequency_ : 1.0));
        if (track > 1.0) track = 1.0;
        if (track < 0.2) track = 0.2;
        s_.indexTracked = index_ * static_cast<float>(track);
        s_.carrierInc = frequency_ / sampleRate_;
        double m = frequency_ * ratio_ / sampleRate_;
        if (m > 0.45) m = 0.45;  // keep the modulator below Nyquist at any ratio
        s_.modInc = m;
        for (int k = 0; k < 8; ++k) {
            s_.carrierSteps[k] = k * s_.carrierInc;
            s_.modSteps[k] = k * s_.modInc;
        }
    }

    double sampleRate_ = 48000.0;
    double frequency_ = 440.0, ratio_ = 2.0;
    float index_ = 2.0f;
    double attackSeconds_ = 0.005, decaySeconds_ = 1.5;
    float attackFrames_ = 240.0f;
    FmLeadState s_;
    Kernel kernel_ = chooseKernel();
    Parts kernels_ = chooseParts();
};

}  // namespace boop::dsp
