// The eight-lane vector helpers (dsp/SimdTypes): each lane-wise helper against its scalar
// meaning, the sine polynomial against std::sin within its stated error (4.7e-8 plus float
// rounding), the lane sums in the order they document, and the 8 x 8 transpose.
#include <doctest/doctest.h>
#include <cmath>
#include "dsp/Rng.hpp"
#include "dsp/SimdTypes.hpp"

namespace simd = boop::dsp::simd;
using boop::dsp::Rng;

// One lane as a plain value: doctest's checks take their operands by reference, which a vector
// element cannot give.
template <class V>
auto lane(const V& v, int k) {
    return v[k];
}

namespace {

simd::f8 random8(Rng& rng, float scale) {
    simd::f8 v;
    for (int k = 0; k < 8; ++k) v[k] = rng.bipolar() * scale;
    return v;
}

}  // namespace

TEST_CASE("splat, select, min, max and abs act lane by lane") {
    Rng rng(1);
    const simd::f8 a = random8(rng, 10.0f), b = random8(rng, 10.0f);
    const simd::f8 s = simd::splat(2.5f);
    const simd::f8 lo = simd::min(a, b), hi = simd::max(a, b), mag = simd::abs(a);
    const simd::f8 chosen = simd::select<simd::f8>(a < b, a, s);
    for (int k = 0; k < 8; ++k) {
        CHECK(lane(s, k) == 2.5f);
        CHECK(lane(lo, k) == std::fmin(lane(a, k), lane(b, k)));
        CHECK(lane(hi, k) == std::fmax(lane(a, k), lane(b, k)));
        CHECK(lane(mag, k) == std::fabs(lane(a, k)));
        CHECK(lane(chosen, k) == (lane(a, k) < lane(b, k) ? lane(a, k) : 2.5f));
    }
    CHECK(lane(simd::abs(simd::splat(-0.0f)), 0) == 0.0f);
    CHECK_FALSE(std::signbit(lane(simd::abs(simd::splat(-0.0f)), 0)));
}

TEST_CASE("sinTurns(x) is sin(2 pi x) over [-0.5, 0.5) within 2e-7") {
    double worst = 0.0;
    for (int i = 0; i < 8192; i += 8) {
        simd::f8 x;
        for (int k = 0; k < 8; ++k) x[k] = -0.5f + static_cast<float>(i + k) / 8192.0f;
        const simd::f8 y = simd::sinTurns(x);
        for (int k = 0; k < 8; ++k)
            worst = std::max(worst, std::fabs(y[k] - std::sin(2.0 * 3.14159265358979323846 * x[k])));
    }
    CHECK(worst < 2e-7);
    // Exact at the quarter turns' signs: sin is odd.
    const simd::f8 q = simd::sinTurns(simd::f8{0.25f, -0.25f, 0.0f, 0.125f, -0.125f, 0.5f - 1e-7f, 0.1f, -0.1f});
    CHECK(lane(q, 0) == doctest::Approx(1.0).epsilon(1e-7));
    CHECK(lane(q, 1) == doctest::Approx(-1.0).epsilon(1e-7));
    CHECK(lane(q, 3) == -lane(q, 4));
    CHECK(lane(q, 6) == -lane(q, 7));
}

TEST_CASE("laneTree adds in pairs ((0 + 1) + (2 + 3)) + ((4 + 5) + (6 + 7)); laneTrees does eight at once") {
    Rng rng(2);
    simd::f8 rows[8];
    for (auto& r : rows) r = random8(rng, 1000.0f);
    const simd::f8 all = simd::laneTrees(rows);
    for (int f = 0; f < 8; ++f) {
        const simd::f8 v = rows[f];
        const float expected = ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
        CHECK(simd::laneTree(v) == expected);
        CHECK(lane(all, f) == expected);  // bit for bit: the same additions in the same order
    }
}

TEST_CASE("sum adds the eight lanes (in its own order: within float rounding of the exact sum)") {
    const simd::f8 v = {1, 2, 3, 4, 5, 6, 7, 8};
    CHECK(simd::sum(v) == 36.0f);
    Rng rng(3);
    const simd::f8 w = random8(rng, 1.0f);
    double exact = 0.0;
    for (int k = 0; k < 8; ++k) exact += w[k];
    CHECK(simd::sum(w) == doctest::Approx(exact).epsilon(1e-6).scale(1.0));
}

TEST_CASE("anyLane is true when any lane of a mask is set") {
    const simd::f8 v = {0, 0, 0, 0, 0, 0, 0, 1};
    CHECK(simd::anyLane(v > 0.5f));
    CHECK_FALSE(simd::anyLane(v > 1.5f));
    CHECK(simd::anyLane(v < 0.5f));
}

TEST_CASE("transpose8 swaps rows and columns, and twice is the identity") {
    simd::f8 m[8];
    for (int i = 0; i < 8; ++i)
        for (int k = 0; k < 8; ++k) m[i][k] = static_cast<float>(10 * i + k);
    simd::transpose8(m);
    for (int i = 0; i < 8; ++i)
        for (int k = 0; k < 8; ++k) CHECK(lane(m[i], k) == static_cast<float>(10 * k + i));
    simd::transpose8(m);
    for (int i = 0; i < 8; ++i)
        for (int k = 0; k < 8; ++k) CHECK(lane(m[i], k) == static_cast<float>(10 * i + k));
}

TEST_CASE("useAvx2 honours BOOP_NO_AVX2") {
    setenv("BOOP_NO_AVX2", "1", 1);
    CHECK_FALSE(simd::useAvx2());
    unsetenv("BOOP_NO_AVX2");
}
