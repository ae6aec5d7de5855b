#include <doctest/doctest.h>
#include <cmath>
#include <cstring>
#include <vector>
#include "dsp/Rng.hpp"
#include "dsp/SimdTypes.hpp"
#include "dsp/Svf.hpp"

using boop::dsp::Rng;
using boop::dsp::SvfCoeffs;
using boop::dsp::SvfState;
using boop::dsp::SvfStateOf;
using boop::dsp::SvfStateSpace;
namespace simd = boop::dsp::simd;

namespace {

std::vector<float> noise(size_t frames, std::uint64_t seed) {
    Rng rng(seed);
    std::vector<float> x(frames);
    for (float& v : x) v = rng.bipolar();
    return x;
}

}  // namespace

// The pad renders its six voices' filters as the lanes of one vector: each lane must give the
// bits the scalar filter gives on that lane's input.
TEST_CASE("Svf: the vector lanes are the scalar filter, bit for bit") {
    SvfCoeffs c;
    c.set(48000.0, 900.0, 3.0);
    const size_t frames = 20000;
    std::vector<std::vector<float>> in;
    for (int l = 0; l < simd::kLanes; ++l) in.push_back(noise(frames, 10 + static_cast<std::uint64_t>(l)));
    SvfState scalar[simd::kLanes];
    SvfStateOf<simd::f8> lanes;
    for (size_t i = 0; i < frames; ++i) {
        simd::f8 x;
        for (int l = 0; l < simd::kLanes; ++l) x[l] = in[static_cast<size_t>(l)][i];
        simd::f8 band;
        const simd::f8 low = lanes.process(c, x, band);
        for (int l = 0; l < simd::kLanes; ++l) {
            float b;
            const float y = scalar[l].process(c, x[l], b);
            const float lowLane = low[l], bandLane = band[l];
            REQUIRE(std::memcmp(&y, &lowLane, sizeof y) == 0);
            REQUIRE(std::memcmp(&b, &bandLane, sizeof b) == 0);
        }
    }
}

// The state-space form is the same filter rearranged (other roundings): it follows the TPT form
// to float precision, for the plain lowpass and for a mix of low and band with a gain.
TEST_CASE("SvfStateSpace: the TPT filter rearranged, low + band mix and gain included") {
    for (double q : {0.6, 2.0, 8.0}) {
        SvfCoeffs c;
        c.set(44100.0, 1500.0, q);
        const SvfStateSpace plain = SvfStateSpace::of(c), mixed = SvfStateSpace::of(c, 0.5f, 0.8f);
        const auto x = noise(20000, 3);
        SvfState tpt;
        float p1 = 0, p2 = 0, m1 = 0, m2 = 0, t1 = 0, t2 = 0;
        double worst = 0.0;
        for (float v : x) {
            float band;
            const float low = tpt.process(c, v, band);
            const float y = plain.process(p1, p2, v);
            const float ym = mixed.process(m1, m2, v);
            const float yt = plain.processTerms(t1, t2, plain.b1 * v, plain.b2 * v, plain.d * v);
            worst = std::fmax(worst, std::fabs(y - low));
            worst = std::fmax(worst, std::fabs(ym - (low + 0.5f * band) * 0.8f));
            worst = std::fmax(worst, std::fabs(yt - low));
        }
        CHECK(worst < 1e-4);
    }
}

TEST_CASE("SvfCoeffs: cutoff and q are clamped to a stable filter") {
    SvfCoeffs c;
    c.set(8000.0, 1e9, 1e9);
    CHECK(std::isfinite(c.g));
    CHECK(c.k == doctest::Approx(1.0 / 20.0));
    SvfState s;
    float y = 0.0f;
    for (int i = 0; i < 10000; ++i) y = s.lowpass(c, (i & 1) ? 1.0f : -1.0f);
    CHECK(std::isfinite(y));
    CHECK(std::fabs(y) < 100.0f);
}
