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

    // Branch-free (selects), so a block of it vectorises; the same values as the tests in order.
    static float clip(float x) BOOP_RT {
        const float y = x - (4.0f / 27.0f) * x * x * x;
        const float c = y > 1.0f ? 1.0f : (y < -1.0f ? -1.0f : y);
        return x >= 1.5f ? 1.0f : (x <= -1.5f ? -1.0f : c);
    }

    void process(float& l, float& r) BOOP_RT {
        const float al = l < 0.0f ? -l : l, ar = r < 0.0f ? -r : r;
        float a = al > ar ? al : ar;
        follow(&a, 1);
        const float g = gainFor(a);
        l = clip(l * g);
        r = clip(r * g);
    }

    // The block form of process, in two passes. follow: peak[i] (max |l|, |r| of frame i) becomes
    // the envelope at frame i — the one recursion, kept apart from the rest.
    void follow(float* peak, int n) BOOP_RT {
        float e = env;
        const float rel = release;
        for (int i = 0; i < n; ++i) {
            e = peak[i] > e ? peak[i] : e * rel;
            peak[i] = e;
        }
        env = e;
    }
    // The gain for a frame whose envelope is `e`: exactly 1 under the threshold.
    float gainFor(float e) const BOOP_RT { return e > threshold ? threshold / e : 1.0f; }
};

}  // namespace boop::ambient
