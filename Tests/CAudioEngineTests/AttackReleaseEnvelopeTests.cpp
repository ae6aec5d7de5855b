#include <doctest/doctest.h>
#include "TestSignals.hpp"
#include "reference/AttackReleaseEnvelope.hpp"

using namespace testsig;

TEST_CASE("envelope: linear 10 ms attack, release min(gate * 0.3, 0.15 s)") {
    const double rate = 48000.0;
    boop::reference::AttackReleaseEnvelope env;
    env.prepare(rate);
    env.noteOn();
    std::vector<float> levels;
    for (int i = 0; i < 960; ++i) levels.push_back(env.process());
    CHECK(levels[0] == 0.0f);
    CHECK(levels[240] == doctest::Approx(0.5).epsilon(0.01));  // 5 ms: halfway
    CHECK(levels[480] == doctest::Approx(1.0));                // 10 ms: full
    CHECK(env.stage() == boop::reference::AttackReleaseEnvelope::Stage::Sustain);

    // Held 960 samples = 20 ms: release 6 ms = 288 samples.
    env.noteOff();
    int n = 0;
    while (env.isActive() && n < 100000) {
        env.process();
        ++n;
    }
    CHECK(n == doctest::Approx(288).epsilon(0.01));

    CHECK(boop::reference::AttackReleaseEnvelope::releaseSecondsForGate(2.0, 0.3, 0.15) == doctest::Approx(0.15));
    CHECK(boop::reference::AttackReleaseEnvelope::releaseSecondsForGate(0.1, 0.3, 0.15) == doctest::Approx(0.03));
}

TEST_CASE("engine envelope on rendered samples: attack and release timing") {
    const double rate = 44100.0;
    EngineHandle engine(rate);
    // 500 Hz melody note held 0.2 s: release min(0.06, 0.15) = 0.06 s.
    boop_engine_note_on(engine, 0, 7, BOOP_TIMBRE_MELODY, 500.0, 1.0f);
    boop_engine_note_off(engine, 8820, 7);
    auto x = engine.render(44100);
    const size_t cycle = 88;  // one period of 500 Hz at 44.1 kHz
    const double full = peakAmplitude(x, 2000, 8000);
    CHECK(full == doctest::Approx(0.3).epsilon(0.02));  // master 0.3; the 2 kHz lowpass is flat at 500 Hz
    // Halfway through the attack (5 ms = 220 frames) the level is about half.
    CHECK(peakAmplitude(x, 220 - cycle / 2, 220 + cycle / 2) / full == doctest::Approx(0.5).epsilon(0.12));
    CHECK(peakAmplitude(x, 500, 500 + cycle) / full == doctest::Approx(1.0).epsilon(0.02));
    // Halfway through the release (30 ms after the off at 8820) the level is about half...
    const size_t mid = 8820 + 1323;
    CHECK(peakAmplitude(x, mid - cycle / 2, mid + cycle / 2) / full == doctest::Approx(0.5).epsilon(0.12));
    // ... and 60 ms after note-off the voice is silent and retired.
    CHECK(peakAmplitude(x, 8820 + 2646 + 8, x.size()) < 1e-4);
    CHECK(boop_engine_active_voices(engine) == 0);
}
