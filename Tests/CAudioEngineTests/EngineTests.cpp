#include <doctest/doctest.h>
#include <cstring>
#include <ctime>
#include <string>
#include "TestSignals.hpp"

using namespace testsig;

TEST_CASE("events land on their exact frame for block sizes 1, 64, 256 and 1000") {
    const uint64_t onFrame = 12345, offFrame = 30001;
    std::vector<float> reference;
    for (uint32_t block : {1u, 64u, 256u, 1000u}) {
        EngineHandle engine(44100.0, 8, 1, 1024);
        boop_engine_note_on(engine, onFrame, 1, BOOP_TIMBRE_TONE, 1000.0, 1.0f);
        boop_engine_note_off(engine, offFrame, 1);
        auto x = engine.render(40000, block);
        // The envelope's first sample is 0, so the first non-zero sample is onFrame + 1.
        CHECK(firstAbove(x, 0.0f) == long(onFrame + 1));
        if (reference.empty())
            reference = x;
        else
            CHECK(std::memcmp(reference.data(), x.data(), x.size() * sizeof(float)) == 0);
    }
}

TEST_CASE("events in the past apply at the start of the next block; the clock counts frames") {
    EngineHandle engine;
    engine.render(1000, 500);
    CHECK(boop_engine_frame_clock(engine) == 1000);
    boop_engine_note_on(engine, 10, 1, BOOP_TIMBRE_TONE, 500.0, 1.0f);
    auto x = engine.render(100, 100);
    CHECK(firstAbove(x, 0.0f) == 1);
}

TEST_CASE("BOOP_FRAME_NOW sounds in the next block, ahead of events queued for later") {
    EngineHandle engine;
    engine.render(1000, 500);
    // A player has queued a step 40 ms ahead; an audition must not wait for it.
    REQUIRE(boop_engine_note_on(engine, 1000 + 1764, 1, BOOP_TIMBRE_MELODY, 440.0, 0.6f) == BOOP_OK);
    REQUIRE(boop_engine_note_on(engine, BOOP_FRAME_NOW, 2, BOOP_TIMBRE_TONE, 880.0, 1.0f) == BOOP_OK);
    auto x = engine.render(256, 256);
    CHECK(firstAbove(x, 0.0f) == 1);
    // Its note-off, also immediate, ends it; the scheduled note still starts on its frame.
    REQUIRE(boop_engine_note_off(engine, BOOP_FRAME_NOW, 2) == BOOP_OK);
    engine.render(4096, 256);
    auto y = engine.render(2000, 2000);  // frames 5352...7351: the 880 Hz note has released
    CHECK(boop_engine_frame_clock(engine) == 7352);
    CHECK(boop_engine_active_voices(engine) == 1);  // only the scheduled 440 Hz note sounds
}

// boop edit -v: the time the engine finished the block that took it past a marked frame, noted by
// the render itself (so the measurement waits on nothing); 0 before, and again for a new mark.
TEST_CASE("a marked frame gets the time of the render that passes it") {
    EngineHandle engine;
    engine.render(512, 512);
    CHECK(boop_engine_mark(engine, 512) == 0);
    timespec before{};
    clock_gettime(CLOCK_MONOTONIC, &before);
    engine.render(256, 256);
    const uint64_t t = boop_engine_mark(engine, 512);
    CHECK(t >= uint64_t(before.tv_sec) * 1000000000u + uint64_t(before.tv_nsec));
    engine.render(256, 256);
    CHECK(boop_engine_mark(engine, 512) == t);   // noted once
    CHECK(boop_engine_mark(engine, 2000) == 0);  // a new mark, not yet passed
}

TEST_CASE("velocity gains: normal 0.6, accent 1.0, sustain 0.8, master 0.3") {
    auto amplitude = [](float gain) {
        EngineHandle e;
        boop_engine_note_on(e, 0, 1, BOOP_TIMBRE_MELODY, 440.0, gain);
        auto x = e.render(22050);
        return peakAmplitude(x, 4410, x.size());
    };
    const double accent = amplitude(1.0f);
    CHECK(accent == doctest::Approx(0.3).epsilon(0.01));
    CHECK(amplitude(0.6f) / accent == doctest::Approx(0.6).epsilon(0.002));
    CHECK(amplitude(0.8f) / accent == doctest::Approx(0.8).epsilon(0.002));
}

TEST_CASE("soft clipper: 64 accented voices never reach 1.0") {
    EngineHandle engine(44100.0, 64);
    for (uint32_t i = 0; i < 64; ++i) boop_engine_note_on(engine, 0, i, BOOP_TIMBRE_MELODY, 110.0 * (1 + i % 8), 4.0f);
    auto x = engine.render(44100);
    const double peak = peakAmplitude(x, 0, x.size());
    MESSAGE("peak with 64 voices at gain 4: " << peak);
    CHECK(peak < 1.0);
    CHECK(peak > 0.9);
}

TEST_CASE("denormal-free tail: voices retire to exact silence, no subnormal output") {
    EngineHandle engine;
    boop_engine_note_on(engine, 0, 1, BOOP_TIMBRE_MELODY, 440.0, 1.0f);
    boop_engine_note_on(engine, 0, 2, BOOP_TIMBRE_BASS, 55.0, 1.0f);
    boop_engine_note_on(engine, 0, 3, BOOP_TIMBRE_CHORDS, 330.0, 1.0f);
    boop_engine_drum_hit(engine, 0, 36, 1.0f);
    boop_engine_note_off(engine, 4410, 1);
    boop_engine_note_off(engine, 4410, 2);
    boop_engine_note_off(engine, 4410, 3);
    auto x = engine.render(44100 * 3);
    CHECK(boop_engine_active_voices(engine) == 0);
    for (float v : x) REQUIRE(std::fpclassify(v) != FP_SUBNORMAL);
    CHECK(peakAmplitude(x, 44100 * 27 / 10, x.size()) == 0.0);  // the kick rings longest (~2.6 s to -80 dB)
}

TEST_CASE("all notes off fades within the requested time; stereo output is centred") {
    EngineHandle engine(48000.0, 8, 2);
    boop_engine_note_on(engine, 0, 1, BOOP_TIMBRE_MELODY, 440.0, 1.0f);
    boop_engine_all_notes_off(engine, 4800, 0.01);
    auto x = engine.render(9600);
    for (size_t i = 0; i < x.size(); i += 2) REQUIRE(x[i] == x[i + 1]);
    double tail = 0;
    for (size_t i = 2 * (4800 + 480 + 48); i < x.size(); ++i)  // 1 ms for the lowpass to ring down
        tail = std::max(tail, double(std::fabs(x[i])));
    CHECK(tail < 1e-4);
    CHECK(boop_engine_active_voices(engine) == 0);
}

TEST_CASE("the C API refuses bad arguments without crashing") {
    EngineHandle engine;
    CHECK(boop_engine_note_on(engine, 0, 1, BOOP_TIMBRE_MELODY, -5.0, 0.6f) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(boop_engine_note_on(engine, 0, 1, BOOP_TIMBRE_MELODY, 30000.0, 0.6f) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(boop_engine_note_on(engine, 0, 1, BOOP_TIMBRE_MELODY, NAN, 0.6f) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(boop_engine_note_on(engine, 0, 1, (boop_timbre)9, 440.0, 0.6f) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(boop_engine_note_on(nullptr, 0, 1, BOOP_TIMBRE_MELODY, 440.0, 0.6f) == BOOP_ERROR_INVALID_ARGUMENT);
    std::vector<float> big(8192);
    CHECK(boop_engine_render(engine, big.data(), 8192) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(boop_engine_render(engine, nullptr, 10) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(std::string(boop_status_string(BOOP_ERROR_QUEUE_FULL)) == "event queue full");
}

TEST_CASE("a full queue drops and counts instead of blocking") {
    EngineHandle engine(44100.0, 8, 1, 512, 16);
    int refused = 0;
    for (int i = 0; i < 40; ++i)
        if (boop_engine_note_off(engine, 0, 1) == BOOP_ERROR_QUEUE_FULL) ++refused;
    CHECK(refused == 24);
    CHECK(boop_engine_dropped_events(engine) == 24);
}

TEST_CASE("cancel pending: queued future events are discarded, sounding voices fade, later events play") {
    EngineHandle engine(44100.0);
    boop_engine_note_on(engine, 0, 1, BOOP_TIMBRE_MELODY, 440.0, 1.0f);
    boop_engine_note_on(engine, 20000, 2, BOOP_TIMBRE_MELODY, 660.0, 1.0f);  // scheduled ahead
    engine.render(10000);
    REQUIRE(boop_engine_cancel_pending(engine, 0.01) == BOOP_OK);
    boop_engine_note_on(engine, 30000, 3, BOOP_TIMBRE_TONE, 550.0, 1.0f);  // queued after: kept
    auto x = engine.render(30000);
    CHECK(peakAmplitude(x, 441 + 100, 20000) < 1e-6);             // faded within 10 ms, note 2 never came
    CHECK(firstAbove(x, 0.0f, 2000) == long(30000 - 10000 + 1));  // note 3 on its frame
    CHECK(boop_engine_cancel_pending(engine, 0.0) == BOOP_ERROR_INVALID_ARGUMENT);
}

TEST_CASE("voices give the same bits whatever the block size: few and many at once, releases, a fade") {
    // Chords of up to six voices rendered across lanes, single notes along time, lanes retiring
    // after their release on whatever block boundary follows: every path must agree bit for bit.
    std::vector<float> reference;
    for (uint32_t block : {1u, 7u, 64u, 333u, 1000u, 4096u}) {
        EngineHandle engine(44100.0, 16, 1, 4096);
        uint32_t id = 1;
        for (int bar = 0; bar < 6; ++bar) {
            const uint64_t at = 3 + 14111 * static_cast<uint64_t>(bar);
            const int voices = bar % 2 == 0 ? 6 : 2;
            for (int v = 0; v < voices; ++v) {
                boop_engine_note_on(engine, at + 5 * v, id, BOOP_TIMBRE_CHORDS, 220.0 * (1 + 0.25 * v), 0.5f);
                boop_engine_note_off(engine, at + 9000 + 7 * v, id++);
            }
            boop_engine_note_on(engine, at + 1001, id, BOOP_TIMBRE_MELODY, 660.0, 0.8f);
            boop_engine_note_off(engine, at + 6001, id++);
            boop_engine_note_on(engine, at + 2002, id, BOOP_TIMBRE_BASS, 55.0, 0.8f);
            boop_engine_note_off(engine, at + 12003, id++);
        }
        boop_engine_note_on(engine, 80001, id, BOOP_TIMBRE_CHORDS, 330.0, 0.5f);
        boop_engine_all_notes_off(engine, 85003, 0.02);
        const auto x = engine.render(100000, block);
        INFO("block " << block);
        CHECK(rms(x, 0, x.size()) > 0.01);
        if (reference.empty()) {
            reference = x;
        } else {
            size_t first = 0;
            while (first < x.size() && reference[first] == x[first]) ++first;
            INFO("first difference at frame " << first);
            CHECK(first == x.size());
        }
    }
}
