#include <doctest/doctest.h>
#include <cmath>
#include "dsp/SoftClipper.hpp"

using boop::dsp::SoftClipper;

TEST_CASE("SoftClipper::cubic: unity near zero, flat at +-1 from 1.5 on, never above 1") {
    CHECK(SoftClipper::cubic(0.0f) == 0.0f);
    CHECK(SoftClipper::cubic(1.5f) == 1.0f);
    CHECK(SoftClipper::cubic(-7.0f) == -1.0f);
    CHECK(SoftClipper::cubic(0.01f) == doctest::Approx(0.01f).epsilon(1e-3));
    for (float x = -2.0f; x <= 2.0f; x += 0.001f) CHECK(std::fabs(SoftClipper::cubic(x)) <= 1.0f);
}

TEST_CASE("SoftClipper::process: transparent to the knee, then a tanh shoulder that stays under 1") {
    for (float x = -SoftClipper::kKnee; x <= SoftClipper::kKnee; x += 0.001f) CHECK(SoftClipper::process(x) == x);
    CHECK(SoftClipper::process(0.75f) == doctest::Approx(0.5 + 0.5 * std::tanh(0.5)).epsilon(1e-6));
    float last = SoftClipper::process(-100.0f);
    CHECK(last > -1.0f);
    for (float x = -100.0f; x <= 100.0f; x += 0.01f) {
        const float y = SoftClipper::process(x);
        REQUIRE(y >= last);  // monotonic
        REQUIRE(std::fabs(y) < 1.0f);
        REQUIRE(SoftClipper::process(-x) == -y);  // odd
        last = y;
    }
}
