// The render call's denormal guard (rt/Denormals): inside its scope a subnormal result is
// flushed to zero (FTZ) and a subnormal operand read as zero (DAZ); afterwards the caller's mode
// is back, subnormals computed again.
#include <doctest/doctest.h>
#include <cfloat>
#include <cmath>
#include "rt/Denormals.hpp"

namespace {

// Kept from the optimiser by volatile: the multiply must happen at run time, under the mode.
float product(float a, float b) {
    volatile float x = a, y = b;
    return x * y;
}

}  // namespace

#if defined(__SSE__) || defined(__x86_64__) || defined(__aarch64__)
TEST_CASE("inside the guard a subnormal result is zero; outside it is kept") {
    const float tiny = FLT_MIN;  // the smallest normal float
    const float before = product(tiny, 0.5f);
    CHECK(std::fpclassify(before) == FP_SUBNORMAL);
    {
        boop::DenormalGuard guard;
        CHECK(product(tiny, 0.5f) == 0.0f);
        CHECK(product(tiny, 2.0f) == 2.0f * FLT_MIN);  // normal results untouched
        CHECK(product(before, 4.0f) == 0.0f);          // a subnormal operand counts as zero
    }
    CHECK(std::fpclassify(product(tiny, 0.5f)) == FP_SUBNORMAL);
}

TEST_CASE("guards nest, each restoring the mode it found") {
    {
        boop::DenormalGuard outer;
        {
            boop::DenormalGuard inner;
            CHECK(product(FLT_MIN, 0.25f) == 0.0f);
        }
        CHECK(product(FLT_MIN, 0.25f) == 0.0f);  // still the outer guard's mode
    }
    CHECK(std::fpclassify(product(FLT_MIN, 0.25f)) == FP_SUBNORMAL);
}
#endif
