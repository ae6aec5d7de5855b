#pragma once
#include <cmath>
#include "dsp/SimdTypes.hpp"
#include "rt/Realtime.hpp"

namespace boop {
namespace dsp {

// Second-order lowpass (RBJ cookbook, bilinear transform with pre-warping). With Q = 1/sqrt(2)
// it is a Butterworth: exactly -3.01 dB at the cutoff, maximally flat below it, -12 dB/octave
// above. Coefficients are a value type so one set can feed many voices' states.
struct BiquadCoefficients {
    float b0 = 1, b1 = 0, b2 = 0, a1 = 0, a2 = 0;

    static BiquadCoefficients lowpass(double sampleRate, double cutoffHz, double q = 0.70710678118654752) noexcept {
        const double w0 = 6.283185307179586 * cutoffHz / sampleRate;
        const double cosw = std::cos(w0), alpha = std::sin(w0) / (2.0 * q);
        const double a0 = 1.0 + alpha;
        BiquadCoefficients c;
        c.b0 = static_cast<float>((1.0 - cosw) * 0.5 / a0);
        c.b1 = static_cast<float>((1.0 - cosw) / a0);
        c.b2 = c.b0;
        c.a1 = static_cast<float>(-2.0 * cosw / a0);
        c.a2 = static_cast<float>((1.0 - alpha) / a0);
        return c;
    }

    // |H(e^jw)| at frequency hz, for tests and documentation.
    double magnitudeAt(double sampleRate, double hz) const noexcept {
        const double w = 6.283185307179586 * hz / sampleRate;
        const double cr1 = std::cos(w), ci1 = -std::sin(w), cr2 = std::cos(2 * w), ci2 = -std::sin(2 * w);
        const double nr = b0 + b1 * cr1 + b2 * cr2, ni = b1 * ci1 + b2 * ci2;
        const double dr = 1 + a1 * cr1 + a2 * cr2, di = a1 * ci1 + a2 * ci2;
        return std::sqrt((nr * nr + ni * ni) / (dr * dr + di * di));
    }
};

// One step of the transposed direct form II recursion: for one filter (C = BiquadCoefficients,
// T = float) or for eight filters side by side as vector lanes (C = BiquadLanes, T = simd::f8),
// the same expressions, so a lane gives the bits a scalar filter gives. Two states, well
// conditioned in single precision at audio cutoffs.
template <class C, class T>
BOOP_SIMD_INLINE T biquadStep(const C& c, T x, T& z1, T& z2) noexcept {
    const T y = c.b0 * x + z1;
    z1 = c.b1 * x - c.a1 * y + z2;
    z2 = c.b2 * x - c.a2 * y;
    return y;
}

// Eight sets of coefficients, one per lane.
struct BiquadLanes {
    simd::f8 b0{}, b1{}, b2{}, a1{}, a2{};

    void set(int lane, const BiquadCoefficients& c) noexcept {
        b0[lane] = c.b0;
        b1[lane] = c.b1;
        b2[lane] = c.b2;
        a1[lane] = c.a1;
        a2[lane] = c.a2;
    }
};

struct Lowpass {
    void prepare(double sampleRate, double cutoffHz = 2000.0) noexcept {
        coefficients = BiquadCoefficients::lowpass(sampleRate, cutoffHz);
        reset();
    }
    void reset() noexcept { z1 = z2 = 0.0f; }

    float process(float x) BOOP_RT { return biquadStep(coefficients, x, z1, z2); }

    BiquadCoefficients coefficients;
    float z1 = 0.0f, z2 = 0.0f;
};

}  // namespace dsp
}  // namespace boop
