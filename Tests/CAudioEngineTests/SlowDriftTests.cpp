// The ambient's slow drift (dsp/SlowDrift): a smoothstep glide between random targets in
// [-1, 1], each leg period x (0.6 ... 1.4) long, a function of the seed and the frames advanced.
#include <doctest/doctest.h>
#include <cmath>
#include <vector>
#include "dsp/Rng.hpp"
#include "dsp/SlowDrift.hpp"

using boop::dsp::Rng;
using boop::dsp::SlowDrift;

namespace {

// The value after each of `steps` advances of `block` frames.
std::vector<float> trace(unsigned block, int steps, double period, std::uint64_t seed) {
    SlowDrift drift;
    drift.prepare(1000.0, period);
    Rng rng(seed);
    std::vector<float> values;
    for (int i = 0; i < steps; ++i) values.push_back(drift.advance(rng, block));
    return values;
}

}  // namespace

TEST_CASE("the value stays in [-1, 1] and moves: a drift, not a constant") {
    const auto values = trace(10, 20000, 2.0, 7);  // 200 s of 2 s legs
    float lo = 2.0f, hi = -2.0f;
    for (float v : values) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    CHECK(lo >= -1.0f);
    CHECK(hi <= 1.0f);
    CHECK(hi - lo > 1.0f);  // about a hundred legs over [-1, 1]: far more than half its span
}

TEST_CASE("the first advance starts the first leg from 0, along smoothstep to a target") {
    SlowDrift drift;
    drift.prepare(1000.0, 1.0);
    Rng rng(3);
    const float first = drift.advance(rng, 1);
    CHECK(first == 0.0f);  // position 0 of the first leg: its start
    CHECK(drift.from == 0.0f);
    CHECK(drift.to >= -1.0f);
    CHECK(drift.to < 1.0f);
    // The leg is 0.6 ... 1.4 periods (1000 frames a second).
    CHECK(drift.legFrames >= 600.0);
    CHECK(drift.legFrames < 1400.0);
    // Half way: smoothstep(0.5) = 0.5, the mid point of from and to.
    const unsigned half = static_cast<unsigned>(drift.legFrames / 2.0);
    const float mid = drift.advance(rng, half);
    const double t = half / drift.legFrames;
    const double s = t * t * (3.0 - 2.0 * t);
    CHECK(mid == doctest::Approx(drift.to * s).epsilon(1e-5));
}

TEST_CASE("each leg starts where the last one was, so the value never jumps") {
    SlowDrift drift;
    drift.prepare(1000.0, 0.5);
    Rng rng(11);
    float last = drift.advance(rng, 1);
    double largestStep = 0.0;
    for (int i = 0; i < 50000; ++i) {
        const float v = drift.advance(rng, 1);
        largestStep = std::max(largestStep, static_cast<double>(std::fabs(v - last)));
        last = v;
    }
    // Smoothstep's steepest slope is 1.5 / leg; the shortest leg is 300 frames and the largest
    // distance 2: at most 0.01 a frame.
    CHECK(largestStep <= 0.0101);
}

TEST_CASE("the same seed and blocks give the same drift; another seed another") {
    CHECK(trace(64, 3000, 1.0, 5) == trace(64, 3000, 1.0, 5));
    CHECK(trace(64, 3000, 1.0, 5) != trace(64, 3000, 1.0, 6));
}

TEST_CASE("reset returns to 0 and a new first leg") {
    SlowDrift drift;
    drift.prepare(1000.0, 1.0);
    Rng rng(1);
    for (int i = 0; i < 100; ++i) drift.advance(rng, 50);
    drift.reset();
    CHECK(drift.value == 0.0f);
    CHECK(drift.advance(rng, 1) == 0.0f);
}

TEST_CASE("a period too short for one frame still makes one-frame legs") {
    SlowDrift drift;
    drift.prepare(1000.0, 0.0);
    Rng rng(9);
    drift.advance(rng, 1);
    CHECK(drift.legFrames == 1.0);
}
