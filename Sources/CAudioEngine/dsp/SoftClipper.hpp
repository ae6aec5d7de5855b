#pragma once
#include <cmath>
#include "rt/Realtime.hpp"

namespace boop {

// Transparent below the knee (so velocity ratios and tuning measured on a single voice are
// exact), then a tanh shoulder that is C1-continuous at the knee and approaches but never
// reaches 1.0 — the output stays inside [-1, 1] however many accented voices pile up.
struct SoftClipper {
    static constexpr float kKnee = 0.5f;

    static float process(float x) BOOP_RT {
        const float ax = std::fabs(x);
        if (ax <= kKnee) return x;
        const float over = (ax - kKnee) / (1.0f - kKnee);
        const float shaped = kKnee + (1.0f - kKnee) * std::tanh(over);
        // tanh rounds to exactly 1.0f for large inputs; keep the promise "never 1.0 or above".
        const float bounded = shaped < 0.99999f ? shaped : 0.99999f;
        return std::copysign(bounded, x);
    }
};

}  // namespace boop
