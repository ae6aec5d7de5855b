#pragma once
#include <cmath>
#include "dsp/OnePole.hpp"
#include "dsp/SoftClipper.hpp"
#include "rt/Realtime.hpp"

namespace boop {
namespace dsp {

// Output stage: a stereo-linked peak limiter (instant attack, smooth release) keeps the level
// under the threshold without pumping, then the cubic soft clipper (SoftClipper::cubic) catches
// whatever remains.
struct SoftLimiter {
    float threshold = 0.8f;
    float env = 0.0f;
    float release = 0.9999f;

    void prepare(double sampleRate, double releaseSeconds = 0.4) noexcept {
        release = static_cast<float>(onePoleRetention(releaseSeconds, sampleRate));
        reset();
    }
    void reset() BOOP_RT { env = 0.0f; }

    void process(float& l, float& r) BOOP_RT {
        const float al = l < 0.0f ? -l : l, ar = r < 0.0f ? -r : r;
        float a = al > ar ? al : ar;
        follow(&a, 1);
        const float g = gainFor(a);
        l = SoftClipper::cubic(l * g);
        r = SoftClipper::cubic(r * g);
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

}  // namespace dsp
}  // namespace boop
