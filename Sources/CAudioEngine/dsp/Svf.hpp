#pragma once
#include <cmath>
#include "rt/Realtime.hpp"

namespace boop::ambient {

// Coefficients of the topology-preserving-transform state-variable filter (Zavalishin / Simper).
// Kept apart from the state so many voices can share one set recomputed at control rate.
struct SvfCoeffs {
    float g = 0.0f, k = 1.414f, a1 = 1.0f, a2 = 0.0f, a3 = 0.0f;

    // cutoff is clamped below Nyquist so tan() stays finite; q in [0.5, 20].
    void set(double sampleRate, double cutoffHz, double q) BOOP_RT {
        const double nyq = 0.49 * sampleRate;
        if (!(cutoffHz > 10.0)) cutoffHz = 10.0;
        if (cutoffHz > nyq) cutoffHz = nyq;
        if (!(q > 0.5)) q = 0.5;
        if (q > 20.0) q = 20.0;
        const double gg = std::tan(3.14159265358979323846 * cutoffHz / sampleRate);
        const double kk = 1.0 / q;
        g = static_cast<float>(gg);
        k = static_cast<float>(kk);
        a1 = static_cast<float>(1.0 / (1.0 + gg * (gg + kk)));
        a2 = static_cast<float>(gg) * a1;
        a3 = static_cast<float>(gg) * a2;
    }
};

struct SvfState {
    float ic1 = 0.0f, ic2 = 0.0f;

    void reset() BOOP_RT { ic1 = ic2 = 0.0f; }

    // Returns lowpass; band receives the bandpass output.
    float process(const SvfCoeffs& c, float x, float& band) BOOP_RT {
        const float v3 = x - ic2;
        const float v1 = c.a1 * ic1 + c.a2 * v3;
        const float v2 = ic2 + c.a2 * ic1 + c.a3 * v3;
        ic1 = 2.0f * v1 - ic1;
        ic2 = 2.0f * v2 - ic2;
        band = v1;
        return v2;
    }
    float lowpass(const SvfCoeffs& c, float x) BOOP_RT {
        float b;
        return process(c, x, b);
    }
};

}  // namespace boop::ambient
