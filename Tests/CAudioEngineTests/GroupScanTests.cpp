// The eight-frame group helpers (dsp/GroupScan): each against the plain frame-by-frame loop it
// replaces, y[k] = u[k] + r y[k - 1] and the running sum, on random inputs.
#include <doctest/doctest.h>
#include <cmath>
#include <cstdint>
#include "dsp/GroupScan.hpp"
#include "dsp/Rng.hpp"

namespace simd = boop::dsp::simd;
using boop::dsp::Rng;

// One lane as a plain value: doctest's checks take their operands by reference, which a vector
// element cannot give.
template <class V>
auto lane(const V& v, int k) {
    return v[k];
}

TEST_CASE("load8 reads eight consecutive floats from any address") {
    float data[11];
    for (int i = 0; i < 11; ++i) data[i] = static_cast<float>(i) * 1.5f;
    const simd::f8 v = simd::load8(data + 3);  // not 32-byte aligned
    for (int k = 0; k < 8; ++k) CHECK(lane(v, k) == data[3 + k]);
}

TEST_CASE("shiftUp moves lanes up by 1, 2 and 4, the frames before filling from the top of `first`") {
    simd::f8 v, first;
    for (int k = 0; k < 8; ++k) {
        v[k] = static_cast<float>(k);
        first[k] = static_cast<float>(100 + k);
    }
    const simd::f8 one = simd::shiftUp<1>(v, first);
    const simd::f8 two = simd::shiftUp<2>(v, first);
    const simd::f8 four = simd::shiftUp<4>(v, first);
    for (int k = 0; k < 8; ++k) {
        CHECK(lane(one, k) == (k >= 1 ? lane(v, k - 1) : lane(first, 7 + k)));
        CHECK(lane(two, k) == (k >= 2 ? lane(v, k - 2) : lane(first, 6 + k)));
        CHECK(lane(four, k) == (k >= 4 ? lane(v, k - 4) : lane(first, 4 + k)));
    }
}

TEST_CASE("firstOrderScan equals the one-pole recursion frame by frame") {
    Rng rng(42);
    for (int trial = 0; trial < 200; ++trial) {
        const float r = rng.range(-0.999f, 0.999f);
        const float before = rng.bipolar();
        simd::f8 u;
        for (int k = 0; k < 8; ++k) u[k] = rng.bipolar();
        const simd::f8 y = simd::firstOrderScan(u, r, before);
        double prev = before;
        for (int k = 0; k < 8; ++k) {
            const double expected = u[k] + r * prev;
            // Float rounding in a different order of the same sums: a few ulps of values near 1,
            // at most 8 terms each below (1 / (1 - |r|)) in size.
            CHECK(lane(y, k) == doctest::Approx(expected).epsilon(1e-5).scale(1.0));
            prev = expected;
        }
    }
}

TEST_CASE("firstOrderScan with r = 0 passes the input, with r = 1 sums it") {
    simd::f8 u;
    for (int k = 0; k < 8; ++k) u[k] = static_cast<float>(k + 1);
    const simd::f8 same = simd::firstOrderScan(u, 0.0f, 5.0f);
    const simd::f8 sums = simd::firstOrderScan(u, 1.0f, 5.0f);
    float running = 5.0f;
    for (int k = 0; k < 8; ++k) {
        CHECK(lane(same, k) == lane(u, k));
        running += u[k];
        CHECK(lane(sums, k) == running);
    }
}

TEST_CASE("prefixSum is the running sum of the lanes plus `before`, wrapping as a phase does") {
    Rng rng(7);
    for (int trial = 0; trial < 100; ++trial) {
        simd::u8 v;
        for (int k = 0; k < 8; ++k) v[k] = static_cast<uint32_t>(rng.next());
        const uint32_t before = static_cast<uint32_t>(rng.next());
        const simd::u8 s = simd::prefixSum(v, before);
        uint32_t running = before;
        for (int k = 0; k < 8; ++k) {
            running += v[k];  // unsigned: wraps modulo 2^32
            CHECK(lane(s, k) == running);
        }
    }
}
