#include <doctest/doctest.h>
#include <cstdlib>
#include <string>
#include "TestSignals.hpp"
#include "reference/Voice.hpp"

using namespace testsig;

// The engine renders through the vectorised VoiceBank; the scalar Voice (the original design written
// plainly) is the reference. They differ only by float-vs-double arithmetic: the 32-bit phase
// grid (< 1e-5 Hz), the polynomial sine (< 1e-7) and float envelope accumulation, so they agree
// to 2e-5 of full scale (-94 dB) over seconds of sound, through attack, sustain and release.
TEST_CASE("vector path agrees with the scalar reference voice sample for sample") {
    const double rate = 48000.0;
    // Both kernels: the x86-64 baseline one (forced by BOOP_NO_AVX2) and, on CPUs that have it,
    // the AVX2+FMA one chosen at run time.
    for (const bool baseline : {true, false}) {
        if (baseline)
            setenv("BOOP_NO_AVX2", "1", 1);
        else
            unsetenv("BOOP_NO_AVX2");
        for (double hz : {27.5, 261.6255653, 440.0, 1760.0, 4186.009}) {
            boop::reference::Voice voice;
            voice.prepare(rate);
            voice.noteOn(hz, 1.0f);
            std::vector<float> ref;
            for (int i = 0; i < 48000; ++i) {
                if (i == 30000) voice.noteOff();
                ref.push_back(voice.process() * 0.3f);  // engine master gain; below the clipper knee
            }
            EngineHandle engine(rate);
            boop_engine_note_on(engine, 0, 1, BOOP_TIMBRE_MELODY, hz, 1.0f);
            boop_engine_note_off(engine, 30000, 1);
            auto x = engine.render(48000, 333);
            float worst = 0;
            for (size_t i = 0; i < x.size(); ++i) worst = std::max(worst, std::fabs(x[i] - ref[i]));
            INFO("hz " << hz << (baseline ? " baseline" : " runtime-selected") << " kernel, worst difference "
                       << worst);
            CHECK(worst < 2e-5f);
        }
    }
    unsetenv("BOOP_NO_AVX2");
}

// A chunk with up to VoiceBank::kMaxTimeMajorLanes sounding lanes renders each lane along time
// (eight frames per vector); a busier chunk renders eight lanes per vector. Both must give the
// scalar reference, whichever the number of voices: 1 ... 6 voices sounding together.
TEST_CASE("along time or across lanes: any number of voices agrees with the scalar reference") {
    const double rate = 44100.0;
    const double notes[] = {261.6255653, 329.6275569, 391.995436, 523.2511306, 97.998859, 1318.510228};
    for (const bool baseline : {true, false}) {
        if (baseline)
            setenv("BOOP_NO_AVX2", "1", 1);
        else
            unsetenv("BOOP_NO_AVX2");
        for (int count = 1; count <= 6; ++count) {
            std::vector<boop::reference::Voice> voices(static_cast<size_t>(count));
            EngineHandle engine(rate, 16);
            for (int v = 0; v < count; ++v) {
                voices[v].prepare(rate);
                voices[v].noteOn(notes[v], 0.3f);
                boop_engine_note_on(engine, 0, static_cast<uint32_t>(v + 1), BOOP_TIMBRE_MELODY, notes[v], 0.3f);
            }
            for (int v = 0; v < count; ++v)  // the queue takes events in time order
                boop_engine_note_off(engine, 20000 + 1000 * static_cast<uint64_t>(v), static_cast<uint32_t>(v + 1));
            std::vector<float> ref;
            for (int i = 0; i < 30000; ++i) {
                float sum = 0.0f;
                for (int v = 0; v < count; ++v) {
                    if (i == 20000 + 1000 * v) voices[v].noteOff();
                    sum += voices[v].process();
                }
                ref.push_back(sum * 0.3f);
            }
            auto x = engine.render(30000, 256);
            float worst = 0;
            for (size_t i = 0; i < x.size(); ++i) worst = std::max(worst, std::fabs(x[i] - ref[i]));
            INFO(count << " voices, " << std::string(baseline ? "baseline" : "run-time selected") << " kernels, worst "
                       << worst);
            CHECK(worst < 2e-5f * static_cast<float>(count));
        }
    }
    unsetenv("BOOP_NO_AVX2");
}

TEST_CASE("every timbre renders finite, bounded sound and falls silent after release") {
    for (int t = 0; t < BOOP_TIMBRE_COUNT; ++t) {
        EngineHandle engine;
        boop_engine_note_on(engine, 0, 1, (boop_timbre)t, 110.0, 1.0f);
        boop_engine_note_off(engine, 22050, 1);
        auto x = engine.render(44100);
        for (float v : x) REQUIRE(std::isfinite(v));
        CHECK(peakAmplitude(x, 0, 22050) > 0.05);
        CHECK(peakAmplitude(x, 22050 + 20000, x.size()) == 0.0);
    }
}

TEST_CASE("tone timbre: raised-cosine edges leave no click energy above 3 kHz") {
    EngineHandle engine(44100.0);
    boop_engine_note_on(engine, 1000, 1, BOOP_TIMBRE_TONE, 440.0, 1.0f);
    boop_engine_note_off(engine, 23050, 1);
    auto x = engine.render(30000);
    auto hp = highpass(x, 44100.0, 3000.0);
    CHECK(rms(hp, 900, 1600) < 1e-4);     // onset
    CHECK(rms(hp, 22900, 23600) < 1e-4);  // ending
}
