#include <doctest/doctest.h>
#include <cmath>
#include <complex>
#include <cstring>
#include <vector>
#include "dsp/GroupBiquad.hpp"
#include "dsp/Lowpass.hpp"
#include "dsp/Rng.hpp"

using boop::dsp::BiquadCoefficients;
using boop::dsp::GroupBiquad;
using boop::dsp::Rng;
namespace dsp = boop::dsp;
namespace simd = boop::dsp::simd;

namespace {

constexpr double kRate = 48000.0;

// The voice bank's filter as it was written inline before it was a unit of its own, kept here
// as the reference the unit must match bit for bit.
namespace before {
template <class F>
F groupOutput(const F* x, int k, F s1, F s2, const GroupBiquad& g) {
    auto c = [](const simd::f8& v) -> const F& { return *reinterpret_cast<const F*>(&v); };
    F early = x[0] * c(g.hLanes[k]);
    for (int j = 1; j <= k && j < 4; ++j) early = early + x[j] * c(g.hLanes[k - j]);
    F state = s2 * c(g.s2Lanes[k]);
    state = state + s1 * c(g.s1Lanes[k]);
    if (k < 4) return early + state;
    F late = x[4] * c(g.hLanes[k - 4]);
    for (int j = 5; j <= k; ++j) late = late + x[j] * c(g.hLanes[k - j]);
    return (early + late) + state;
}
template <class F>
void groupState(F x6, F x7, F y6, F y7, const GroupBiquad& g, F& s1, F& s2) {
    const F feedForward = x7 + x7 + x6;
    const F older = feedForward - y6 * g.a2;
    s1 = older - y7 * g.a1;
    s2 = x7 - y7 * g.a2;
}
simd::f8 alongTime(simd::f8 x, float s1, float s2, const GroupBiquad& g) {
    auto lane = [](simd::f8 v, int q) { return simd::splat(v[q]); };
    simd::f8 early = lane(x, 0) * g.column[0];
    early = early + lane(x, 1) * g.column[1];
    early = early + lane(x, 2) * g.column[2];
    early = early + lane(x, 3) * g.column[3];
    simd::f8 late = lane(x, 4) * g.column[4];
    late = late + lane(x, 5) * g.column[5];
    late = late + lane(x, 6) * g.column[6];
    late = late + lane(x, 7) * g.column[7];
    simd::f8 state = s2 * g.s2;
    state = state + s1 * g.s1;
    return (early + late) + state;
}
}  // namespace before

std::vector<float> noise(size_t frames, std::uint64_t seed) {
    Rng rng(seed);
    std::vector<float> x(frames);
    for (float& v : x) v = rng.bipolar();
    return x;
}

// |H(e^jw)| of the textbook RBJ lowpass, b0 (1 + 2 z^-1 + z^-2) / (1 + a1 z^-1 + a2 z^-2), from
// its design formulas in double.
double textbookMagnitude(double cutoff, double q, double hz) {
    const double w0 = 2.0 * M_PI * cutoff / kRate, alpha = std::sin(w0) / (2.0 * q), a0 = 1.0 + alpha;
    const double b0 = (1.0 - std::cos(w0)) / 2.0 / a0, a1 = -2.0 * std::cos(w0) / a0, a2 = (1.0 - alpha) / a0;
    const std::complex<double> z1 = std::polar(1.0, -2.0 * M_PI * hz / kRate), z2 = z1 * z1;
    return std::abs(b0 * (1.0 + 2.0 * z1 + z2) / (1.0 + a1 * z1 + a2 * z2));
}

// The amplitude of a sine of `hz` through the group filter (eight filters side by side, one per
// lane, each fed the same sine), times b0, measured by projection over whole periods.
double measuredMagnitude(double cutoff, double q, double hz) {
    const BiquadCoefficients c = BiquadCoefficients::lowpass(kRate, cutoff, q);
    const GroupBiquad g = GroupBiquad::of(c.a1, c.a2);
    const int settle = 9600, frames = 4800;  // 4800 frames hold whole periods of every k * 10 Hz
    simd::f8 s1{}, s2{}, x[8], out[8];
    double re = 0.0, im = 0.0;
    for (int n = 0; n < settle + frames; n += 8) {
        for (int f = 0; f < 8; ++f) x[f] = simd::splat(static_cast<float>(std::sin(2.0 * M_PI * hz * (n + f) / kRate)));
        for (simd::f8& o : out) o = simd::f8{};
        dsp::groupBiquadAdd<simd::f8>(x, out, 1, s1, s2, g);
        for (int f = 0; f < 8 && n >= settle; ++f) {
            const double y = c.b0 * out[f][3], phase = 2.0 * M_PI * hz * (n + f) / kRate;
            re += y * std::cos(phase);
            im += y * std::sin(phase);
        }
    }
    return 2.0 / frames * std::hypot(re, im);
}

}  // namespace

TEST_CASE("GroupBiquad: filters side by side give the bits of the inline formula, vector and scalar") {
    const BiquadCoefficients c = BiquadCoefficients::lowpass(kRate, 1700.0, 2.5);
    const GroupBiquad g = GroupBiquad::of(c.a1, c.a2);
    const std::vector<float> in = noise(8 * 8 * 400, 31);
    simd::f8 s1{}, s2{}, r1{}, r2{};
    float t1 = 0, t2 = 0, u1 = 0, u2 = 0;  // lane 5 as one scalar filter
    for (size_t group = 0; group < 400; ++group) {
        simd::f8 x[8], out[8] = {}, ref[8];
        float xs[8], outs[8] = {}, refs[8];
        std::memcpy(x, in.data() + group * 64, sizeof x);
        for (int f = 0; f < 8; ++f) xs[f] = x[f][5];
        dsp::groupBiquadAdd<simd::f8>(x, out, 1, s1, s2, g);
        dsp::groupBiquadAdd<float>(xs, outs, 1, t1, t2, g);
        for (int f = 0; f < 8; ++f) ref[f] = before::groupOutput<simd::f8>(x, f, r1, r2, g);
        for (int f = 0; f < 8; ++f) refs[f] = before::groupOutput<float>(xs, f, u1, u2, g);
        before::groupState<simd::f8>(x[6], x[7], ref[6], ref[7], g, r1, r2);
        before::groupState<float>(xs[6], xs[7], refs[6], refs[7], g, u1, u2);
        REQUIRE(std::memcmp(out, ref, sizeof out) == 0);
        REQUIRE(std::memcmp(outs, refs, sizeof outs) == 0);
        for (int f = 0; f < 8; ++f) {
            const float lane = out[f][5];
            REQUIRE(outs[f] == lane);  // a lane is the scalar filter
        }
    }
}

TEST_CASE("GroupBiquad: one filter with the frames as lanes gives the bits of the inline formula and of the lanes") {
    const BiquadCoefficients c = BiquadCoefficients::lowpass(kRate, 600.0, 0.8);
    const GroupBiquad g = GroupBiquad::of(c.a1, c.a2);
    const std::vector<float> in = noise(8 * 500, 7);
    float s1 = 0, s2 = 0, t1 = 0, t2 = 0;
    for (size_t group = 0; group < 500; ++group) {
        simd::f8 x;
        float xs[8], outs[8] = {};
        std::memcpy(&x, in.data() + group * 8, sizeof x);
        std::memcpy(xs, &x, sizeof xs);
        const simd::f8 y = dsp::groupBiquadFrames(x, s1, s2, g);
        const simd::f8 ref = before::alongTime(x, s1, s2, g);
        REQUIRE(std::memcmp(&y, &ref, sizeof y) == 0);
        dsp::groupBiquadState<float>(x[6], x[7], y[6], y[7], g, s1, s2);
        dsp::groupBiquadAdd<float>(xs, outs, 1, t1, t2, g);
        for (int f = 0; f < 8; ++f) REQUIRE(outs[f] == y[f]);
    }
}

TEST_CASE("GroupBiquad: the frame-by-frame biquad to within float rounding") {
    const BiquadCoefficients c = BiquadCoefficients::lowpass(kRate, 2500.0, 0.7071);
    const GroupBiquad g = GroupBiquad::of(c.a1, c.a2);
    const std::vector<float> in = noise(8 * 1000, 3);
    float s1 = 0, s2 = 0, z1 = 0, z2 = 0;
    double worst = 0.0;
    for (size_t group = 0; group < 1000; ++group) {
        float x[8], y[8] = {};
        std::memcpy(x, in.data() + group * 8, sizeof x);
        dsp::groupBiquadAdd<float>(x, y, 1, s1, s2, g);
        for (int f = 0; f < 8; ++f) {
            const float scalar = dsp::biquadStep(c, x[f], z1, z2);
            worst = std::max(worst, std::fabs(static_cast<double>(c.b0 * y[f] - scalar)));
        }
    }
    CHECK(worst < 1e-5);
}

TEST_CASE("GroupBiquad: its frequency response is the RBJ lowpass's") {
    for (const double q : {0.7071, 3.0}) {
        for (const double hz : {100.0, 500.0, 1000.0, 2000.0, 4000.0, 8000.0}) {
            const double want = 20.0 * std::log10(textbookMagnitude(1000.0, q, hz));
            const double got = 20.0 * std::log10(measuredMagnitude(1000.0, q, hz));
            INFO("q " << q << ", " << hz << " Hz: " << got << " dB, textbook " << want << " dB");
            CHECK(std::fabs(got - want) < 0.01);
        }
    }
    CHECK(std::fabs(20.0 * std::log10(measuredMagnitude(1000.0, 0.70710678, 1000.0)) + 3.0103) < 0.01);
}
