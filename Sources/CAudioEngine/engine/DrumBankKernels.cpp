// The drum kernels of DrumBank: the ringing lanes, the sweeping tones and the noise, compiled
// for the baseline and for AVX2 + FMA.
#include <algorithm>
#include <cstring>

#include "engine/DrumBank.hpp"

namespace boop {

using namespace dsp::simd;

namespace {

constexpr float kSilence = 1e-4f;  // -80 dB: a part under it is inaudible, and done
// A sweep with less than this many turns left to add is over: the ringing tone's phase then
// differs from the swept one's by less than that (a 6e-6 error at full level).
constexpr double kSweepLeftTurns = 1e-6;
constexpr float kSweepLeftUnits = static_cast<float>(kSweepLeftTurns * 4294967296.0);

template <class T>
BOOP_SIMD_INLINE T load8(const void* p) noexcept {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

// The ramp-in, a fade and the velocity on `count` frames of y starting at the envelope's age;
// adds them into out. False when a fade has reached silence (the part is done).
BOOP_SIMD_INLINE bool finish(DrumBank::Envelope& e, f8 y, float* out, int count) noexcept {
    if (e.age < e.rampIn) {
        const f8 ages = static_cast<float>(e.age) + f8{0, 1, 2, 3, 4, 5, 6, 7};
        y *= select<f8>(ages < static_cast<float>(e.rampIn), ages * e.perRamp, splat(1.0f));
    }
    bool sounding = true;
    if (e.fadeStep > 0.0f) {
        for (int k = 0; k < count; ++k) {
            e.fadeGain = std::max(e.fadeGain - e.fadeStep, 0.0f);
            y[k] *= sounding ? e.fadeGain : 0.0f;
            sounding = sounding && e.fadeGain > 0.0f;
        }
    }
    y *= e.gain;
    if (count == 8) {
        f8 m = load8<f8>(out);
        m += y;
        std::memcpy(out, &m, sizeof m);
    } else {
        for (int k = 0; k < count; ++k) out[k] += y[k];
    }
    return sounding;
}

BOOP_SIMD_INLINE bool anyLane(i8 m) noexcept {
    typedef int32_t v4 __attribute__((vector_size(16)));
    v4 x = __builtin_shufflevector(m, m, 0, 1, 2, 3) | __builtin_shufflevector(m, m, 4, 5, 6, 7);
    x |= __builtin_shufflevector(x, x, 2, 3, 0, 1);
    x |= __builtin_shufflevector(x, x, 1, 0, 3, 2);
    return x[0] != 0;
}

// Every ringing lane, frame by frame: Im(level * turn[k]) for the frame's place k in its group,
// faded when a fade runs, the lanes summed into mono (a whole group's eight frames at once, in
// the same order as a lone frame's); at each group's end the levels turn by their eighth power
// (in double: a kick's tail turns 14,000 times) and lanes that have ended are cleared.
template <bool Fade>
BOOP_SIMD_INLINE f8 ringFrame(const DrumBank::Ring& r, f8 re, f8 im, uint32_t k, f8& fadeGain, f8 fadeStep) noexcept {
    f8 y = re * r.turnIm[k] + im * r.turnRe[k];
    if constexpr (Fade) {
        fadeGain = max(fadeGain - fadeStep, splat(0.0f));
        y *= fadeGain;
    }
    return y;
}

template <bool Fade>
BOOP_SIMD_INLINE uint32_t ringFrames(DrumBank::Ring& r, float* mono, uint64_t clock, int begin, int end) noexcept {
    using d8 = DrumBank::d8;
    f8 re = r.re, im = r.im, level = r.level, fadeGain = r.fadeGain;
    const f8 fadeStep = r.fadeStep, decay8 = r.decay8, silence = splat(kSilence), zero = splat(0.0f);
    d8 levelRe = r.levelRe, levelIm = r.levelIm;
    const d8 stepRe = r.stepRe, stepIm = r.stepIm;
    i8 ringing = r.ringing;
    uint32_t ended = 0;
    for (int n = begin; n < end;) {
        uint32_t k = static_cast<uint32_t>((clock + static_cast<uint64_t>(n)) & 7u);
        if (k == 0 && n + 8 <= end) {
            f8 y[8];
            for (uint32_t j = 0; j < 8; ++j) y[j] = ringFrame<Fade>(r, re, im, j, fadeGain, fadeStep);
            f8u& out = *reinterpret_cast<f8u*>(mono + n);
            out += laneTrees(y);
            n += 8;
            k = 8;
        } else {
            const int stop = std::min(end, n + static_cast<int>(8 - k));
            for (; n < stop; ++n, ++k) mono[n] += laneTree(ringFrame<Fade>(r, re, im, k, fadeGain, fadeStep));
        }
        if (k < 8) break;  // the block ends inside the group
        const d8 turnedRe = levelRe * stepRe - levelIm * stepIm;
        levelIm = levelRe * stepIm + levelIm * stepRe;
        levelRe = turnedRe;
        level *= decay8;
        i8 done = (level < silence) & ringing;
        if constexpr (Fade) done |= (fadeGain <= zero) & ringing;
        if (anyLane(done)) {
            for (int l = 0; l < 8; ++l) {
                if (!done[l]) continue;
                levelRe[l] = levelIm[l] = 0.0;
                level[l] = 0.0f;
                ringing[l] = 0;
                ended |= 1u << l;
            }
        }
        re = __builtin_convertvector(levelRe, f8);
        im = __builtin_convertvector(levelIm, f8);
    }
    r.re = re;
    r.im = im;
    r.level = level;
    r.fadeGain = fadeGain;
    r.levelRe = levelRe;
    r.levelIm = levelIm;
    r.ringing = ringing;
    return ended;
}

// What a sweeping tone advances once per group. A run of whole groups keeps it in registers:
// kept in the Sweep, each group's stores would be read back by the next group, and the baseline
// build reads a float it broadcasts with a 16-byte load wider than the 4- or 8-byte store before
// it, which cannot be forwarded: a stall of the whole group's work, every group.
struct SweepState {
    uint32_t phase;
    float sweep, amp;
};

// Frames k0 ... of a sweeping tone's group: level times the polynomial sine.
BOOP_SIMD_INLINE f8 sweepGroup(const DrumBank::Sweep& v, const SweepState& s, uint32_t k0) noexcept {
    constexpr float kTurnsPerStep = 1.0f / 4294967296.0f;
    const i8 sweepSteps = __builtin_convertvector(s.sweep * load8<f8>(v.sweepSums + k0), i8);
    const u8 phase = s.phase + load8<u8>(v.baseSteps + k0) + reinterpret_cast<const u8&>(sweepSteps);
    const f8 turns = __builtin_convertvector(reinterpret_cast<const i8&>(phase), f8) * kTurnsPerStep;
    return (s.amp * load8<f8>(v.powers + k0)) * sinTurns(turns);
}

// A sweeping tone's group end, at `age`: false when the tone has ended; sets ready when it can
// ring from here (the sweep is spent, the ramp-in done, no fade running).
BOOP_SIMD_INLINE bool sweepAdvance(const DrumBank::Sweep& v, SweepState& s, uint32_t age, bool& ready) noexcept {
    s.phase += v.base8 + static_cast<uint32_t>(static_cast<int32_t>(s.sweep * v.sweepSum8));
    s.sweep *= v.sweepDecay8;
    s.amp *= v.decay8;
    if (s.amp < kSilence) return false;
    ready = s.sweep * v.sweepLeftPerSweep < kSweepLeftUnits && age >= v.env.rampIn && v.env.fadeStep == 0.0f;
    return true;
}

BOOP_SIMD_INLINE void storeSweep(DrumBank::Sweep& v, const SweepState& s) noexcept {
    v.phase = s.phase;
    v.sweep = s.sweep;
    v.amp = s.amp;
}

// Whole groups of a sweeping tone (past the ramp-in, not fading) from frame n while they fit
// before `end`, until it is ready to ring or has ended. Returns where it stopped.
BOOP_SIMD_INLINE int sweepGroups(DrumBank::Sweep& v, float* mono, int n, int end, bool& ready) noexcept {
    SweepState s{v.phase, v.sweep, v.amp};
    uint32_t age = v.env.age;
    const float gain = v.env.gain;
    bool alive = true, isReady = false;
    while (n + 8 <= end) {
        // Separate statements, as in finish(): no multiply-add may fuse the two.
        f8 y = sweepGroup(v, s, 0);
        y *= gain;
        f8 m = load8<f8>(mono + n);
        m += y;
        std::memcpy(mono + n, &m, sizeof m);
        age += 8;
        n += 8;
        alive = sweepAdvance(v, s, age, isReady);
        if (!alive || isReady) break;
    }
    storeSweep(v, s);
    v.env.age = age;
    v.alive = alive;
    ready = isReady;
    return alive ? n : end;
}

// A sweeping tone along time, from `begin` to the first group boundary where it is ready to
// ring (then `ready`), or to `end`; returns where it stopped. Groups past the ramp-in and not
// fading take the inner loop; the others the general path. Both compute
// ((level * sine) * ramp-in * fade) * velocity, so a sample's value does not depend on the path.
BOOP_SIMD_INLINE int sweepRun(DrumBank::Sweep& v, float* mono, int begin, int end, bool& ready) noexcept {
    for (int n = begin; n < end;) {
        const uint32_t k0 = (v.env.age + v.offset) & 7u;
        if (k0 == 0 && v.env.age >= v.env.rampIn && v.env.fadeStep == 0.0f) {
            n = sweepGroups(v, mono, n, end, ready);
            if (!v.alive || ready || n >= end) return n;
        }
        SweepState s{v.phase, v.sweep, v.amp};
        const int count = std::min(static_cast<int>(8 - k0), end - n);
        if (!finish(v.env, sweepGroup(v, s, k0), mono + n, count)) {
            v.alive = false;
            return end;
        }
        v.env.age += static_cast<uint32_t>(count);
        n += count;
        if (((v.env.age + v.offset) & 7u) != 0) continue;
        const bool alive = sweepAdvance(v, s, v.env.age, ready);
        storeSweep(v, s);
        if (!alive) {
            v.alive = false;
            return end;
        }
        if (ready) return n;
    }
    return end;
}

// Whole groups of a hit's noise from frame n (past the ramp-in and re-strikes, no fade) while
// they fit before `end`. Returns where it stopped; clears `alive` when the hit has ended.
BOOP_SIMD_INLINE int noiseGroups(DrumBank::Noise& v, float* mono, int n, int end, uint32_t mask) noexcept {
    uint32_t age = v.env.age;
    float amp = v.groupAmp;
    const float gain = v.env.gain, decay8 = v.decay8;
    const f8 powers = load8<f8>(v.powers);
    bool alive = true;
    for (; n + 8 <= end && alive; n += 8) {
        const float* t = v.table + ((v.start + age) & mask);
        // The loop is read straight on, but in short runs between the other parts' work, too
        // short for the hardware prefetcher to follow.
        __builtin_prefetch(t + 64);
        f8 y = load8<f8>(t) * (amp * powers);
        y *= gain;
        f8 m = load8<f8>(mono + n);
        m += y;
        std::memcpy(mono + n, &m, sizeof m);
        age += 8;
        amp *= decay8;
        alive = amp >= kSilence;
    }
    v.alive = alive;
    v.env.age = age;
    v.groupAmp = amp;
    return n;
}

// One hit's noise along time. Groups past the ramp-in and the clap's re-strikes (its first 33 ms)
// and not fading take the inner loop; the others the general path, the re-strikes shaped frame
// by frame. Both compute ((table * level) * ramp-in * fade) * velocity.
BOOP_SIMD_INLINE void noiseRun(DrumBank::Noise& v, float* mono, int begin, int end, uint32_t mask) noexcept {
    for (int n = begin; n < end;) {
        const uint32_t k0 = v.env.age & 7u;
        if (k0 == 0 && v.env.age >= v.env.rampIn && v.env.age >= 3 * v.clapPeriod && v.env.fadeStep == 0.0f) {
            n = noiseGroups(v, mono, n, end, mask);
            if (!v.alive || n >= end) return;
        }
        const uint32_t age = v.env.age;
        const int count = std::min(static_cast<int>(8 - k0), end - n);
        const float* t = v.table + ((v.start + age) & mask);
        f8 level = v.groupAmp * load8<f8>(v.powers + k0);
        if (age < 3 * v.clapPeriod)
            for (int k = 0; k < 8; ++k)
                level[k] *= 1.0f - static_cast<float>((age + static_cast<uint32_t>(k)) % v.clapPeriod) * v.perPeriod;
        if (!finish(v.env, load8<f8>(t) * level, mono + n, count)) {
            v.alive = false;
            return;
        }
        v.env.age += static_cast<uint32_t>(count);
        n += count;
        if ((v.env.age & 7u) == 0) {
            v.groupAmp *= v.decay8;
            if (v.groupAmp < kSilence) {
                v.alive = false;
                return;
            }
        }
    }
}

#define BOOP_DRUM_KERNELS(SUFFIX, ATTRIBUTES)                                                                   \
    ATTRIBUTES uint32_t ringFrames##SUFFIX(DrumBank::Ring& r, float* m, uint64_t c, int b, int e) BOOP_RT {     \
        return ringFrames<false>(r, m, c, b, e);                                                                \
    }                                                                                                           \
    ATTRIBUTES uint32_t ringFadeFrames##SUFFIX(DrumBank::Ring& r, float* m, uint64_t c, int b, int e) BOOP_RT { \
        return ringFrames<true>(r, m, c, b, e);                                                                 \
    }                                                                                                           \
    ATTRIBUTES int sweep##SUFFIX(DrumBank::Sweep& v, float* mono, int b, int e, bool& ready) BOOP_RT {          \
        return sweepRun(v, mono, b, e, ready);                                                                  \
    }                                                                                                           \
    ATTRIBUTES void noise##SUFFIX(DrumBank::Noise& v, float* mono, int b, int e, uint32_t mask) BOOP_RT {       \
        noiseRun(v, mono, b, e, mask);                                                                          \
    }                                                                                                           \
    const DrumBank::Kernels k##SUFFIX = {{ringFrames##SUFFIX, ringFadeFrames##SUFFIX}, sweep##SUFFIX, noise##SUFFIX};
BOOP_DRUM_KERNELS(Baseline, )
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define BOOP_HAVE_AVX2_RING 1
BOOP_DRUM_KERNELS(Avx2, __attribute__((target("avx2,fma"))))
#endif

}  // namespace

const DrumBank::Kernels& DrumBank::chooseKernels() noexcept {
#if defined(BOOP_HAVE_AVX2_RING)
    if (useAvx2()) return kAvx2;
#endif
    return kBaseline;
}

}  // namespace boop
