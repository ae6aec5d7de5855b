#include <doctest/doctest.h>
#include <cstdint>
#include <cstring>
#include "dsp/Rng.hpp"
#include "dsp/SimdTypes.hpp"

using boop::dsp::kStreamLead;
using boop::dsp::Rng;

TEST_CASE("Rng: seeded, reproducible, in range, distinct streams") {
    Rng a(7), b(7), c(8), d(7, kStreamLead);
    bool allSame = true, anyDiffC = false, anyDiffD = false;
    double sum = 0;
    for (int i = 0; i < 100000; ++i) {
        const float x = a.uniform();
        const float y = b.uniform();
        allSame = allSame && x == y;
        anyDiffC = anyDiffC || c.uniform() != x;
        anyDiffD = anyDiffD || d.uniform() != x;
        REQUIRE(x >= 0.0f);
        REQUIRE(x < 1.0f);
        sum += x;
        const std::uint32_t k = c.below(6);
        REQUIRE(k < 6u);
    }
    CHECK(allSame);
    CHECK(anyDiffC);
    CHECK(anyDiffD);
    CHECK(sum / 100000 == doctest::Approx(0.5).epsilon(0.01));
    Rng z(0);
    CHECK(z.next() != 0);
}

// The drums' noise: the xorshift32 (13, 17, 5) sequence itself, read as a signed fraction, and
// the same bits for a stream alone and for eight streams as vector lanes.
TEST_CASE("Rng::xorshift32: Marsaglia's sequence, the same bits alone and in lanes") {
    std::uint32_t one = 1;
    CHECK(Rng::xorshift32(one) == 270369.0f / 2147483648.0f);
    CHECK(one == 270369u);
    std::uint32_t alone[8];
    boop::dsp::simd::u8 lanes;
    for (int l = 0; l < 8; ++l) alone[l] = lanes[l] = 0x2545f491u + 977u * static_cast<std::uint32_t>(l);
    for (int i = 0; i < 10000; ++i) {
        const boop::dsp::simd::f8 v = Rng::xorshift32(lanes);
        for (int l = 0; l < 8; ++l) {
            const float x = Rng::xorshift32(alone[l]), lane = v[l];
            REQUIRE(std::memcmp(&x, &lane, sizeof x) == 0);
            REQUIRE(x >= -1.0f);
            REQUIRE(x < 1.0f);
        }
    }
}
