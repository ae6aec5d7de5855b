#pragma once
#include <cmath>
#include "rt/Realtime.hpp"

namespace boop::ambient {

// Output stage: a stereo-linked peak limiter (instant attack, smooth release) keeps the level
// under the threshold without pumping, then a cubic soft clipper (unity gain at zero, flat at
// +-1.5 -> +-1) catches whatever remains, and a final clamp makes |y| <= 1 a certainty.
struct SoftLimiter {
    float threshold = 0.8f;
    float env = 0.0f;
    float release = 0.9999f;

    void prepare(double sampleRate, double releaseSeconds = 0.4) noexcept {
        release = static_cast<float>(std::exp(-1.0 / (releaseSeconds * sampleRate)));
        reset();
    }
    void reset() BOOP_RT { env = 0.0f; }

    static float clip(float x) BOOP_RT {
        if (x >= 1.5f) return 1.0f;
        if (x <= -1.5f) return -1.0f;
        const float y = x - (4.0f / 27.0f) * x * x * x;
        return y > 1.0f ? 1.0f : (y < -1.0f ? -1.0f : y);
    }

    void process(float& l, float& r) BOOP_RT {
        const float al = l < 0.0f ? -l : l, ar = r < 0.0f ? -r : r;
        const float a = al > ar ? al : ar;
        env = a > env ? a : env * release;
        if (env > threshold) {
            const float g = threshold / env;
            l *= g;
            r *= g;
        }
        l = clip(l);
        r = clip(r);
    }
};

}  // namespace boop::ambient
