#pragma once
#include <cmath>
#include <cstdint>

// Waveforms for one voice at a time (the song instruments and kits), from a 32-bit phase or turns.
namespace boop {
namespace waves {

constexpr float kTurnsPerStep = 1.0f / 4294967296.0f;

// sin(2 pi x) for x in [-0.5, 0.5) turns: the engine's polynomial (dsp::simd::sinTurns), one lane.
inline float sinTurns(float x) noexcept {
    const float b = std::fabs(x) - 0.25f;
    const float b2 = b * b;
    float p = 56.24054044084265f;
    p = p * b2 - 85.24010035715763f;
    p = p * b2 + 64.93458164580115f;
    p = p * b2 - 19.739171322478587f;
    p = p * b2 + 0.9999999532476083f;
    return x < 0.0f ? -p : p;
}

// The phase as signed turns in [-0.5, 0.5) (a cosine-phase start: 0 is the wave's minimum for
// the triangle, its zero crossing for the sine).
inline float signedTurns(uint32_t phase) noexcept {
    return static_cast<float>(static_cast<int32_t>(phase)) * kTurnsPerStep;
}

// A band-limited saw at unsigned phase t in [0, 1): the naive ramp minus the polyBLEP residual.
inline float blepSaw(float t, float dt, float invDt) noexcept {
    float blep = 0.0f;
    if (t < dt) {
        const float u = t * invDt;
        blep = u + u - u * u - 1.0f;
    } else if (t > 1.0f - dt) {
        const float u = (t - 1.0f) * invDt;
        blep = u * u + u + u + 1.0f;
    }
    return (t + t - 1.0f) - blep;
}

}  // namespace waves
}  // namespace boop
