// The engine's mix stage (engine/EngineMix) through the C API: the voices' sum times the master
// gain 0.3, transparent while the mix stays under the soft clipper's knee (0.5) and shaped by
// SoftClipper above it, never reaching 1; both output channels the same centred mix; and each
// frame's bits independent of where a render block ended (the tail frames add their lanes as the
// eight-frame fold does).
#include <doctest/doctest.h>
#include <cmath>
#include <vector>
#include "TestSignals.hpp"
#include "dsp/SoftClipper.hpp"

using testsig::EngineHandle;

namespace {

constexpr double kRate = 48000.0;

// A chord of `notes` tone-timbre notes (sines) of `gain` each, rendered in blocks of `block`.
std::vector<float> chord(int notes, float gain, uint32_t block, uint32_t channels = 1, size_t frames = 24000) {
    EngineHandle engine(kRate, 16, channels);
    for (int i = 0; i < notes; ++i)
        boop_engine_note_on(engine, 0, static_cast<uint32_t>(i + 1), BOOP_TIMBRE_TONE, 220.0 * (1.0 + 0.25 * i), gain);
    return engine.render(frames, block);
}

}  // namespace

TEST_CASE("the same bits whatever the render block, tail frames included") {
    const auto whole = chord(3, 0.8f, 4096);
    for (uint32_t block : {1u, 7u, 8u, 13u, 333u, 512u}) {
        CAPTURE(block);
        CHECK(chord(3, 0.8f, block) == whole);
    }
}

TEST_CASE("both output channels carry the centred mix") {
    const auto mono = chord(2, 0.5f, 512, 1);
    const auto stereo = chord(2, 0.5f, 512, BOOP_CHANNELS_MAX);
    REQUIRE(stereo.size() == 2 * mono.size());
    bool same = true;
    for (size_t n = 0; n < mono.size(); ++n)
        for (size_t c = 0; c < 2; ++c) same = same && stereo[2 * n + c] == mono[n];
    CHECK(same);
    // And loud, through the clipper.
    const auto loudMono = chord(12, 1.0f, 512, 1), loudStereo = chord(12, 1.0f, 512, 2);
    bool loudSame = true;
    for (size_t n = 0; n < loudMono.size(); ++n) loudSame = loudSame && loudStereo[2 * n] == loudMono[n];
    CHECK(loudSame);
}

TEST_CASE("under the knee the mix is linear: two notes sound as the sum of each alone") {
    // One note at gain 0.5 peaks near 0.5 x 0.3 x the timbre's level: far under 0.5.
    EngineHandle a(kRate), b(kRate), both(kRate);
    boop_engine_note_on(a, 0, 1, BOOP_TIMBRE_TONE, 220.0, 0.5f);
    boop_engine_note_on(b, 0, 2, BOOP_TIMBRE_TONE, 330.0, 0.5f);
    boop_engine_note_on(both, 0, 1, BOOP_TIMBRE_TONE, 220.0, 0.5f);
    boop_engine_note_on(both, 0, 2, BOOP_TIMBRE_TONE, 330.0, 0.5f);
    const auto xa = a.render(12000), xb = b.render(12000), xs = both.render(12000);
    double worst = 0.0, peak = 0.0;
    for (size_t n = 0; n < xs.size(); ++n) {
        worst = std::max(worst, double(std::fabs(xs[n] - (xa[n] + xb[n]))));
        peak = std::max(peak, double(std::fabs(xs[n])));
    }
    REQUIRE(peak < boop::dsp::SoftClipper::kKnee);
    CHECK(worst < 1e-6);  // float rounding of the order of the sums only
}

TEST_CASE("over the knee the soft clipper shapes the mix and it never reaches 1") {
    const auto loud = chord(12, 1.0f, 512);
    double peak = 0.0;
    for (float x : loud) peak = std::max(peak, double(std::fabs(x)));
    CHECK(peak > boop::dsp::SoftClipper::kKnee);
    CHECK(peak < 1.0);
    // Monotonic and odd: the loudest sample of a louder chord is no quieter.
    const auto louder = chord(16, 1.0f, 512);
    double peak2 = 0.0;
    for (float x : louder) peak2 = std::max(peak2, double(std::fabs(x)));
    CHECK(peak2 >= peak - 0.05);
    CHECK(peak2 < 1.0);
}
