#pragma once
#include <cmath>
#include "dsp/Rng.hpp"
#include "rt/Realtime.hpp"

namespace boop::dsp {

// Slow parameter drift: a value in [-1, 1] that glides between random targets along a
// smoothstep, each leg lasting periodSeconds x (0.6 ... 1.4). Advanced at control rate by a
// whole number of frames, so it only depends on the frame clock, never on render block sizes.
struct SlowDrift {
    double sampleRate = 48000.0;
    double periodSeconds = 30.0;
    float from = 0.0f, to = 0.0f, value = 0.0f;
    double legFrames = 1.0, pos = 0.0;

    void prepare(double sr, double period) noexcept {
        sampleRate = sr;
        periodSeconds = period;
        reset();
    }
    void reset() BOOP_RT {
        from = to = value = 0.0f;
        legFrames = 1.0;
        pos = 1.0;  // first advance picks the first target
    }

    // Advances by `frames`; returns the new value.
    float advance(dsp::Rng& rng, unsigned frames) BOOP_RT {
        pos += static_cast<double>(frames);
        if (pos >= legFrames) {
            from = value;
            to = rng.bipolar();
            legFrames = periodSeconds * sampleRate * (0.6 + 0.8 * rng.uniform());
            if (legFrames < 1.0) legFrames = 1.0;
            pos = 0.0;
        }
        const float t = static_cast<float>(pos / legFrames);
        const float s = t * t * (3.0f - 2.0f * t);
        value = from + (to - from) * s;
        return value;
    }
};

}  // namespace boop::dsp
