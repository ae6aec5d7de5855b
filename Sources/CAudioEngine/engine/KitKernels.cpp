#include <cstdint>
#include "dsp/GroupScan.hpp"
#include "dsp/Rng.hpp"
#include "engine/Kit.hpp"

namespace boop {

using dsp::simd::f8;
using dsp::simd::i8;
using dsp::simd::load8;
using dsp::simd::u8;

namespace {

constexpr float kSilent = 1e-4f;  // -80 dB: a part this quiet has ended (a hit ends when every part is below it)
constexpr float kTurnsPerStep = 1.0f / 4294967296.0f;

// Cycles per frame as 32-bit phase increments (below half a cycle: a signed conversion).
BOOP_SIMD_INLINE u8 increments(f8 freq) noexcept {
    const f8 bounded = dsp::simd::min(freq, f8{} + 0.49f) * 4294967296.0f;
    const i8 whole = __builtin_convertvector(bounded, i8);
    return reinterpret_cast<const u8&>(whole);
}

BOOP_SIMD_INLINE f8 squareOf(u8 phase) noexcept {
    const f8 high = f8{} + 0.5f, low = f8{} - 0.5f;
    return phase < 0x80000000u ? high : low;
}

// The noise's eight frames before their level: the chip's LFSR or the bright part of white noise.
BOOP_SIMD_INLINE f8 noiseFrames(KitBank::Hit& h) noexcept {
    alignas(32) float n[8];
    if (h.lfsrNoise) {
        for (int k = 0; k < 8; ++k) {
            if (h.lfsrCount-- <= 0) {
                h.lfsrCount = h.lfsrHold - 1;
                const uint32_t bit = (h.lfsr ^ (h.lfsr >> h.lfsrTap)) & 1u;
                h.lfsr = (h.lfsr >> 1) | (bit << 14);
                h.lfsrOut = (h.lfsr & 1u) ? 1.0f : -1.0f;
            }
            n[k] = h.lfsrOut;
        }
        return load8(n);
    }
    u8 r;
    __builtin_memcpy(&r, h.rng, sizeof r);
    const f8 white = dsp::Rng::xorshift32(r);
    __builtin_memcpy(h.rng, &r, sizeof r);
    // The one-pole lowpass s += (1 - hp)(white - s), and what it leaves: the bright part.
    const f8 low = dsp::simd::firstOrderScan((1.0f - h.noiseHp) * white, h.noiseHp, h.noiseState);
    h.noiseState = low[7];
    return white - low;
}

// A clap: three quick bursts 10 ms apart before the tail.
BOOP_SIMD_INLINE f8 clapShape(const KitBank::Hit& h, uint32_t gap) noexcept {
    alignas(32) float shape[8];
    for (uint32_t k = 0; k < 8; ++k) {
        const uint32_t age = h.age + k;
        shape[k] = age < gap * h.clapGaps ? 1.0f - static_cast<float>(age % gap) / static_cast<float>(gap) : 1.0f;
    }
    return load8(shape);
}

BOOP_SIMD_INLINE void hitGroup(KitBank::Hit& h, uint32_t clapGap, float* ahead) noexcept {
    const f8 zero{};
    f8 tone = zero, tone2 = zero, noise = zero;
    if (h.tone > kSilent) {
        // The frequency falls from sweep x rest toward rest; the phase is the running sum of
        // the increments, an integer add, exact whatever the grouping.
        const f8 freq = h.rest * (1.0f + (h.sweep - 1.0f) * (h.sweepEnv * load8(h.sweepPow)));
        const u8 phase = dsp::simd::prefixSum(increments(freq), h.phase);
        h.phase = phase[7];
        const f8 level = h.tone * load8(h.tonePow);
        const f8 signedTurns = __builtin_convertvector(reinterpret_cast<const i8&>(phase), f8) * kTurnsPerStep;
        const f8 wave = h.square ? squareOf(phase) : dsp::simd::sinTurns(signedTurns);
        tone = level > kSilent ? level * wave : zero;
        if (h.tone2 > 0.0f) {
            const u8 phase2 = dsp::simd::prefixSum(increments(freq * 1.48f), h.tone2Phase);
            h.tone2Phase = phase2[7];
            tone2 = level > kSilent ? (h.tone2 * load8(h.tonePow)) * squareOf(phase2) : zero;
            h.tone2 *= h.tonePow8;
        }
        h.sweepEnv *= h.sweepPow8;
        h.tone *= h.tonePow8;
    }
    if (h.noise > kSilent) {
        f8 level = h.noise * load8(h.noisePow);
        if (h.clapGaps > 0) level *= clapShape(h, clapGap);
        const f8 n = noiseFrames(h);
        noise = h.noise * load8(h.noisePow) > kSilent ? level * n : zero;
        h.noise *= h.noisePow8;
    }
    const f8 iota = {1, 2, 3, 4, 5, 6, 7, 8};
    const f8 ramp = dsp::simd::min(f8{} + 1.0f, h.rampStep * (static_cast<float>(h.age) + iota));
    const f8 out = ((tone + tone2) + noise) * (h.gain * ramp);
    __builtin_memcpy(ahead, &out, sizeof out);
    h.age += 8;
    if (h.tone <= kSilent && h.noise <= kSilent) h.ending = true;
}

void hitBaseline(KitBank::Hit& h, uint32_t clapGap) BOOP_RT {
    for (int g = 0; g < KitBank::kAhead; g += 8) hitGroup(h, clapGap, h.ahead + g);
}
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define BOOP_HAVE_AVX2_KIT 1
__attribute__((target("avx2,fma"))) void hitAvx2(KitBank::Hit& h, uint32_t clapGap) BOOP_RT {
    for (int g = 0; g < KitBank::kAhead; g += 8) hitGroup(h, clapGap, h.ahead + g);
}
#endif

}  // namespace

KitBank::Kernel KitBank::chooseKernel(bool wide) noexcept {
#if defined(BOOP_HAVE_AVX2_KIT)
    if (wide) return hitAvx2;
#else
    (void)wide;
#endif
    return hitBaseline;
}

}  // namespace boop
