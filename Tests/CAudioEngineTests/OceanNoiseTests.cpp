#include <doctest/doctest.h>
#include <algorithm>
#include <vector>
#include "AmbientTestSupport.hpp"
#include "ambient/OceanNoise.hpp"
#include "rt/Denormals.hpp"

using boop::ambient::OceanNoise;

static void run(OceanNoise& o, size_t frames, std::vector<float>& l, std::vector<float>& r, int block = 64) {
    l.assign(frames, 0.0f);
    r.assign(frames, 0.0f);
    boop::DenormalGuard guard;
    for (size_t i = 0; i < frames; i += static_cast<size_t>(block)) {
        const int n = static_cast<int>(std::min<size_t>(static_cast<size_t>(block), frames - i));
        o.process(l.data() + i, r.data() + i, n);
    }
}

TEST_CASE("OceanNoise swells: the level rises and falls slowly") {
    OceanNoise o;
    o.prepare(44100.0, 1);
    o.setSwell(6.0);
    std::vector<float> l, r;
    run(o, 44100 * 40, l, r);
    CHECK(ambtest::nonFinite(l) == 0);
    double lo = 1e9, hi = 0;
    for (size_t w = 0; w + 22050 <= l.size(); w += 22050) {
        const double v = ambtest::rms(l, w, w + 22050);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    CHECK(lo > 0.0);
    CHECK(hi > 2.5 * lo);
    CHECK(ambtest::peak(l) < 2.0);
    // Left and right are different noise.
    CHECK_FALSE(ambtest::sameBytes(l, r));
}

TEST_CASE("OceanNoise is mostly low-frequency (filtered, not hiss)") {
    OceanNoise o;
    o.prepare(48000.0, 4);
    std::vector<float> l, r;
    run(o, 48000 * 10, l, r);
    double diff = 0, total = 0;
    for (size_t i = 1; i < l.size(); ++i) {
        diff += double(l[i] - l[i - 1]) * (l[i] - l[i - 1]);
        total += double(l[i]) * l[i];
    }
    // White noise would give diff/total = 2.
    CHECK(diff / total < 0.5);
}

TEST_CASE("OceanNoise: deterministic by seed, different across seeds, block-size independent, extremes") {
    auto make = [](std::uint64_t seed) {
        OceanNoise o;
        o.prepare(44100.0, seed);
        o.setSwell(100.0);  // clamped to 60
        return o;
    };
    OceanNoise a = make(7), b = make(7), c = make(8);
    std::vector<float> l1, r1, l2, r2, l3, r3;
    run(a, 44100 * 3, l1, r1, 64);
    run(b, 44100 * 3, l2, r2, 1);
    run(c, 44100 * 3, l3, r3, 64);
    CHECK(ambtest::sameBytes(l1, l2));
    CHECK(ambtest::sameBytes(r1, r2));
    CHECK_FALSE(ambtest::sameBytes(l1, l3));
    OceanNoise fast;
    fast.prepare(8000.0, 1);
    fast.setSwell(0.0);  // clamped to 2
    run(fast, 8000 * 20, l1, r1, 512);
    CHECK(ambtest::nonFinite(l1) == 0);
    CHECK(ambtest::subnormals(l1) == 0);
}
