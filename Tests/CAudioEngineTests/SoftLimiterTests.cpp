#include <doctest/doctest.h>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>
#include "TestSignals.hpp"
#include "dsp/Rng.hpp"
#include "dsp/SoftLimiter.hpp"

using boop::dsp::SoftClipper;
using boop::dsp::SoftLimiter;

using testsig::bursts;

TEST_CASE("SoftLimiter: the block passes (follow, gainFor, the cubic clip) equal process frame by frame") {
    const size_t frames = 48000;
    auto l = bursts(frames, 3), r = bursts(frames, 4);
    for (size_t i = 0; i < frames; ++i) {
        l[i] *= 8.0f;  // far over the threshold and the clipper's knee
        r[i] *= 3.0f;
    }
    SoftLimiter a, b;
    a.prepare(48000.0, 0.05);
    b.prepare(48000.0, 0.05);
    std::vector<float> wantL(l), wantR(r), gotL(frames), gotR(frames);
    for (size_t i = 0; i < frames; ++i) a.process(wantL[i], wantR[i]);
    float peak[32];
    for (size_t i = 0; i < frames; i += 32) {
        const int n = static_cast<int>(std::min<size_t>(32, frames - i));
        for (int k = 0; k < n; ++k) peak[k] = std::max(std::fabs(l[i + k]), std::fabs(r[i + k]));
        b.follow(peak, n);
        for (int k = 0; k < n; ++k) {
            const float g = b.gainFor(peak[k]);
            gotL[i + k] = SoftClipper::cubic(l[i + k] * g);
            gotR[i + k] = SoftClipper::cubic(r[i + k] * g);
        }
    }
    CHECK(std::memcmp(wantL.data(), gotL.data(), frames * sizeof(float)) == 0);
    CHECK(std::memcmp(wantR.data(), gotR.data(), frames * sizeof(float)) == 0);
    float most = 0.0f;
    for (float v : wantL) most = std::max(most, std::fabs(v));
    CHECK(most <= 1.0f);
}
