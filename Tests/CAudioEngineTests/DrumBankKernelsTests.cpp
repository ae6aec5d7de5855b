// The drum kernels (DrumBankKernels.cpp): the ringing lanes, the sweeping tones and the noise,
// built for the baseline and for AVX2 + FMA. Through DrumBank::render, which hands each part to
// them: a block cut anywhere (groups of eight begun mid-way) gives the same bits as the block whole,
// the two builds agree within 1e-5 (the bound DESIGN.md sets for the tone kernels, built alike:
// the drum kernels have none of their own), every hit ends (under -80 dB)
// and a fade ends them all. (DrumBankTests compares every key with the scalar reference voice.)
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "dsp/SimdTypes.hpp"
#include "engine/DrumBank.hpp"

using boop::DrumBank;

namespace {

constexpr double kRate = 44100.0;
constexpr int kBlock = 512;

// A kit pattern: a hit every 40 ms on the General MIDI drum keys 35 ... 81, all parts (ringing,
// sweeping, noise, the clap's bursts) overlapping, the ninth stealing the oldest; a fade at
// `fadeAt`. Each block is cut at `cuts` (frames inside it) into ranges rendered one by one.
std::vector<float> play(bool baseline, const std::vector<int>& cuts, size_t frames, size_t fadeAt) {
    if (baseline)
        setenv("BOOP_NO_AVX2", "1", 1);
    else
        unsetenv("BOOP_NO_AVX2");
    DrumBank bank;
    bank.prepare(kRate);
    unsetenv("BOOP_NO_AVX2");
    std::vector<float> out(frames, 0.0f);
    const size_t spacing = size_t(0.04 * kRate);
    uint32_t key = 35, seed = 0;
    uint64_t order = 0;
    for (size_t clock = 0; clock < frames; clock += kBlock) {
        const int n = int(std::min<size_t>(kBlock, frames - clock));
        int begin = 0;
        for (size_t f = clock; f < clock + size_t(n); ++f) {
            if (f % spacing != 0 && f != fadeAt) continue;
            // A hit or the fade lands on frame f: what is before it rendered first.
            const int at = int(f - clock);
            if (at > begin) bank.render(out.data() + clock, clock, begin, at);
            begin = at;
            if (f == fadeAt) bank.fadeAll(0.1);
            if (f % spacing == 0 && f < fadeAt) {
                bank.trigger(key, 0.9f, ++seed, ++order, f);
                key = key == 81 ? 35 : key + 1;
            }
        }
        for (int c : cuts)
            if (c > begin && c < n) {
                bank.render(out.data() + clock, clock, begin, c);
                begin = c;
            }
        bank.render(out.data() + clock, clock, begin, n);
    }
    return out;
}

}  // namespace

TEST_CASE("a block cut anywhere gives the same bits as the block whole, in both builds") {
    const size_t frames = size_t(2.5 * kRate), fadeAt = size_t(1.7 * kRate);
    for (bool baseline : {true, false}) {
        CAPTURE(baseline);
        const std::vector<float> whole = play(baseline, {}, frames, fadeAt);
        for (const std::vector<int>& cuts : std::vector<std::vector<int>>{{1}, {3, 4, 13, 100, 511}, {7, 15, 300}}) {
            const std::vector<float> cut = play(baseline, cuts, frames, fadeAt);
            CHECK(std::memcmp(whole.data(), cut.data(), frames * sizeof(float)) == 0);
        }
    }
}

TEST_CASE("the AVX2 + FMA and baseline drum kernels agree within 1e-5") {
    if (!boop::dsp::simd::useAvx2()) {
        MESSAGE("this CPU has no AVX2 and FMA: only the baseline is used here");
        return;
    }
    const size_t frames = size_t(3.0 * kRate), fadeAt = size_t(2.5 * kRate);
    const std::vector<float> wide = play(false, {5, 77}, frames, fadeAt), base = play(true, {5, 77}, frames, fadeAt);
    float worst = 0.0f, loudest = 0.0f;
    for (size_t i = 0; i < frames; ++i) {
        worst = std::max(worst, std::fabs(wide[i] - base[i]));
        loudest = std::max(loudest, std::fabs(base[i]));
    }
    REQUIRE(loudest > 0.1f);
    INFO("worst difference " << worst << " of a peak of " << loudest);
    CHECK(worst <= 1e-5f);
}

TEST_CASE("every hit ends under -80 dB, and a fade silences a full bank within its length") {
    for (bool baseline : {true, false}) {
        CAPTURE(baseline);
        const size_t frames = size_t(2.0 * kRate), fadeAt = size_t(1.0 * kRate);
        const std::vector<float> out = play(baseline, {}, frames, fadeAt);
        // The 0.1 s fade from 1.0 s: nothing after 1.1 s (the block holding its end may finish it).
        const size_t silentFrom = fadeAt + size_t(0.1 * kRate) + 1;
        for (size_t i = silentFrom; i < frames; ++i) REQUIRE(out[i] == 0.0f);
        if (baseline) setenv("BOOP_NO_AVX2", "1", 1);
        DrumBank lone;
        lone.prepare(kRate);
        unsetenv("BOOP_NO_AVX2");
        lone.trigger(49, 1.0f, 1, 1, 0);  // a crash cymbal: the longest tail of the kit
        std::vector<float> tail(kBlock);
        uint64_t clock = 0;
        while (lone.activeCount() > 0 && clock < uint64_t(30 * kRate)) {
            std::fill(tail.begin(), tail.end(), 0.0f);
            lone.render(tail.data(), clock, 0, kBlock);
            clock += kBlock;
        }
        CHECK(lone.activeCount() == 0);
    }
}
