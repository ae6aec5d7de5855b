// The kits' group kernel (engine/KitKernels) on hand-made hits: a tone is level x sin(2 pi phase)
// with the phase a running sum of 32-bit increments, its level falls by the decay's powers, the
// ramp is min(1, step x (frame + 1)), the chip's noise channel is a 15-bit LFSR whose long mode
// repeats every 32767 steps and short mode every 93 (as an 8-bit console's noise channel), held
// `lfsrHold` frames a step; and the AVX2 + FMA build agrees with the baseline within 1e-5.
#include <doctest/doctest.h>
#include <cmath>
#include <cstdint>
#include <vector>
#include "dsp/SimdTypes.hpp"
#include "engine/Kit.hpp"

using boop::KitBank;
using Hit = KitBank::Hit;

namespace {

constexpr double kTwoPi = 6.283185307179586;

// A hit with every part silent, unity gain, no ramp and no decay.
Hit quiet() {
    Hit h;
    h.active = true;
    h.gain = 1.0f;
    h.rampStep = 1.0f;
    h.sweep = 1.0f;
    for (int k = 0; k < 8; ++k) h.tonePow[k] = h.noisePow[k] = h.sweepPow[k] = 1.0f;
    return h;
}

void setDecay(float d, float* pow, float& pow8) {
    double q = 1.0;
    for (int k = 0; k < 8; ++k, q *= d) pow[k] = static_cast<float>(q);
    pow8 = static_cast<float>(q);
}

// `calls` kernel calls' frames.
std::vector<float> frames(Hit& h, int calls, bool wide = false) {
    const KitBank::Kernel kernel = KitBank::chooseKernel(wide);
    std::vector<float> out;
    for (int c = 0; c < calls; ++c) {
        kernel(h, 480);
        out.insert(out.end(), h.ahead, h.ahead + KitBank::kAhead);
    }
    return out;
}

// The phase increment the kernel makes of `cyclesPerFrame` (through float, truncated).
uint32_t increment(float cyclesPerFrame) {
    return static_cast<uint32_t>(static_cast<int32_t>(std::fmin(cyclesPerFrame, 0.49f) * 4294967296.0f));
}

}  // namespace

TEST_CASE("a tone: level x sin(2 pi phase), the phase summed from its increment, exact across groups") {
    Hit h = quiet();
    h.rest = 1000.0f / 48000.0f;
    h.tone = 0.5f;
    const auto x = frames(h, 20);
    const uint32_t inc = increment(h.rest);
    uint32_t phase = 0;
    double worst = 0.0;
    for (size_t k = 0; k < x.size(); ++k) {
        phase += inc;
        const double turns = static_cast<int32_t>(phase) / 4294967296.0;
        worst = std::max(worst, std::fabs(x[k] - 0.5 * std::sin(kTwoPi * turns)));
    }
    CHECK(worst < 2e-7);
    CHECK(h.phase == phase);
}

TEST_CASE("a square tone is +-0.5 x level, high for the first half of each cycle") {
    Hit h = quiet();
    h.rest = 0.01f;  // 100 frames a cycle
    h.tone = 0.8f;
    h.square = true;
    const auto x = frames(h, 10);
    const uint32_t inc = increment(h.rest);
    uint32_t phase = 0;
    for (size_t k = 0; k < x.size(); ++k) {
        phase += inc;
        CHECK(x[k] == (phase < 0x80000000u ? 0.4f : -0.4f));
    }
}

TEST_CASE("the level falls by the decay's powers, frame by frame; the hit ends under -80 dB") {
    Hit h = quiet();
    h.rest = 0.25f;  // sin at quarter turns: 1, 0, -1, 0 ...
    h.tone = 1.0f;
    setDecay(0.99f, h.tonePow, h.tonePow8);
    const auto x = frames(h, 1);
    for (int k = 0; k < 32; k += 4) CHECK(x[k] == doctest::Approx(std::pow(0.99, k)).epsilon(1e-5));
    CHECK(h.tone == doctest::Approx(std::pow(0.99, 32)).epsilon(1e-5));
    CHECK_FALSE(h.ending);
    // 0.99 per frame reaches 1e-4 after 917 frames: 29 calls of 32.
    frames(h, 28);
    CHECK(h.ending);
}

TEST_CASE("the ramp: frame k at min(1, step x (k + 1))") {
    Hit h = quiet();
    h.rest = 0.25f;
    h.tone = 1.0f;
    h.rampStep = 1.0f / 48.0f;
    const auto x = frames(h, 3);
    for (int k = 0; k < 96; k += 4) {
        CAPTURE(k);
        CHECK(x[static_cast<size_t>(k)] == doctest::Approx(std::fmin(1.0, (k + 1) / 48.0)).epsilon(1e-6));
    }
}

TEST_CASE("the chip's long noise repeats every 32767 steps, its short noise every 93") {
    for (int tap : {1, 6}) {
        CAPTURE(tap);
        Hit h = quiet();
        h.lfsrNoise = true;
        h.lfsrTap = tap;
        h.noise = 1.0f;
        const auto x = frames(h, 2100);  // 67200 frames
        const size_t period = tap == 1 ? 32767 : 93;
        bool repeats = true;
        for (size_t k = 0; k + period < x.size(); ++k) repeats = repeats && x[k] == x[k + period];
        CHECK(repeats);
        // And not sooner: no shorter shift that is a divisor of the period repeats.
        for (size_t shorter : {size_t(31), size_t(3), size_t(7), size_t(151)}) {
            if (period % shorter != 0) continue;
            bool same = true;
            for (size_t k = 0; k + shorter < x.size(); ++k) same = same && x[k] == x[k + shorter];
            CHECK_FALSE(same);
        }
        for (float v : x) REQUIRE(std::fabs(v) == 1.0f);
    }
}

TEST_CASE("a noise step is held lfsrHold frames") {
    Hit h = quiet();
    h.lfsrNoise = true;
    h.lfsrHold = 3;
    h.noise = 1.0f;
    const auto x = frames(h, 30);
    for (size_t k = 0; k + 3 <= x.size(); k += 3) {
        CHECK(x[k + 1] == x[k]);
        CHECK(x[k + 2] == x[k]);
    }
}

TEST_CASE("the AVX2 + FMA kernel agrees with the baseline within 1e-5 (DESIGN.md, the kernels)") {
    if (!boop::dsp::simd::useAvx2()) {
        MESSAGE("no AVX2 on this CPU: the baseline is the only kernel");
        return;
    }
    Hit a = quiet();
    a.rest = 0.003f;
    a.sweep = 3.0f;
    setDecay(0.9995f, a.sweepPow, a.sweepPow8);
    a.tone = 0.7f;
    setDecay(0.9999f, a.tonePow, a.tonePow8);
    a.noise = 0.4f;
    a.noiseHp = 0.85f;
    setDecay(0.9998f, a.noisePow, a.noisePow8);
    a.clapGaps = 3;
    a.rampStep = 1.0f / 48.0f;
    for (uint32_t k = 0; k < 8; ++k) a.rng[k] = 12345u + 977u * k;
    Hit b = a;
    const auto wide = frames(a, 200, true), narrow = frames(b, 200, false);
    REQUIRE(wide.size() == narrow.size());
    double worst = 0.0;
    for (size_t k = 0; k < wide.size(); ++k) worst = std::max(worst, double(std::fabs(wide[k] - narrow[k])));
    CHECK(worst <= 1e-5);
}
