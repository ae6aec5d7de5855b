#pragma once
#include <cmath>

#include "dsp/SimdTypes.hpp"
#include "rt/Realtime.hpp"

namespace boop {
namespace dsp {

// True peak after ITU-R BS.1770-4 Annex 2: the signal interpolated 4x by a polyphase FIR and the
// largest magnitude taken. The filter is a Kaiser-windowed sinc of 32 taps per phase, longer than
// the Annex's 12 so that a limiter relying on it is not fooled by content near the top of the
// band. Its centre sits on the 4x grid, so the four points are the sample kDelay - 1 samples back
// and the three quarter positions before it: a peak half-way between samples (a sine at a quarter
// of the rate, 45 degrees) is read exactly.
struct TruePeak {
    static constexpr int kPhases = 4;
    static constexpr int kTaps = 32;  // per phase
    static constexpr int kDelay = kTaps / 2;

    // Tap j of the four phases side by side, so one vector multiply-add serves all four phases
    // and each phase still sums its taps in order.
    typedef float Phases __attribute__((vector_size(16), aligned(16)));
    Phases taps[kTaps] = {};
    float history[2 * kTaps] = {};  // the last kTaps inputs, stored twice for a contiguous window
    int at = 0;
    // The largest sum of |taps| over the phases: no interpolated point can exceed this factor
    // times the largest input magnitude in the window (what lets a limiter skip quiet passages).
    float maxGain = 1.0f;

    void prepare() noexcept {
        const int n = kPhases * kTaps - 1;  // odd: the centre is a point of the 4x grid
        const double centre = (n - 1) / 2.0, beta = 8.0, pi = 3.14159265358979323846;
        auto bessel0 = [](double x) {
            double sum = 1, term = 1;
            for (int k = 1; k < 30; ++k) {
                term *= (x / (2 * k)) * (x / (2 * k));
                sum += term;
            }
            return sum;
        };
        double prototype[kPhases * kTaps] = {};
        for (int k = 0; k < n; ++k) {
            const double t = (k - centre) / kPhases;  // in input samples
            const double sinc = t == 0 ? 1.0 : std::sin(pi * t) / (pi * t);
            const double u = (k - centre) / (centre + 0.5);
            prototype[k] = sinc * bessel0(beta * std::sqrt(std::fmax(0.0, 1 - u * u))) / bessel0(beta);
        }
        maxGain = 0.0f;
        for (int p = 0; p < kPhases; ++p) {
            double sum = 0;
            for (int j = 0; j < kTaps; ++j) sum += prototype[j * kPhases + p];
            // Each phase passes DC at exactly unity.
            float l1 = 0.0f;
            for (int j = 0; j < kTaps; ++j) {
                taps[j][p] = static_cast<float>(prototype[j * kPhases + p] / sum);
                l1 += std::fabs(taps[j][p]);
            }
            maxGain = l1 > maxGain ? l1 : maxGain;
        }
        reset();
    }

    void reset() noexcept {
        for (float& h : history) h = 0.0f;
        at = 0;
    }

    // Takes one input without interpolating (the window moves on; peak() reads it).
    void push(float x) BOOP_RT {
        history[at] = x;
        history[at + kTaps] = x;
        at = at + 1 == kTaps ? 0 : at + 1;
    }

    // The largest magnitude among the four points of the current window.
    float peak() const BOOP_RT {
        // history[at .. at + kTaps) is oldest .. newest.
        const float* w = history + at;
        const Phases y = interpolate<Phases>(AllPhases{taps}, Newest{w + kTaps - 1});
        float peak = 0.0f;
        for (int p = 0; p < kPhases; ++p) {
            const float a = std::fabs(y[p]);
            peak = a > peak ? a : peak;
        }
        return peak;
    }

    // The polyphase sum, written once for both ways it is vectorised: T = Phases, one frame with
    // its four phases as lanes (tap(j) the four phases' tap j, input(j) the j-th newest sample),
    // or T = simd::f8, one phase for eight frames as lanes (TruePeakLimiter). Four partial sums
    // (taps j = q mod 4), so the adds do not wait on one another (one chain of 32 dependent adds
    // made this the render's slowest loop on loud material).
    template <class T, class Tap, class Input>
    BOOP_SIMD_INLINE static T interpolate(const Tap& tap, const Input& input) noexcept {
        T y0{}, y1{}, y2{}, y3{};
        for (int j = 0; j < kTaps; j += 4) {
            y0 += tap(j) * input(j);
            y1 += tap(j + 1) * input(j + 1);
            y2 += tap(j + 2) * input(j + 2);
            y3 += tap(j + 3) * input(j + 3);
        }
        return (y0 + y1) + (y2 + y3);
    }
    struct AllPhases {
        const Phases* taps;
        BOOP_SIMD_INLINE Phases operator()(int j) const noexcept { return taps[j]; }
    };
    struct Newest {
        const float* newest;  // the window's newest sample; input(j) is j samples older
        BOOP_SIMD_INLINE float operator()(int j) const noexcept { return newest[-j]; }
    };

    float process(float x) BOOP_RT {
        push(x);
        return peak();
    }
};

}  // namespace dsp
}  // namespace boop
