#include <doctest/doctest.h>
#include <cmath>
#include <complex>
#include <cstring>
#include <vector>
#include "dsp/GroupSvf.hpp"
#include "dsp/Rng.hpp"
#include "dsp/Svf.hpp"

using boop::dsp::GroupSvf;
using boop::dsp::Rng;
using boop::dsp::SvfCoeffs;
using boop::dsp::SvfStateSpace;
namespace simd = boop::dsp::simd;

namespace {

constexpr double kRate = 48000.0;

GroupSvf groupOf(double cutoff, double q, float bandMix = 0.0f, float gain = 1.0f) {
    SvfCoeffs c;
    c.set(kRate, cutoff, q);
    GroupSvf g;
    g.set(SvfStateSpace::of(c, bandMix, gain));
    return g;
}

// The tones' filter step as it was written inline before it was a unit of its own, kept here as
// the reference the unit must match bit for bit.
simd::f8 before(const GroupSvf& s, simd::f8 x, float& s1, float& s2) {
    simd::f8 y = s1 * s.p1 + s2 * s.p2;
    for (int j = 0; j < 8; ++j) y += x[j] * s.column[j];
    const float n1 = s.a8[0] * s1 + s.a8[1] * s2 + simd::laneTree(x * s.w1);
    s2 = s.a8[2] * s1 + s.a8[3] * s2 + simd::laneTree(x * s.w2);
    s1 = n1;
    return y;
}

std::vector<float> noise(size_t frames, std::uint64_t seed) {
    Rng rng(seed);
    std::vector<float> x(frames);
    for (float& v : x) v = rng.bipolar();
    return x;
}

// |H| of the textbook state-variable lowpass, the analog 1 / (s^2 + s / q + 1) through the
// bilinear transform prewarped at the cutoff: s = j tan(pi f / rate) / tan(pi fc / rate).
double textbookMagnitude(double cutoff, double q, double hz) {
    const std::complex<double> s(0.0, std::tan(M_PI * hz / kRate) / std::tan(M_PI * cutoff / kRate));
    return std::abs(1.0 / (s * s + s / q + 1.0));
}

// The amplitude of a sine of `hz` through the group filter, by projection over whole periods.
double measuredMagnitude(double cutoff, double q, double hz) {
    const GroupSvf g = groupOf(cutoff, q);
    const int settle = 9600, frames = 4800;  // 4800 frames hold whole periods of every k * 10 Hz
    float s1 = 0, s2 = 0;
    double re = 0.0, im = 0.0;
    for (int n = 0; n < settle + frames; n += 8) {
        simd::f8 x;
        for (int f = 0; f < 8; ++f) x[f] = static_cast<float>(std::sin(2.0 * M_PI * hz * (n + f) / kRate));
        const simd::f8 y = g.process(x, s1, s2);
        for (int f = 0; f < 8 && n >= settle; ++f) {
            const double phase = 2.0 * M_PI * hz * (n + f) / kRate;
            re += y[f] * std::cos(phase);
            im += y[f] * std::sin(phase);
        }
    }
    return 2.0 / frames * std::hypot(re, im);
}

}  // namespace

TEST_CASE("GroupSvf: the bits of the inline formula on random input") {
    for (const double cutoff : {80.0, 1200.0, 9000.0}) {
        const GroupSvf g = groupOf(cutoff, 1.8, 0.3f, 0.9f);
        const std::vector<float> in = noise(8 * 600, static_cast<std::uint64_t>(cutoff));
        float s1 = 0, s2 = 0, r1 = 0, r2 = 0;
        for (size_t group = 0; group < 600; ++group) {
            simd::f8 x;
            std::memcpy(&x, in.data() + group * 8, sizeof x);
            const simd::f8 y = g.process(x, s1, s2), ref = before(g, x, r1, r2);
            REQUIRE(std::memcmp(&y, &ref, sizeof y) == 0);
            REQUIRE(std::memcmp(&s1, &r1, sizeof s1) == 0);
            REQUIRE(std::memcmp(&s2, &r2, sizeof s2) == 0);
        }
    }
}

TEST_CASE("GroupSvf: the frame-by-frame state space to within float rounding") {
    SvfCoeffs c;
    c.set(kRate, 1500.0, 2.0);
    const SvfStateSpace m = SvfStateSpace::of(c, 0.25f, 0.8f);
    GroupSvf g;
    g.set(m);
    const std::vector<float> in = noise(8 * 1000, 5);
    float s1 = 0, s2 = 0, t1 = 0, t2 = 0;
    double worst = 0.0;
    for (size_t group = 0; group < 1000; ++group) {
        simd::f8 x;
        std::memcpy(&x, in.data() + group * 8, sizeof x);
        const simd::f8 y = g.process(x, s1, s2);
        for (int f = 0; f < 8; ++f)
            worst = std::max(worst, static_cast<double>(std::fabs(y[f] - m.process(t1, t2, x[f]))));
    }
    CHECK(worst < 1e-5);
}

TEST_CASE("GroupSvf: its frequency response is the textbook state-variable lowpass's") {
    for (const double q : {0.7071, 4.0}) {
        for (const double hz : {100.0, 500.0, 1000.0, 2000.0, 4000.0, 8000.0}) {
            const double want = 20.0 * std::log10(textbookMagnitude(1000.0, q, hz));
            const double got = 20.0 * std::log10(measuredMagnitude(1000.0, q, hz));
            INFO("q " << q << ", " << hz << " Hz: " << got << " dB, textbook " << want << " dB");
            CHECK(std::fabs(got - want) < 0.01);
        }
    }
    // At the cutoff the lowpass is q times the input (+12.04 dB at q 4).
    CHECK(std::fabs(measuredMagnitude(1000.0, 4.0, 1000.0) - 4.0) < 1e-3);
}
