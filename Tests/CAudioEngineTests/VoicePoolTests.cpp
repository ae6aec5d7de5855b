#include <doctest/doctest.h>
#include "TestSignals.hpp"

using namespace testsig;

TEST_CASE("pool: 8 voices by default; a 9th note steals the oldest, which fades (not cut)") {
    EngineHandle engine(44100.0);
    for (uint32_t i = 0; i < 8; ++i) boop_engine_note_on(engine, 0, i, BOOP_TIMBRE_MELODY, 200.0 + 50 * i, 0.6f);
    engine.render(4410);
    CHECK(boop_engine_active_voices(engine) == 8);
    boop_engine_note_on(engine, 4410, 100, BOOP_TIMBRE_MELODY, 1000.0, 0.6f);
    engine.render(64);
    CHECK(boop_engine_active_voices(engine) == 9);  // the stolen one is still fading out
    // Its 5 ms fade, then its filter rings down to exactly zero (a few hundred frames, with
    // denormals flushed): then it is gone.
    engine.render(441);
    CHECK(boop_engine_active_voices(engine) == 9);
    engine.render(441);
    CHECK(boop_engine_active_voices(engine) == 8);
    // The stolen voice was the oldest (note 0): releasing it now does nothing; releasing the
    // others does.
    boop_engine_note_off(engine, 5000, 0);
    engine.render(100);
    CHECK(boop_engine_active_voices(engine) == 8);
}

TEST_CASE("steal: the largest sample-to-sample step stays within what the sines themselves produce") {
    const double rate = 44100.0;
    auto play = [&](uint32_t voices, uint32_t poolSize) {
        EngineHandle engine(rate, poolSize);
        for (uint32_t i = 0; i < voices; ++i)
            boop_engine_note_on(engine, 0, i, BOOP_TIMBRE_MELODY, 300.0 + 110.0 * i, 1.0f);
        boop_engine_note_on(engine, 10000, 99, BOOP_TIMBRE_MELODY, 880.0, 1.0f);
        return engine.render(20000);
    };
    for (uint32_t voices : {1u, 2u, 4u}) {
        auto stolen = play(voices, voices);     // the new note steals the oldest
        auto roomy = play(voices, voices + 1);  // the same notes with a free voice: no steal
        double sineStepBound = 2 * M_PI * 880.0 * 0.3 / rate;
        for (uint32_t i = 0; i < voices; ++i) sineStepBound += 2 * M_PI * (300.0 + 110.0 * i) * 0.3 / rate;
        const float step = maxStep(stolen, 9990, 10600);
        INFO("voices " << voices << " step " << step << " bound " << sineStepBound);
        CHECK(step <= sineStepBound);
        // No click: around the steal, energy above 3 kHz is no more than the sines' own there.
        const double clickRms = rms(highpass(stolen, rate, 3000.0), 9990, 10600);
        const double cleanRms = rms(highpass(roomy, rate, 3000.0), 9990, 10600);
        INFO("HF rms at steal " << clickRms << " without steal " << cleanRms);
        CHECK(clickRms <= cleanRms * 1.1 + 1e-5);
    }
}

TEST_CASE("pool: voices configurable 1 ... 256; out of range is refused") {
    boop_engine_config c;
    boop_engine_config_default(&c);
    boop_engine* e = nullptr;
    c.voices = 0;
    CHECK(boop_engine_create(&c, &e) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(e == nullptr);
    c.voices = 257;
    CHECK(boop_engine_create(&c, &e) == BOOP_ERROR_INVALID_ARGUMENT);
    c.voices = 64;
    REQUIRE(boop_engine_create(&c, &e) == BOOP_OK);
    for (uint32_t i = 0; i < 64; ++i) boop_engine_note_on(e, 0, i, BOOP_TIMBRE_MELODY, 100.0 + i, 1.0f);
    std::vector<float> out(256);
    boop_engine_render(e, out.data(), 256);
    CHECK(boop_engine_active_voices(e) == 64);
    boop_engine_destroy(e);
}
