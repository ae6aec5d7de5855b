// The song instruments and kits (CAudioEngine.h, "Instruments"), measured on rendered samples:
// every voice in tune (sine and triangle within 0.01 cent, the others within 1 cent of the
// fundamental, by a least-squares sine fit over the held part of the note), onsets and steals
// without a click, the same bits at any block size, pan and the kits.
#include <doctest/doctest.h>
#include <cstdlib>
#include <string>
#include "TestInstrument.hpp"
#include "TestSignals.hpp"
#include "ToneFit.hpp"

namespace {

// One held note on slot 0, mono; returns the measured fundamental.
double measure(boop_instrument_voice voice, double rate, double hz) {
    testsig::EngineHandle engine(rate, 8, 1);
    boop_instrument inst = plainInstrument(voice);
    REQUIRE(boop_engine_set_instrument(engine, 0, 0, &inst) == BOOP_OK);
    REQUIRE(boop_engine_instrument_note_on(engine, 0, 1, 0, hz, 1.0f) == BOOP_OK);
    const size_t frames = size_t(0.6 * rate);
    const auto out = engine.render(frames, 512);
    // Past the attack; a plucked string's first cycles are its noise burst settling.
    const size_t begin = size_t((voice == BOOP_VOICE_PLUCK ? 0.1 : 0.02) * rate);
    return tonefit::fitSine(out, rate, begin, frames, hz).frequency;
}

const char* name(boop_instrument_voice v) { return boop_voice_name(v); }

}  // namespace

TEST_CASE("every instrument voice is in tune: sine and triangle within 0.01 cent, the others within 1 cent") {
    for (int v = 0; v < BOOP_VOICE_COUNT; ++v) {
        const auto voice = static_cast<boop_instrument_voice>(v);
        const double goal = (voice == BOOP_VOICE_SINE || voice == BOOP_VOICE_TRIANGLE) ? 0.01 : 1.0;
        double worst = 0;
        for (double rate : {44100.0, 48000.0}) {
            for (int midi : {45, 57, 64, 69, 76}) {
                const double hz = testsig::midiToHz(midi);
                const double error = tonefit::cents(measure(voice, rate, hz), hz);
                worst = std::max(worst, std::fabs(error));
            }
        }
        MESSAGE(std::string(name(voice)) << ": worst " << worst << " cent");
        CHECK_MESSAGE(worst < goal, std::string(name(voice)) << " is " << worst << " cent off (goal " << goal << ")");
    }
}

TEST_CASE("onsets and steals do not click: no jump far above the waveform's own steepest step") {
    const double rate = 44100;
    testsig::EngineHandle engine(rate, 8, 1);
    boop_instrument inst = plainInstrument(BOOP_VOICE_SINE);
    REQUIRE(boop_engine_set_instrument(engine, 0, 0, &inst) == BOOP_OK);
    // 17 notes on one slot: the 17th steals the first (a 5 ms fade), all at 110 Hz.
    for (uint32_t n = 0; n < 17; ++n)
        REQUIRE(boop_engine_instrument_note_on(engine, 1000 + n * 2000, n + 1, 0, 110.0, 0.05f) == BOOP_OK);
    const auto out = engine.render(60000, 256);
    // A sine of amplitude A at 110 Hz moves at most 2 pi 110 / rate x A per frame; 16 voices in
    // phase move 16 times that. A click is a jump of the order of a voice's whole amplitude.
    const double voiceAmp = 0.05 * 0.3;
    const double sineStep = 2 * M_PI * 110.0 / rate * voiceAmp;
    const float worst = testsig::maxStep(out, 0, out.size());
    CHECK(worst < 16 * sineStep + voiceAmp / 50);
    CHECK(boop_engine_active_voices(engine) == 16);
}

TEST_CASE("instruments and kits give the same bits at any block size") {
    auto renderWith = [](uint32_t block) {
        testsig::EngineHandle engine(44100, 8, 2, 4096);
        for (uint32_t slot = 0; slot < 3; ++slot) {
            boop_instrument inst = plainInstrument(static_cast<boop_instrument_voice>(slot * 2 + 1));
            inst.cutoff = 1500.0 + 500.0 * slot;
            inst.resonance = 2.0;
            inst.pan = -0.5 + 0.5 * slot;
            inst.decay = 0.1;
            inst.sustain = 0.5;
            REQUIRE(boop_engine_set_instrument(engine, 0, slot, &inst) == BOOP_OK);
        }
        boop_instrument pluck = plainInstrument(BOOP_VOICE_PLUCK);
        REQUIRE(boop_engine_set_instrument(engine, 20000, 0, &pluck) == BOOP_OK);
        uint32_t id = 1;
        for (uint64_t f = 100; f < 50000; f += 3001) {
            const uint32_t slot = id % 3;
            REQUIRE(boop_engine_instrument_note_on(engine, f, id, slot, 110.0 * (1 + id % 5), 0.6f) == BOOP_OK);
            REQUIRE(boop_engine_kit_hit(engine, f + 7, static_cast<boop_kit>(1 + id % 2), 36 + id % 11, 0.8f) ==
                    BOOP_OK);
            REQUIRE(boop_engine_note_off(engine, f + 2500, id) == BOOP_OK);
            ++id;
        }
        return engine.render(60000, block);
    };
    const auto reference = renderWith(4096);
    for (uint32_t block : {1u, 7u, 64u, 441u, 512u}) {
        const auto other = renderWith(block);
        CHECK_MESSAGE(other == reference, "block " << block << " differs");
    }
}

TEST_CASE("pan: a voice panned hard right leaves the left channel silent; the centre is unity on both") {
    for (double pan : {1.0, 0.0}) {
        testsig::EngineHandle engine(44100, 8, 2);
        boop_instrument inst = plainInstrument(BOOP_VOICE_SAW);
        inst.pan = pan;
        REQUIRE(boop_engine_set_instrument(engine, 0, 1, &inst) == BOOP_OK);
        REQUIRE(boop_engine_instrument_note_on(engine, 0, 1, 1, 220.0, 0.6f) == BOOP_OK);
        const auto out = engine.render(8820);
        double left = 0, right = 0;
        for (size_t n = 0; n < 8820; ++n) {
            left = std::max(left, double(std::fabs(out[2 * n])));
            right = std::max(right, double(std::fabs(out[2 * n + 1])));
        }
        CHECK(right > 0.05);
        if (pan == 1.0) CHECK(left == 0.0);
        if (pan == 0.0) CHECK(left == right);
    }
}

TEST_CASE("the 808 and chip kits sound every key, stay bounded and fall silent") {
    for (boop_kit kit : {BOOP_KIT_808, BOOP_KIT_CHIP}) {
        testsig::EngineHandle engine(44100, 8, 1);
        for (uint32_t key = 35; key <= 81; ++key)
            REQUIRE(boop_engine_kit_hit(engine, (key - 35) * 4410, kit, key, 1.0f) == BOOP_OK);
        const auto out = engine.render(44100 * 8);
        for (uint32_t key = 35; key <= 81; ++key) {
            const size_t at = (key - 35) * 4410;
            CHECK_MESSAGE(testsig::peakAmplitude(out, at, at + 2000) > 0.01, "kit " << kit << " key " << key);
        }
        CHECK(testsig::peakAmplitude(out, 0, out.size()) < 1.0);
        CHECK(boop_engine_active_voices(engine) == 0);
        // The 1 ms ramp-in: the first frame of a hit is no jump.
        CHECK(std::fabs(out[0]) < 0.05);
    }
}

TEST_CASE("the instrument calls refuse what is out of range") {
    testsig::EngineHandle engine;
    boop_instrument inst = plainInstrument(BOOP_VOICE_SINE);
    CHECK(boop_engine_set_instrument(engine, 0, BOOP_INSTRUMENT_SLOTS, &inst) == BOOP_ERROR_INVALID_ARGUMENT);
    inst.cutoff = 5.0;
    CHECK(boop_engine_set_instrument(engine, 0, 0, &inst) == BOOP_ERROR_INVALID_ARGUMENT);
    inst = plainInstrument(static_cast<boop_instrument_voice>(8));
    CHECK(boop_engine_set_instrument(engine, 0, 0, &inst) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(boop_engine_instrument_note_on(engine, 0, 1, 0, 30000.0, 1.0f) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(boop_engine_kit_hit(engine, 0, static_cast<boop_kit>(3), 36, 1.0f) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(boop_engine_set_instrument(nullptr, 0, 0, &inst) == BOOP_ERROR_INVALID_ARGUMENT);
}

TEST_CASE("the baseline and AVX2 kernels of the instruments and kits agree") {
    auto renderWith = [](bool baseline) {
        if (baseline) setenv("BOOP_NO_AVX2", "1", 1);
        testsig::EngineHandle engine(44100, 8, 2, 4096);
        unsetenv("BOOP_NO_AVX2");
        for (uint32_t slot = 0; slot < 3; ++slot) {
            boop_instrument inst =
                plainInstrument(static_cast<boop_instrument_voice>(slot == 2 ? 6 : 5 - slot));  // pluck, fm, pad
            inst.cutoff = 1200.0 + 900.0 * slot;
            inst.resonance = 3.0;
            REQUIRE(boop_engine_set_instrument(engine, 0, slot, &inst) == BOOP_OK);
        }
        uint32_t id = 1;
        for (uint64_t f = 100; f < 40000; f += 2203, ++id) {
            REQUIRE(boop_engine_instrument_note_on(engine, f, id, id % 3, 98.0 * (1 + id % 7), 0.5f) == BOOP_OK);
            REQUIRE(boop_engine_kit_hit(engine, f + 5, static_cast<boop_kit>(1 + id % 2), 35 + id % 23, 0.8f) ==
                    BOOP_OK);
            REQUIRE(boop_engine_note_off(engine, f + 1800, id) == BOOP_OK);
        }
        return engine.render(48000, 512);
    };
    const auto wide = renderWith(false), base = renderWith(true);
    REQUIRE(wide.size() == base.size());
    // Fused against separate multiply-adds: float rounding apart, -100 dB of the full scale.
    float worst = 0.0f;
    for (size_t i = 0; i < wide.size(); ++i) worst = std::max(worst, std::fabs(wide[i] - base[i]));
    MESSAGE("largest difference " << worst);
    CHECK(worst < 1e-5f);
}
