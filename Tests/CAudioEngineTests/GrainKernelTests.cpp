#include <doctest/doctest.h>
#include <cmath>
#include <cstring>
#include <vector>
#include "dsp/GrainKernel.hpp"
#include "dsp/Rng.hpp"
#include "dsp/SimdTypes.hpp"

// The granulator's and the ping-pong delay's vector kernels promise "the same values as the loop
// below", to the bit (no fused multiply-adds). The references here are those frame-by-frame loops
// (Granulator::render's, PingPongDelay::step's reads) written out; the kernels must match them.

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))

using boop::dsp::GrainGroup;
using boop::dsp::PingPongReads;

namespace {

constexpr int kWindowSize = 1024;

std::vector<float> hannTable() {
    std::vector<float> w(kWindowSize + 1);
    for (int i = 0; i <= kWindowSize; ++i) w[i] = float(0.5 - 0.5 * std::cos(2.0 * M_PI * i / kWindowSize));
    return w;
}

std::vector<float> noise(int n, std::uint64_t seed) {
    boop::dsp::Rng rng(seed);
    std::vector<float> x(size_t(n), 0.0f);
    for (float& v : x) v = rng.bipolar();
    return x;
}

// Granulator::render's loop for `count` frames of a grain still sounding (no reads near the head).
void referenceGrain(const GrainGroup& g, double& pos, int& age, int count, float* l, float* r) {
    const float* win = g.window;
    for (int t = 0; t < count; ++t) {
        const float x = static_cast<float>(age) * g.invLen * kWindowSize;
        const int wi = static_cast<int>(x);
        float w = 0.0f;
        if (wi < kWindowSize) {
            const float f = x - static_cast<float>(wi);
            w = win[wi] + (win[wi + 1] - win[wi]) * f;
        }
        int i0 = static_cast<int>(pos);
        const float frac = static_cast<float>(pos - i0);
        if (i0 >= g.size) i0 -= g.size;
        int i1 = i0 + 1;
        if (i1 >= g.size) i1 = 0;
        const float s0 = g.buffer[i0], s1 = g.buffer[i1];
        const float s = (s0 + (s1 - s0) * frac) * w * g.amp;
        l[t] += s * g.panL;
        r[t] += s * g.panR;
        pos += g.ratio;
        if (pos >= g.size) pos -= g.size;
        ++age;
    }
}

using Kernel = int (*)(const GrainGroup&, double&, int&, int, float*, float*);

// Runs a grain block by block through `kernel` (the rest of each block by the reference, as the
// granulator does) and through the reference alone; both must agree to the bit.
void checkGrain(Kernel kernel, int step, double startPos, double ratio, int len, int block) {
    const int size = 8192;
    const std::vector<float> buffer = noise(size, 7), window = hannTable();
    const GrainGroup g{buffer.data(), window.data(), size, len, ratio, 1.0f / float(len), 0.83f, 0.6f, 0.8f};
    double posK = startPos, posR = startPos;
    int ageK = 0, ageR = 0;
    std::vector<float> lk(size_t(block), 0.1f), rk(size_t(block), -0.2f), lr = lk, rr = rk;
    while (ageK < len) {
        const int m = std::min(block, len - ageK);
        const int ageBefore = ageK;
        const int t = kernel(g, posK, ageK, m, lk.data(), rk.data());
        // Whole groups only, as many as fit in the block and in the grain.
        CHECK(t % step == 0);
        CHECK(t <= m);
        CHECK(t + step > m);
        CHECK(ageK == ageBefore + t);
        referenceGrain(g, posK, ageK, m - t, lk.data() + t, rk.data() + t);
        referenceGrain(g, posR, ageR, m, lr.data(), rr.data());
        REQUIRE(posK == posR);
        REQUIRE(ageK == ageR);
        REQUIRE(std::memcmp(lk.data(), lr.data(), sizeof(float) * size_t(block)) == 0);
        REQUIRE(std::memcmp(rk.data(), rr.data(), sizeof(float) * size_t(block)) == 0);
    }
}

// The granulator's pitches (Granulator::spawn): an octave down, unison, a fifth up, an octave up.
const double kRatios[] = {0.5, 1.0, 1.5, 2.0};

void checkAllShapes(Kernel kernel, int step) {
    for (double ratio : kRatios) {
        CAPTURE(ratio);
        checkGrain(kernel, step, 1234.375, ratio, 2000, 256);  // mid-buffer, a fractional start
        checkGrain(kernel, step, 8100.8125, ratio, 1500, 64);  // reads wrap past the buffer's end
        checkGrain(kernel, step, 0.25, ratio, 777, 100);       // starts below 1, odd length and block
        checkGrain(kernel, step, 4095.5, ratio, 1000, 37);     // crosses a power of two
        checkGrain(kernel, step, 6000.0, ratio, 5, 64);        // shorter than one group
    }
}

}  // namespace

TEST_CASE("renderGrainGroups (AVX2) equals the granulator's frame-by-frame loop to the bit") {
    if (!boop::dsp::simd::useAvx2()) {
        MESSAGE("this CPU has no AVX2: the kernel is not used here");
        return;
    }
    checkAllShapes(boop::dsp::renderGrainGroups, 8);
}

#if defined(__SSE4_1__)
TEST_CASE("renderGrainQuads (the x86-64-v2 baseline) equals the frame-by-frame loop to the bit") {
    checkAllShapes(boop::dsp::renderGrainQuads, 4);
}

TEST_CASE("the window is zero past its end and the grain's peak is amp at the window's middle") {
    const int size = 4096, len = 1024;
    const std::vector<float> buffer(size_t(size), 1.0f), window = hannTable();
    const GrainGroup g{buffer.data(), window.data(), size, len, 1.0, 1.0f / float(len), 0.5f, 1.0f, 1.0f};
    double pos = 100.0;
    int age = 0;
    std::vector<float> l(size_t(len), 0.0f), r(size_t(len), 0.0f);
    REQUIRE(boop::dsp::renderGrainQuads(g, pos, age, len, l.data(), r.data()) == len);
    // A constant buffer: the output is the Hann window times amp.
    CHECK(l[0] == 0.0f);
    CHECK(l[len / 2] == doctest::Approx(0.5f).epsilon(1e-6));
    for (int i = 0; i < len; ++i) CHECK(l[size_t(i)] == doctest::Approx(0.5f * window[size_t(i)]).epsilon(1e-5));
}
#endif

namespace {

// PingPongDelay::step's read of one frame, the write head `write` frames in.
void referenceReads(const PingPongReads& d, int m, float* yl, float* yr) {
    int write = d.write;
    for (int i = 0; i < m; ++i) {
        float pos = static_cast<float>(write) - d.current;
        pos = pos < 0.0f ? pos + d.sizeF : pos;
        int i0 = static_cast<int>(pos);
        const float frac = pos - static_cast<float>(i0);
        i0 = i0 >= d.size ? i0 - d.size : i0;
        const int i1 = i0 + 1 >= d.size ? 0 : i0 + 1;
        yl[i] = d.left[i0] + (d.left[i1] - d.left[i0]) * frac;
        yr[i] = d.right[i0] + (d.right[i1] - d.right[i0]) * frac;
        write = write + 1 >= d.size ? 0 : write + 1;
    }
}

}  // namespace

TEST_CASE("readFrames (AVX2) reads what the delay's frame-by-frame step reads, to the bit") {
    if (!boop::dsp::simd::useAvx2()) {
        MESSAGE("this CPU has no AVX2: the kernel is not used here");
        return;
    }
    const int size = 18000;
    const std::vector<float> left = noise(size, 3), right = noise(size, 4);
    // readAhead's condition: the delay longer than m + 8 frames, m at most 64.
    const float delays[] = {72.0f, 100.25f, 17999.5f, 9000.375f, 12345.0f};
    const int writes[] = {0, 5, 70, 9000, size - 1, size - 30};
    const int blocks[] = {1, 7, 8, 33, 64};
    for (float current : delays)
        for (int write : writes)
            for (int m : blocks) {
                CAPTURE(current);
                CAPTURE(write);
                CAPTURE(m);
                const PingPongReads d{left.data(), right.data(), size, write, float(size), current};
                float kl[64], kr[64], rl[64], rr[64];
                boop::dsp::readFrames(d, m, kl, kr);
                referenceReads(d, m, rl, rr);
                REQUIRE(std::memcmp(kl, rl, sizeof(float) * size_t(m)) == 0);
                REQUIRE(std::memcmp(kr, rr, sizeof(float) * size_t(m)) == 0);
            }
}

#else
TEST_CASE("the grain kernels are x86-64 only") { MESSAGE("not x86-64: nothing to test"); }
#endif
