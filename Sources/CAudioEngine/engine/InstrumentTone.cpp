#include "engine/InstrumentTone.hpp"
#include <array>
#include <cmath>
#include <utility>
#include "dsp/GroupScan.hpp"

namespace boop {

using dsp::simd::f8;
using dsp::simd::firstOrderScan;
using dsp::simd::i8;
using dsp::simd::load8;
using dsp::simd::shiftUp;
using dsp::simd::u8;

namespace {

constexpr float kTurnsPerStep = 1.0f / 4294967296.0f;

BOOP_SIMD_INLINE f8 signedTurns(u8 phase) noexcept {
    return __builtin_convertvector(reinterpret_cast<const i8&>(phase), f8) * kTurnsPerStep;
}
BOOP_SIMD_INLINE f8 unsignedTurns(u8 phase) noexcept { return __builtin_convertvector(phase, f8) * kTurnsPerStep; }

// A band-limited saw (the naive ramp minus the polyBLEP residual, as dsp::polyBlepSaw), eight
// frames at once with one increment for all of them.
BOOP_SIMD_INLINE f8 blepSaw(f8 t, float dt, float invDt) noexcept {
    const f8 u1 = t * invDt, u2 = (t - 1.0f) * invDt;
    const f8 early = u1 + u1 - u1 * u1 - 1.0f, late = u2 * u2 + u2 + u2 + 1.0f;
    const f8 zero{};
    const f8 blep = t < dt ? early : (t > 1.0f - dt ? late : zero);
    return (t + t - 1.0f) - blep;
}

BOOP_SIMD_INLINE f8 sinTurns(f8 x) noexcept { return dsp::simd::sinTurns(x); }

BOOP_SIMD_INLINE u8 phases(uint32_t phase, uint32_t increment) noexcept {
    const u8 iota = {0, 1, 2, 3, 4, 5, 6, 7};
    return phase + increment * iota;
}

// One frame of the string at a time, for strings shorter than a group (notes above
// rate / 8): the loop's sample, two-point average, allpass and loss.
BOOP_SIMD_INLINE void pluckFrames(ToneState& v, float* out) noexcept {
    for (int k = 0; k < 8; ++k) {
        const float o = v.line[v.pos];
        const float averaged = 0.5f * (o + v.last);
        v.last = o;
        const float ap = v.apCoeff * averaged + v.apIn - v.apCoeff * v.apOut;
        v.apIn = averaged;
        v.apOut = ap;
        v.line[v.pos] = 0.996f * ap;
        if (++v.pos >= v.length) v.pos = 0;
        out[k] = o;
    }
}

// Eight frames of the string: its samples read, the loop filters over the group (the allpass
// by a scan), the results written back. A group never reads what it writes: length >= 8.
BOOP_SIMD_INLINE f8 pluckGroup(ToneState& v) noexcept {
    alignas(32) float read[8];
    if (v.length < 8) {
        pluckFrames(v, read);
        return load8(read);
    }
    // Away from the line's end a group is one vector load and one store; at the end it wraps.
    const bool straight = v.pos + 8 <= v.length;
    int p = v.pos;
    if (!straight)
        for (int k = 0; k < 8; ++k) {
            read[k] = v.line[p];
            if (++p >= v.length) p = 0;
        }
    const f8 out = load8(straight ? v.line + v.pos : read);
    const f8 averaged = 0.5f * (out + shiftUp<1>(out, f8{} + v.last));
    const f8 u = v.apCoeff * averaged + shiftUp<1>(averaged, f8{} + v.apIn);
    const f8 ap = firstOrderScan(u, -v.apCoeff, v.apOut);
    const f8 written = 0.996f * ap;
    if (straight) {
        __builtin_memcpy(v.line + v.pos, &written, sizeof written);
        v.pos += 8;
        if (v.pos >= v.length) v.pos = 0;
    } else {
        p = v.pos;
        for (int k = 0; k < 8; ++k) {
            v.line[p] = written[k];
            if (++p >= v.length) p = 0;
        }
        v.pos = p;
    }
    v.last = out[7];
    v.apIn = averaged[7];
    v.apOut = ap[7];
    return out;
}

template <boop_instrument_voice V>
BOOP_SIMD_INLINE f8 oscillator(ToneState& v, const ToneShared& s) noexcept {
    const u8 ph = phases(v.phase, v.increment);
    if constexpr (V == BOOP_VOICE_SINE) {
        return sinTurns(signedTurns(ph));
    } else if constexpr (V == BOOP_VOICE_TRIANGLE) {
        return dsp::simd::abs(signedTurns(ph)) * 4.0f - 1.0f;
    } else if constexpr (V == BOOP_VOICE_SAW) {
        return blepSaw(unsignedTurns(ph), v.dt, v.invDt);
    } else if constexpr (V == BOOP_VOICE_PULSE) {
        return 0.5f *
               (blepSaw(unsignedTurns(ph), v.dt, v.invDt) - blepSaw(unsignedTurns(ph + s.widthShift), v.dt, v.invDt));
    } else if constexpr (V == BOOP_VOICE_FM) {
        // Phase modulation by a partial 3.5 times the pitch: the bell's inharmonic sidebands
        // (2.5, 4.5, 6, 8 x f) around a carrier that stays the lowest partial.
        const f8 depth = v.modIndex * s.fmPow;
        f8 x = signedTurns(ph) + depth * sinTurns(signedTurns(phases(v.phase2, v.increment2)));
        const f8 half = x + 0.5f;
        f8 whole = __builtin_convertvector(__builtin_convertvector(half, i8), f8);
        whole = whole > half ? whole - 1.0f : whole;  // floor
        v.modIndex *= s.fmPow8;
        return sinTurns(x - whole);
    } else if constexpr (V == BOOP_VOICE_PAD) {
        const f8 octave = blepSaw(unsignedTurns(phases(v.phase2, v.increment2)), v.dt2, v.invDt2);
        return 0.6f * (blepSaw(unsignedTurns(ph), v.dt, v.invDt) + 0.5f * octave);
    } else if constexpr (V == BOOP_VOICE_SUB) {
        const f8 x = sinTurns(signedTurns(ph));
        return 1.2f * x - 0.3f * x * x * x;  // a little third harmonic, a warm sub
    } else if constexpr (V == BOOP_VOICE_PLUCK) {
        return pluckGroup(v);
    } else {
        static_assert(V != V, "a voice of BOOP_VOICES (CAudioEngine.h) without its tone here");
    }
}

template <boop_instrument_voice V, bool Filtered>
BOOP_SIMD_INLINE void toneGroup(ToneState& v, const ToneShared& s, float* out) noexcept {
    f8 x = oscillator<V>(v, s);
    v.phase += v.increment * 8u;
    v.phase2 += v.increment2 * 8u;
    if constexpr (Filtered) x = s.filter.process(x, v.s1, v.s2);
    __builtin_memcpy(out, &x, sizeof x);
}

}  // namespace

void ToneShared::setFmDecay(double perFrame) BOOP_RT {
    for (int k = 0; k < 8; ++k) fmPow[k] = static_cast<float>(std::pow(perFrame, k));
    fmPow8 = static_cast<float>(std::pow(perFrame, 8));
}

// Each (voice, filter) pair compiled twice: for the baseline target and for AVX2 + FMA. The
// groups advance a copy of the voice's state, which stays in registers: the voice itself, which
// `out` might alias, would be stored every group and read back, and the baseline reads a float
// it broadcasts with a 16-byte load across the lowpass state stored the group before, a load
// that cannot be forwarded from the store and waits for it. The table has a row per voice of
// BOOP_VOICES, in its order (Palette.hpp holds the values to it).
using ToneTable = std::array<std::array<ToneKernel, 2>, BOOP_VOICE_COUNT>;
#define BOOP_TONE_KERNELS(SUFFIX, ATTRIBUTES)                                              \
    template <boop_instrument_voice V, bool Filtered>                                      \
    ATTRIBUTES void tone##SUFFIX(ToneState& v, const ToneShared& s, float* out) BOOP_RT {  \
        ToneState state = v;                                                               \
        for (int g = 0; g < kToneAhead; g += 8) toneGroup<V, Filtered>(state, s, out + g); \
        v = state;                                                                         \
    }                                                                                      \
    template <int... Voice>                                                                \
    constexpr ToneTable tones##SUFFIX(std::integer_sequence<int, Voice...>) {              \
        return {{{tone##SUFFIX<static_cast<boop_instrument_voice>(Voice), false>,          \
                  tone##SUFFIX<static_cast<boop_instrument_voice>(Voice), true>}...}};     \
    }                                                                                      \
    constexpr ToneTable kTones##SUFFIX = tones##SUFFIX(std::make_integer_sequence<int, BOOP_VOICE_COUNT>{});

namespace {
BOOP_TONE_KERNELS(Baseline, )
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define BOOP_HAVE_AVX2_TONES 1
BOOP_TONE_KERNELS(Avx2, __attribute__((target("avx2,fma"))))
#endif
}  // namespace

ToneKernel chooseToneKernel(boop_instrument_voice voice, bool filtered, bool wide) BOOP_RT {
    const int v = clampVoice(static_cast<int>(voice)), f = filtered ? 1 : 0;
#if defined(BOOP_HAVE_AVX2_TONES)
    if (wide) return kTonesAvx2[v][f];
#else
    (void)wide;
#endif
    return kTonesBaseline[v][f];
}

}  // namespace boop
