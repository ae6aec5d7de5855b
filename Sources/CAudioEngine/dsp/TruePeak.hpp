#pragma once
#include <cmath>

#include "rt/Realtime.hpp"

namespace boop {

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

    float taps[kPhases][kTaps] = {};
    float history[2 * kTaps] = {};  // the last kTaps inputs, stored twice for a contiguous window
    int at = 0;

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
        for (int p = 0; p < kPhases; ++p) {
            double sum = 0;
            for (int j = 0; j < kTaps; ++j) sum += prototype[j * kPhases + p];
            // Each phase passes DC at exactly unity.
            for (int j = 0; j < kTaps; ++j) taps[p][j] = static_cast<float>(prototype[j * kPhases + p] / sum);
        }
        reset();
    }

    void reset() noexcept {
        for (float& h : history) h = 0.0f;
        at = 0;
    }

    float process(float x) BOOP_RT {
        history[at] = x;
        history[at + kTaps] = x;
        at = at + 1 == kTaps ? 0 : at + 1;
        // history[at .. at + kTaps) is oldest .. newest.
        const float* w = history + at;
        float peak = 0.0f;
        for (int p = 0; p < kPhases; ++p) {
            float y = 0.0f;
            for (int j = 0; j < kTaps; ++j) y += taps[p][j] * w[kTaps - 1 - j];
            const float a = std::fabs(y);
            peak = a > peak ? a : peak;
        }
        return peak;
    }
};

}  // namespace boop
