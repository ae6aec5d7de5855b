#include <doctest/doctest.h>
#include <string>
#include "ambient/EuclideanRhythm.hpp"

using boop::ambient::EuclideanRhythm;

static std::string pattern(int k, int n, int rot = 0) {
    EuclideanRhythm r;
    r.set(k, n, rot);
    std::string s;
    for (int i = 0; i < n; ++i) s += r.onset(static_cast<std::uint64_t>(i)) ? 'x' : '.';
    return s;
}

TEST_CASE("Euclidean rhythms match Toussaint's table") {
    CHECK(pattern(3, 8) == "x..x..x.");
    CHECK(pattern(5, 8) == "x.xx.xx.");
    CHECK(pattern(2, 5) == "x.x..");
    CHECK(pattern(3, 4) == "x.xx");
    CHECK(pattern(4, 12) == "x..x..x..x..");
    CHECK(pattern(5, 16) == "x..x..x..x..x...");
    CHECK(pattern(7, 16) == "x..x.x.x..x.x.x.");
    CHECK(pattern(0, 8) == "........");
    CHECK(pattern(8, 8) == "xxxxxxxx");
    CHECK(pattern(1, 1) == "x");
}

TEST_CASE("rotation shifts the pattern left and wraps") {
    CHECK(pattern(3, 8, 1) == "..x..x.x");
    CHECK(pattern(3, 8, 3) == "x..x.x..");
    CHECK(pattern(3, 8, 8) == pattern(3, 8, 0));
    CHECK(pattern(3, 8, -1) == pattern(3, 8, 7));
}

TEST_CASE("every E(k,n) has k onsets whose gaps differ by at most one") {
    for (int n = 1; n <= 64; ++n) {
        for (int k = 0; k <= n; ++k) {
            EuclideanRhythm r;
            r.set(k, n, 0);
            int count = 0, first = -1, prev = -1, minGap = 1 << 30, maxGap = 0;
            for (int i = 0; i < n; ++i) {
                if (!r.onset(static_cast<std::uint64_t>(i))) continue;
                ++count;
                if (first < 0) first = i;
                if (prev >= 0) {
                    minGap = std::min(minGap, i - prev);
                    maxGap = std::max(maxGap, i - prev);
                }
                prev = i;
            }
            REQUIRE(count == k);
            if (k >= 2) {
                const int wrap = first + n - prev;
                minGap = std::min(minGap, wrap);
                maxGap = std::max(maxGap, wrap);
                CHECK_MESSAGE(maxGap - minGap <= 1, "E(" << k << "," << n << ")");
            }
            if (k > 0) CHECK(first == 0);
        }
    }
}

TEST_CASE("out-of-range arguments are clamped") {
    EuclideanRhythm r;
    r.set(9, 8, 0);
    CHECK(r.pulses() == 8);
    r.set(-3, 0, 5);
    CHECK(r.steps() == 1);
    CHECK(r.pulses() == 0);
    r.set(3, 100, 0);
    CHECK(r.steps() == 64);
}
