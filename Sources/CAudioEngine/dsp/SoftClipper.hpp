#pragma once
#include <cmath>
#include "rt/Realtime.hpp"

namespace boop {
namespace dsp {

// The clip curves of the output stages, in one place. Both are odd, monotonic and never leave
// [-1, 1]; they differ because each master was tuned (and every rendered file made) with its own.
struct SoftClipper {
    static constexpr float kKnee = 0.5f;

    // The patterns' and tones' master (Engine): transparent below the knee (so velocity ratios and
    // tuning measured on a single voice are exact), then a tanh shoulder that is C1-continuous at
    // the knee and approaches but never reaches 1.0 — the output stays inside [-1, 1] however many
    // accented voices pile up.
    static float process(float x) BOOP_RT {
        const float ax = std::fabs(x);
        if (ax <= kKnee) return x;
        const float over = (ax - kKnee) / (1.0f - kKnee);
        const float shaped = kKnee + (1.0f - kKnee) * std::tanh(over);
        // tanh rounds to exactly 1.0f for large inputs; keep the promise "never 1.0 or above".
        const float bounded = shaped < 0.99999f ? shaped : 0.99999f;
        return std::copysign(bounded, x);
    }

    // The ambient master's, after SoftLimiter's gain: the cubic x - 4/27 x^3 (unity gain at zero,
    // flat at +-1.5 -> +-1), then a clamp that makes |y| <= 1 a certainty. Branch-free (selects),
    // so a block of it vectorises.
    static float cubic(float x) BOOP_RT {
        const float y = x - (4.0f / 27.0f) * x * x * x;
        const float c = y > 1.0f ? 1.0f : (y < -1.0f ? -1.0f : y);
        return x >= 1.5f ? 1.0f : (x <= -1.5f ? -1.0f : c);
    }
};

}  // namespace dsp
}  // namespace boop
