#pragma once
#include <cmath>
#include "dsp/SimdTypes.hpp"
#include "rt/Realtime.hpp"

namespace boop {
namespace dsp {

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

// The filter's two integrator states and its one step, for one filter (T = float) or for the
// lanes of a vector (T = simd::f8, every lane with the same coefficients): the same expressions,
// so a lane gives the bits a scalar filter gives. Always inlined, like every helper a vector
// kernel calls (a 32-byte vector passed to a function compiled without AVX would not arrive
// intact).
template <class T>
struct SvfStateOf {
    T ic1{}, ic2{};

    void reset() BOOP_RT { ic1 = ic2 = T{}; }

    // Returns lowpass; band receives the bandpass output.
    BOOP_SIMD_INLINE T process(const SvfCoeffs& c, T x, T& band) noexcept {
        const T v3 = x - ic2;
        const T v1 = c.a1 * ic1 + c.a2 * v3;
        const T v2 = ic2 + c.a2 * ic1 + c.a3 * v3;
        ic1 = 2.0f * v1 - ic1;
        ic2 = 2.0f * v2 - ic2;
        band = v1;
        return v2;
    }
    BOOP_SIMD_INLINE T lowpass(const SvfCoeffs& c, T x) noexcept {
        T b;
        return process(c, x, b);
    }
};
using SvfState = SvfStateOf<float>;

// The same filter rearranged as a state space: the two integrator states as linear functions of
// themselves and the input, s' = A s + B x, and an output mixed from low and band,
// y = (low + bandMix band) gain = C s + D x. Each step's critical path is one multiply-add deep
// instead of the TPT form's chain of four, which is what a frame-by-frame recursion waits on.
struct SvfStateSpace {
    float a11 = 1, a12 = 0, a21 = 0, a22 = 1, b1 = 0, b2 = 0, c1 = 0, c2 = 0, d = 0;

    // From v1 (band) = a1 ic1 + a2 (x - ic2), v2 (low) = ic2 + a2 ic1 + a3 (x - ic2),
    // ic1' = 2 v1 - ic1, ic2' = 2 v2 - ic2.
    static SvfStateSpace of(const SvfCoeffs& k, float bandMix = 0.0f, float gain = 1.0f) noexcept {
        SvfStateSpace m;
        m.a11 = 2.0f * k.a1 - 1.0f;
        m.a12 = -2.0f * k.a2;
        m.b1 = 2.0f * k.a2;
        m.a21 = 2.0f * k.a2;
        m.a22 = 1.0f - 2.0f * k.a3;
        m.b2 = 2.0f * k.a3;
        m.c1 = (k.a2 + bandMix * k.a1) * gain;
        m.c2 = (1.0f - k.a3 - bandMix * k.a2) * gain;
        m.d = (k.a3 + bandMix * k.a2) * gain;
        return m;
    }

    // One frame: returns its output and advances the states (s1 = ic1, s2 = ic2).
    BOOP_SIMD_INLINE float process(float& s1, float& s2, float x) const noexcept {
        const float y = c1 * s1 + c2 * s2 + d * x;
        const float n1 = a11 * s1 + a12 * s2 + b1 * x;
        s2 = a21 * s1 + a22 * s2 + b2 * x;
        s1 = n1;
        return y;
    }
    // One frame whose input terms were multiplied out beforehand, as a vector kernel does for a
    // group of frames at once: bx1 = b1 x, bx2 = b2 x, dx = d x.
    BOOP_SIMD_INLINE float processTerms(float& s1, float& s2, float bx1, float bx2, float dx) const noexcept {
        const float y = c1 * s1 + c2 * s2 + dx;
        const float n1 = a11 * s1 + a12 * s2 + bx1;
        s2 = a21 * s1 + a22 * s2 + bx2;
        s1 = n1;
        return y;
    }
};

}  // namespace dsp
}  // namespace boop
