// The 808 and chip kits (engine/Kit): each hit analysed in its rendered samples: the 808 kick
// settles on its 50 Hz rest pitch and the chip toms on 90 + 15 (key - 41) Hz, a decay falls 60 dB
// over its time, a hit starts with a 1 ms ramp, fades out when asked and ends by itself, and the
// samples do not depend on how the frames were cut into render calls, and the AVX2 build's agree
// with the baseline's within 1e-5.
#include <doctest/doctest.h>
#include <cmath>
#include <cstdlib>
#include <vector>
#include "TestSignals.hpp"
#include "engine/Kit.hpp"

using boop::KitBank;
using testsig::maxStep;
using testsig::peakAmplitude;
using testsig::rms;
using testsig::zeroCrossingFrequency;

namespace {

constexpr double kRate = 48000.0;

// `frames` of one hit of `kit` at `key`, rendered in calls of `block` frames (mono: left).
std::vector<float> hit(boop_kit kit, uint32_t key, size_t frames, int block = 512, KitBank* bank = nullptr) {
    KitBank local;
    KitBank& b = bank ? *bank : local;
    if (!bank) b.prepare(kRate);
    b.trigger(kit, key, 1.0f, 7, 1);
    std::vector<float> left(frames, 0.0f), right(frames, 0.0f);
    for (size_t at = 0; at < frames; at += static_cast<size_t>(block)) {
        const int end = static_cast<int>(std::min(frames, at + static_cast<size_t>(block)));
        b.render(left.data(), right.data(), 1.0f, 0.5f, static_cast<int>(at), end);
    }
    for (size_t i = 0; i < frames; ++i) REQUIRE(right[i] == left[i] * 0.5f);
    return left;
}

}  // namespace

TEST_CASE("the 808 kick sweeps down onto 50 Hz") {
    const auto x = hit(BOOP_KIT_808, 36, 48000);
    const double late = zeroCrossingFrequency(x, kRate, 9600, 28800);  // 0.2 ... 0.6 s
    CHECK(late == doctest::Approx(50.0).epsilon(0.01));
    // It starts at three times the rest pitch: its first half cycle ends well before 50 Hz's
    // (10 ms): about 5 ms with the sweep's extra 100 Hz falling 60 dB in 30 ms.
    size_t firstDown = 0;
    for (size_t i = 2; i < x.size() && firstDown == 0; ++i)
        if (x[i - 1] > 0.0f && x[i] <= 0.0f) firstDown = i;
    CAPTURE(firstDown);
    CHECK(firstDown > 0);
    CHECK(firstDown < static_cast<size_t>(0.008 * kRate));
}

TEST_CASE("the chip toms sound 90 + 15 (key - 41) Hz") {
    for (uint32_t key : {41u, 45u, 48u}) {
        CAPTURE(key);
        const auto x = hit(BOOP_KIT_CHIP, key, 24000);
        CHECK(zeroCrossingFrequency(x, kRate, 4800, 9600) == doctest::Approx(90.0 + 15.0 * (key - 41)).epsilon(0.02));
    }
}

TEST_CASE("a decay falls 60 dB over its time: the 808 kick's tone, 0.7 s") {
    const auto x = hit(BOOP_KIT_808, 36, 96000);
    // Peaks over a few cycles of 50 Hz (the sweep long gone), 0.7 s apart.
    const double a = peakAmplitude(x, 9600, 14400);   // 0.2 ... 0.3 s
    const double b = peakAmplitude(x, 43200, 48000);  // 0.9 ... 1.0 s
    CHECK(20.0 * std::log10(b / a) == doctest::Approx(-60.0).epsilon(0.05));
}

TEST_CASE("a hit starts from silence over 1 ms") {
    // The snare: noise at once, so only the ramp keeps its first frames small. Frame k of the
    // 48-frame ramp is at most (k + 1) / 48 of the hit's level then (its decay has barely begun).
    const auto x = hit(BOOP_KIT_808, 38, 4800);
    const double peak = peakAmplitude(x, 0, 480);
    for (size_t k = 0; k < 48; ++k) {
        CAPTURE(k);
        CHECK(std::fabs(x[k]) <= 1.05 * peak * static_cast<double>(k + 1) / 48.0);
    }
    // The kick, a sine: no step inside the ramp larger than its steady slope allows.
    const auto kick = hit(BOOP_KIT_808, 36, 4800);
    CHECK(maxStep(kick, 0, 48) < 0.05 * peakAmplitude(kick, 0, 4800));
}

TEST_CASE("a hit ends by itself when every part has fallen under -80 dB; fadeAll ends it sooner") {
    KitBank bank;
    bank.prepare(kRate);
    hit(BOOP_KIT_808, 42, 48000, 512, &bank);  // a closed hat: 60 dB in 60 ms
    CHECK(bank.activeCount() == 0);

    KitBank fading;
    fading.prepare(kRate);
    fading.trigger(BOOP_KIT_808, 49, 1.0f, 3, 1);  // a crash: 1.3 s long
    std::vector<float> l(4800, 0.0f), r(4800, 0.0f);
    fading.render(l.data(), r.data(), 1.0f, 1.0f, 0, 480);
    CHECK(fading.activeCount() == 1);
    fading.fadeAll(0.01);
    fading.render(l.data(), r.data(), 1.0f, 1.0f, 480, 4800);
    CHECK(fading.activeCount() == 0);
    // Nothing after the 10 ms fade (480 frames).
    CHECK(peakAmplitude(l, 961, 4800) == 0.0);
}

TEST_CASE("eight hits ring at once; a ninth takes the oldest's place") {
    KitBank bank;
    bank.prepare(kRate);
    for (uint64_t i = 1; i <= 9; ++i) {
        bank.trigger(BOOP_KIT_808, 49, 0.5f, static_cast<uint32_t>(i), i);
        CHECK(bank.activeCount() == static_cast<int>(std::min<uint64_t>(i, 8)));
    }
}

TEST_CASE("the same samples whatever the render calls' sizes") {
    const auto whole = hit(BOOP_KIT_808, 39, 20000, 20000);
    for (int block : {1, 7, 32, 100, 256, 1000}) {
        CAPTURE(block);
        const auto cut = hit(BOOP_KIT_808, 39, 20000, block);
        CHECK(cut == whole);  // bit for bit
    }
    CHECK(hit(BOOP_KIT_CHIP, 38, 20000, 33) == hit(BOOP_KIT_CHIP, 38, 20000, 4096));
}

TEST_CASE("the AVX2 + FMA build and the baseline agree within 1e-5 (DESIGN.md, the kernels)") {
    if (!boop::dsp::simd::useAvx2()) {
        MESSAGE("no AVX2 here: only the baseline to compare");
        return;
    }
    const auto wide = hit(BOOP_KIT_808, 56, 20000);
    setenv("BOOP_NO_AVX2", "1", 1);
    const auto narrow = hit(BOOP_KIT_808, 56, 20000);
    unsetenv("BOOP_NO_AVX2");
    REQUIRE(wide.size() == narrow.size());
    double worst = 0.0;
    for (size_t k = 0; k < wide.size(); ++k) worst = std::max(worst, double(std::fabs(wide[k] - narrow[k])));
    CHECK(worst <= 1e-5);
}

TEST_CASE("the seed changes the noise, not its level") {
    KitBank a, b;
    a.prepare(kRate);
    b.prepare(kRate);
    a.trigger(BOOP_KIT_808, 46, 1.0f, 1, 1);
    b.trigger(BOOP_KIT_808, 46, 1.0f, 2, 1);
    std::vector<float> la(9600, 0.0f), ra(9600, 0.0f), lb(9600, 0.0f), rb(9600, 0.0f);
    a.render(la.data(), ra.data(), 1.0f, 1.0f, 0, 9600);
    b.render(lb.data(), rb.data(), 1.0f, 1.0f, 0, 9600);
    CHECK(la != lb);
    CHECK(rms(la, 0, 9600) == doctest::Approx(rms(lb, 0, 9600)).epsilon(0.1));
}
