#include <doctest/doctest.h>
#include <cmath>
#include <cstring>
#include <vector>
#include "TestSignals.hpp"

// The engine's output stage through the C API (boop_output_*): offline renders come out aligned
// and bit for bit equal to the raw render under the ceiling, --gain scales exactly, loud input is
// held under the ceiling, and every argument out of the header's limits is refused.

using namespace testsig;

namespace {

// A C major chord, then a release: the same events for every engine a test compares.
void queueChord(boop_engine* e, float gain = 0.6f) {
    const double chord[3] = {261.6255653005986, 329.6275569128699, 391.99543598174927};
    for (uint32_t i = 0; i < 3; ++i) boop_engine_note_on(e, 100, i + 1, BOOP_TIMBRE_MELODY, chord[i], gain);
    for (uint32_t i = 0; i < 3; ++i) boop_engine_note_off(e, 30000, i + 1);
}

// Renders `frames` of the engine through `output` in blocks of `block`, then finishes.
std::vector<float> renderThrough(boop_engine* e, boop_output* output, size_t frames, uint32_t block) {
    const uint32_t ch = boop_engine_channels(e);
    std::vector<float> out, buf(size_t(std::max(block, boop_output_latency_frames(output))) * ch);
    for (size_t done = 0; done < frames;) {
        const uint32_t n = static_cast<uint32_t>(std::min<size_t>(block, frames - done));
        uint32_t aligned = 0;
        REQUIRE(boop_output_render(output, boop_engine_source(e), buf.data(), n, &aligned) == BOOP_OK);
        out.insert(out.end(), buf.begin(), buf.begin() + long(aligned) * ch);
        done += n;
    }
    uint32_t tail = 0;
    REQUIRE(boop_output_finish(output, buf.data(), uint32_t(buf.size() / ch), &tail) == BOOP_OK);
    out.insert(out.end(), buf.begin(), buf.begin() + long(tail) * ch);
    return out;
}

struct Output {
    boop_output* o = nullptr;
    Output(double gainDb, double rate = 44100, uint32_t channels = 1, double ceiling = BOOP_CEILING_DBTP) {
        boop_output_config c;
        boop_output_config_default(&c);
        c.gain_db = gainDb;
        c.ceiling_dbtp = ceiling;
        REQUIRE(boop_output_create(&c, rate, channels, &o) == BOOP_OK);
    }
    ~Output() { boop_output_destroy(o); }
    operator boop_output*() const { return o; }
};

double truePeakDb(const std::vector<float>& x, double rate, uint32_t channels) {
    boop_loudness* m = nullptr;
    REQUIRE(boop_loudness_create(rate, channels, &m) == BOOP_OK);
    boop_loudness_add(m, x.data(), x.size() / channels);
    const double peak = boop_loudness_true_peak(m);
    boop_loudness_destroy(m);
    return peak;
}

}  // namespace

TEST_CASE("under the ceiling an offline render is the raw render, bit for bit and as long, for any block size") {
    EngineHandle raw(44100.0, 8, 2, 4096);
    queueChord(raw);
    const auto reference = raw.render(40000, 4096);
    for (uint32_t block : {1u, 50u, 64u, 4096u}) {
        EngineHandle engine(44100.0, 8, 2, 4096);
        queueChord(engine);
        Output output(0.0, 44100, 2);
        const auto x = renderThrough(engine, output, 40000, block);
        REQUIRE(x.size() == reference.size());
        CHECK(std::memcmp(x.data(), reference.data(), x.size() * sizeof(float)) == 0);
    }
}

TEST_CASE("gain -6 dB multiplies every sample by exactly the gain's float") {
    EngineHandle raw;
    queueChord(raw);
    const auto reference = raw.render(20000, 4096);
    EngineHandle engine;
    queueChord(engine);
    Output output(-6.0);
    const auto x = renderThrough(engine, output, 20000, 4096);
    REQUIRE(x.size() == reference.size());
    const float g = static_cast<float>(std::pow(10.0, -6.0 / 20.0));
    size_t exact = 0;
    for (size_t i = 0; i < x.size(); ++i) exact += x[i] == reference[i] * g;
    CHECK(exact == x.size());
    CHECK(boop_output_take_reduction_db(output) == 0.0f);
}

TEST_CASE("loud input is held at or under the ceiling, the default and a configured one") {
    for (double ceiling : {BOOP_CEILING_DBTP, -6.0}) {
        EngineHandle engine(44100.0, 16, 1, 4096);
        queueChord(engine, 4.0f);  // the soft clipper's full shoulder
        Output output(BOOP_GAIN_DB_MAX, 44100, 1, ceiling);
        const auto x = renderThrough(engine, output, 30000, 512);
        CHECK(x.size() == 30000);
        CHECK(truePeakDb(x, 44100, 1) <= ceiling + 1e-3);
        CHECK(boop_output_take_reduction_db(output) < -6.0f);
    }
}

TEST_CASE("an input shorter than the look-ahead still comes out whole, and finish delivers once") {
    Output output(0.0);
    const uint32_t latency = boop_output_latency_frames(output);
    REQUIRE(latency > 10);
    std::vector<float> buf(latency, 0.25f);
    uint32_t aligned = 99;
    REQUIRE(boop_output_process(output, buf.data(), 10, &aligned) == BOOP_OK);
    CHECK(aligned == 0);
    REQUIRE(boop_output_finish(output, buf.data(), latency, &aligned) == BOOP_OK);
    REQUIRE(aligned == 10);
    for (uint32_t i = 0; i < 10; ++i) CHECK(buf[i] == 0.25f);
    REQUIRE(boop_output_finish(output, buf.data(), latency, &aligned) == BOOP_OK);
    CHECK(aligned == 0);
}

TEST_CASE("the output stage refuses what lies outside the header's limits") {
    boop_output* o = nullptr;
    boop_output_config c;
    boop_output_config_default(&c);
    CHECK(c.gain_db == 0.0);
    CHECK(c.ceiling_dbtp == BOOP_CEILING_DBTP);
    CHECK(boop_output_config_check(&c) == BOOP_OK);
    CHECK(boop_output_config_check(nullptr) == BOOP_ERROR_INVALID_ARGUMENT);
    for (double gain : {BOOP_GAIN_DB_MIN - 0.01, BOOP_GAIN_DB_MAX + 0.01, double(NAN), double(INFINITY)}) {
        c.gain_db = gain;
        CHECK(boop_output_config_check(&c) == BOOP_ERROR_INVALID_ARGUMENT);
        CHECK(boop_output_create(&c, 44100, 1, &o) == BOOP_ERROR_INVALID_ARGUMENT);
        CHECK(o == nullptr);
    }
    c.gain_db = 0;
    for (double ceiling : {BOOP_CEILING_DBTP_MIN - 0.01, BOOP_CEILING_DBTP_MAX + 0.01, double(NAN)}) {
        c.ceiling_dbtp = ceiling;
        CHECK(boop_output_create(&c, 44100, 1, &o) == BOOP_ERROR_INVALID_ARGUMENT);
    }
    CHECK(boop_output_create(nullptr, BOOP_ENGINE_RATE_MIN - 1, 1, &o) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(boop_output_create(nullptr, BOOP_ENGINE_RATE_MAX + 1, 1, &o) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(boop_output_create(nullptr, 44100, 0, &o) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(boop_output_create(nullptr, 44100, BOOP_CHANNELS_MAX + 1, &o) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(boop_output_create(nullptr, 44100, 1, nullptr) == BOOP_ERROR_INVALID_ARGUMENT);

    Output output(BOOP_GAIN_DB_MIN, BOOP_ENGINE_RATE_MIN, BOOP_CHANNELS_MAX, BOOP_CEILING_DBTP_MIN);
    CHECK(boop_output_set_gain_db(output, BOOP_GAIN_DB_MAX) == BOOP_OK);
    CHECK(boop_output_set_gain_db(output, BOOP_GAIN_DB_MAX + 0.01) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(boop_output_set_gain_db(output, NAN) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(boop_output_set_gain_db(nullptr, 0) == BOOP_ERROR_INVALID_ARGUMENT);
    uint32_t n = 0;
    std::vector<float> buf(8192 * 2);
    CHECK(boop_output_process(output, nullptr, 4, &n) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(boop_output_process(output, buf.data(), 4, nullptr) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(boop_output_finish(output, buf.data(), boop_output_latency_frames(output) - 1, &n) ==
          BOOP_ERROR_INVALID_ARGUMENT);
    // A source of another rate, other channels, or asked for more than its block.
    EngineHandle mono(44100.0);
    CHECK(boop_output_render(output, boop_engine_source(mono), buf.data(), 64, &n) == BOOP_ERROR_INVALID_ARGUMENT);
    EngineHandle other(BOOP_ENGINE_RATE_MIN, 8, 2, 256);
    CHECK(boop_output_render(output, boop_engine_source(other), buf.data(), 257, &n) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(boop_output_render(output, boop_engine_source(other), buf.data(), 256, &n) == BOOP_OK);
    CHECK(boop_output_latency_frames(nullptr) == 0);
    CHECK(boop_output_take_reduction_db(nullptr) == 0.0f);
    boop_output_destroy(nullptr);
}

TEST_CASE("the engine refuses configs one past each limit and takes each limit itself") {
    auto create = [](auto change) {
        boop_engine_config c;
        boop_engine_config_default(&c);
        change(c);
        boop_engine* e = nullptr;
        const boop_status s = boop_engine_create(&c, &e);
        boop_engine_destroy(e);
        return s;
    };
    CHECK(create([](boop_engine_config& c) { c.sample_rate = BOOP_ENGINE_RATE_MIN - 1; }) ==
          BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(create([](boop_engine_config& c) { c.sample_rate = BOOP_ENGINE_RATE_MAX + 1; }) ==
          BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(create([](boop_engine_config& c) { c.sample_rate = BOOP_ENGINE_RATE_MIN; }) == BOOP_OK);
    CHECK(create([](boop_engine_config& c) { c.sample_rate = BOOP_ENGINE_RATE_MAX; }) == BOOP_OK);
    CHECK(create([](boop_engine_config& c) { c.voices = BOOP_ENGINE_VOICES_MIN - 1; }) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(create([](boop_engine_config& c) { c.voices = BOOP_ENGINE_VOICES_MAX + 1; }) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(create([](boop_engine_config& c) { c.voices = BOOP_ENGINE_VOICES_MAX; }) == BOOP_OK);
    CHECK(create([](boop_engine_config& c) { c.max_block_frames = BOOP_ENGINE_BLOCK_FRAMES_MAX + 1; }) ==
          BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(create([](boop_engine_config& c) { c.queue_capacity = BOOP_ENGINE_QUEUE_MIN - 1; }) ==
          BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(create([](boop_engine_config& c) { c.queue_capacity = BOOP_ENGINE_QUEUE_MAX + 1; }) ==
          BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(create([](boop_engine_config& c) { c.channels = BOOP_CHANNELS_MAX + 1; }) == BOOP_ERROR_INVALID_ARGUMENT);
    boop_engine_config c;
    boop_engine_config_default(&c);
    CHECK(c.voices == BOOP_ENGINE_VOICES_DEFAULT);

    EngineHandle e;
    const float loudest = static_cast<float>(BOOP_EVENT_GAIN_MAX);
    CHECK(boop_engine_note_on(e, 0, 1, BOOP_TIMBRE_TONE, 440, loudest) == BOOP_OK);
    CHECK(boop_engine_note_on(e, 0, 2, BOOP_TIMBRE_TONE, 440, std::nextafter(loudest, 5.0f)) ==
          BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(boop_engine_drum_hit(e, 0, 36, std::nextafter(loudest, 5.0f)) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(boop_engine_all_notes_off(e, 0, BOOP_FADE_SECONDS_MIN) == BOOP_OK);
    CHECK(boop_engine_all_notes_off(e, 0, BOOP_FADE_SECONDS_MIN * 0.99) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(boop_engine_cancel_pending(e, BOOP_FADE_SECONDS_MAX) == BOOP_OK);
    CHECK(boop_engine_cancel_pending(e, BOOP_FADE_SECONDS_MAX * 1.01) == BOOP_ERROR_INVALID_ARGUMENT);
}

TEST_CASE(
    "playback, capture and pitch detection refuse values one past the header's limits before any device is opened") {
    auto open = [](auto change, double rate = 44100, uint32_t channels = 2) {
        boop_playback_config c;
        boop_playback_config_default(&c);
        c.device = "a-device-that-is-never-opened";
        change(c);
        boop_playback* p = nullptr;
        const boop_status s = boop_playback_open(&c, rate, channels, &p);
        boop_playback_destroy(p);
        return s;
    };
    const auto invalid = BOOP_ERROR_INVALID_ARGUMENT;
    CHECK(open([](boop_playback_config& c) { c.period_frames = BOOP_PERIOD_FRAMES_MIN - 1; }) == invalid);
    CHECK(open([](boop_playback_config& c) { c.period_frames = BOOP_PERIOD_FRAMES_MAX + 1; }) == invalid);
    CHECK(open([](boop_playback_config& c) { c.periods = BOOP_PERIODS_MIN - 1; }) == invalid);
    CHECK(open([](boop_playback_config& c) { c.periods = BOOP_PERIODS_MAX + 1; }) == invalid);
    CHECK(open([](boop_playback_config& c) { c.output.gain_db = BOOP_GAIN_DB_MAX + 1; }) == invalid);
    CHECK(open([](boop_playback_config& c) { c.output.ceiling_dbtp = BOOP_CEILING_DBTP_MAX + 1; }) == invalid);
    CHECK(open([](boop_playback_config&) {}, BOOP_ENGINE_RATE_MAX + 1) == invalid);
    CHECK(open([](boop_playback_config&) {}, 44100, BOOP_DEVICE_CHANNELS_MAX + 1) == invalid);

    boop_capture_config cc;
    boop_capture_config_default(&cc);
    cc.device = "a-device-that-is-never-opened";
    boop_capture* cap = nullptr;
    cc.periods = BOOP_PERIODS_MAX + 1;
    CHECK(boop_capture_open(&cc, &cap) == invalid);
    cc.periods = 4;
    cc.period_frames = BOOP_PERIOD_FRAMES_MAX + 1;
    CHECK(boop_capture_open(&cc, &cap) == invalid);
    boop_capture_destroy(cap);

    boop_pitch_detector* d = nullptr;
    CHECK(boop_pitch_detector_create(44100, BOOP_PITCH_WINDOW_MAX + 1, 0, 0, &d) == invalid);
    CHECK(boop_pitch_detector_create(BOOP_PITCH_RATE_MIN - 1, 2048, 0, 0, &d) == invalid);
    REQUIRE(boop_pitch_detector_create(BOOP_PITCH_RATE_MIN, BOOP_PITCH_WINDOW_MIN, 0, 0, &d) == BOOP_OK);
    boop_pitch_detector_destroy(d);

    CHECK(boop_playback_set_gain_db(nullptr, 0) == invalid);
    CHECK(boop_playback_take_reduction_db(nullptr) == 0.0f);
}

#if defined(BOOP_RTSAN)
TEST_CASE("RealtimeSanitizer: an offline render through the output stage, limiting hard, is clean") {
    EngineHandle engine(48000.0, 16, 2, 512);
    queueChord(engine, 4.0f);
    Output output(BOOP_GAIN_DB_MAX, 48000, 2);
    const auto x = renderThrough(engine, output, 24000, 128);
    CHECK(x.size() == 24000 * 2);
}
#endif
