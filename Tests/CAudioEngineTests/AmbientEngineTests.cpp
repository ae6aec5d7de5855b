#include <doctest/doctest.h>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>
#include "AmbientTestSupport.hpp"

using namespace ambtest;

TEST_CASE("ambient output is finite, non-silent and never above 1.0 at every rate") {
    for (double rate : {8000.0, 44100.0, 48000.0, 96000.0}) {
        boop_ambient_config c = config(3, rate);
        Ambient a(c);
        REQUIRE(a.a != nullptr);
        auto x = renderAmbient(a, static_cast<size_t>(rate * 20), {512});
        CHECK(nonFinite(x) == 0);
        CHECK(peak(x) <= 1.0);
        CHECK(rms(x, x.size() / 2, x.size()) > 0.01);
    }
}

TEST_CASE("ambient: the same seed gives identical samples whatever the block sizes; another seed differs") {
    boop_ambient_config c = config(7);
    const size_t frames = 44100 * 25;  // several chord changes and many lead steps
    Ambient a(c), b(c), d(c);
    auto x = renderAmbient(a, frames, {4096});
    auto y = renderAmbient(b, frames, {1, 7, 64, 333, 2048, 13});
    auto z = renderAmbient(d, frames, {100000});
    CHECK(sameBytes(x, y));
    CHECK(sameBytes(x, z));
    boop_ambient_config c8 = config(8);
    Ambient e(c8);
    auto w = renderAmbient(e, frames, {4096});
    CHECK_FALSE(sameBytes(x, w));
    size_t differing = 0;
    for (size_t i = 0; i < x.size(); ++i) differing += x[i] != w[i] ? 1 : 0;
    CHECK(differing > x.size() / 2);
}

TEST_CASE("ambient stays bounded and finite at extreme presets") {
    boop_ambient_config hi = config(11, 44100.0);
    hi.master_gain = 2.0f;
    hi.pad_level = hi.lead_level = hi.grain_level = hi.ocean_level = 1.0f;
    hi.pad_octave = 6;
    hi.pad_detune_cents = 50.0f;
    hi.pad_attack_seconds = 0.01f;
    hi.pad_release_seconds = 30.0f;
    hi.filter_min_hz = 18000.0f;
    hi.filter_max_hz = 18000.0f;
    hi.filter_resonance = 1.0f;
    hi.lead_octave = 7;
    hi.lead_pulses = hi.lead_steps = 64;
    hi.lead_probability = 1.0f;
    hi.tempo_bpm = 240.0;
    hi.fm_ratio = 16.0f;
    hi.fm_index = 12.0f;
    hi.grain_seconds = 0.5f;
    hi.grain_density = 80.0f;
    hi.grain_pitch_spread = 1.0f;
    hi.delay_seconds = 0.01f;
    hi.delay_feedback = 0.95f;
    hi.delay_mix = 1.0f;
    hi.reverb_size = 1.0f;
    hi.reverb_decay_seconds = 60.0f;
    hi.reverb_mix = 1.0f;
    hi.reverb_damping = 0.0f;
    hi.drift_amount = 1.0f;
    hi.chord_seconds = 1.0;
    hi.modulation_chance = 1.0f;
    hi.seventh_chance = 1.0f;
    boop_ambient_config lo = config(12, 8000.0);
    lo.master_gain = 0.0f;
    lo.tempo_bpm = 20.0;
    lo.chord_seconds = 120.0;
    lo.lead_pulses = 0;
    lo.lead_steps = 1;
    lo.filter_min_hz = 40.0f;
    lo.filter_max_hz = 40.0f;
    lo.reverb_decay_seconds = 0.1f;
    lo.reverb_size = 0.0f;
    lo.grain_density = 0.2f;
    lo.grain_seconds = 0.01f;
    lo.fade_in_seconds = 0.0f;
    for (const auto& c : {hi, lo}) {
        const char* field = nullptr;
        const boop_status st = boop_ambient_config_check(&c, &field);
        INFO("field: " << std::string(field ? field : "-"));
        REQUIRE(st == BOOP_OK);
        Ambient a(c);
        auto x = renderAmbient(a, static_cast<size_t>(c.sample_rate * 30), {256});
        CHECK(nonFinite(x) == 0);
        CHECK(peak(x) <= 1.0);
        boop_ambient_status s;
        boop_ambient_get_status(a, &s);
        CHECK(s.nonfinite_resets == 0);
    }
}

TEST_CASE("ambient fade-out reaches silence within the fade and stays silent") {
    boop_ambient_config c = config(5, 48000.0);
    Ambient a(c);
    renderAmbient(a, 48000 * 5, {480});
    REQUIRE(boop_ambient_fade_out(a, 0.02) == BOOP_OK);
    auto x = renderAmbient(a, 48000, {480});
    const size_t fade = 960;  // 20 ms
    CHECK(rms(x, 0, 2 * 100) > 0.0);
    CHECK(rms(x, 2 * fade, x.size()) == 0.0);
    // Linear ramp: no step bigger than the music's own.
    CHECK(maxDiff(x.data(), 2 * fade, 2) < 0.2);
    boop_ambient_status s;
    boop_ambient_get_status(a, &s);
    CHECK(s.finished == 1);
    CHECK(boop_ambient_fade_out(a, -1.0) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(boop_ambient_fade_out(a, std::nan("")) == BOOP_ERROR_INVALID_ARGUMENT);
}

TEST_CASE("ambient pause freezes the composition clock, resume continues") {
    boop_ambient_config c = config(6, 44100.0);
    Ambient a(c);
    renderAmbient(a, 44100 * 3, {441});
    REQUIRE(boop_ambient_set_paused(a, 1, 0.01) == BOOP_OK);
    renderAmbient(a, 4410, {441});
    boop_ambient_status s;
    boop_ambient_get_status(a, &s);
    CHECK(s.paused == 1);
    const uint64_t frozen = s.frame;
    auto silent = renderAmbient(a, 44100, {441});
    CHECK(rms(silent) == 0.0);
    boop_ambient_get_status(a, &s);
    CHECK(s.frame == frozen);
    REQUIRE(boop_ambient_set_paused(a, 0, 0.01) == BOOP_OK);
    auto back = renderAmbient(a, 44100, {441});
    CHECK(rms(back, 2 * 4410, back.size()) > 0.01);
    boop_ambient_get_status(a, &s);
    CHECK(s.paused == 0);
    CHECK(s.frame == frozen + 44100);
}

TEST_CASE("ambient status reports key, chord and levels for the terminal view") {
    boop_ambient_config c = config(9, 44100.0);
    c.chord_seconds = 2.0;
    Ambient a(c);
    renderAmbient(a, 44100 * 10, {1024});
    boop_ambient_status s;
    boop_ambient_get_status(a, &s);
    CHECK(s.frame == 441000u);
    CHECK(s.chords >= 3);
    CHECK(s.key >= 0);
    CHECK(s.key < 12);
    CHECK(std::strlen(s.chord_name) >= 1);
    CHECK(s.level_pad > 0.0f);
    CHECK(s.peak_left > 0.0f);
    CHECK(s.peak_left <= 1.0f);
    CHECK(s.scale == c.scale);
}

TEST_CASE("ambient as a boop_source renders the same samples") {
    boop_ambient_config c = config(4, 48000.0);
    c.max_block_frames = 256;
    Ambient a(c), b(c);
    boop_source src = boop_ambient_source(a);
    CHECK(src.channels == 2);
    CHECK(src.sample_rate == 48000.0);
    CHECK(src.max_block_frames == 256);
    const bool hasRender = src.render != nullptr;
    REQUIRE(hasRender);
    std::vector<float> x(48000 * 2);
    for (size_t i = 0; i < 48000; i += 256)
        REQUIRE(src.render(src.context, x.data() + 2 * i, static_cast<uint32_t>(std::min<size_t>(256, 48000 - i))) ==
                BOOP_OK);
    auto y = renderAmbient(b, 48000, {256});
    CHECK(sameBytes(x, y));
}

// The worker renders the sources ahead on a second thread: the samples must be those of a render
// without it, whatever the blocks, through a pause and the end fade, and the published frame
// count must follow what was mixed, not what the worker made ahead.
TEST_CASE("ambient with the worker: the samples of a render without it, through a pause and the end fade") {
    boop_ambient_config c = config(21);
    const size_t frames = 44100 * 12;
    auto run = [&](bool worker, const std::vector<uint32_t>& blocks) {
        Ambient a(c);
        if (worker) REQUIRE(boop_ambient_start_worker(a) == BOOP_OK);
        std::vector<float> out = renderAmbient(a, 44100 * 4, blocks);
        boop_ambient_set_paused(a, 1, 0.25);
        auto more = renderAmbient(a, 44100 * 1, blocks);  // fades out, then silence
        out.insert(out.end(), more.begin(), more.end());
        boop_ambient_set_paused(a, 0, 0.25);
        more = renderAmbient(a, 44100 * 4, blocks);
        out.insert(out.end(), more.begin(), more.end());
        boop_ambient_fade_out(a, 1.5);
        more = renderAmbient(a, frames - out.size() / 2, blocks);
        out.insert(out.end(), more.begin(), more.end());
        boop_ambient_status s;
        boop_ambient_get_status(a, &s);
        CHECK(s.finished == 1);
        return std::make_pair(out, s.frame);
    };
    const auto plain = run(false, {4096});
    for (const auto& blocks : std::vector<std::vector<uint32_t>>{{4096}, {1, 7, 64, 333, 2048, 13}, {100000}}) {
        const auto threaded = run(true, blocks);
        INFO("blocks starting " << blocks[0]);
        CHECK(sameBytes(plain.first, threaded.first));
        CHECK(plain.second == threaded.second);
    }
    CHECK(rms(plain.first, 0, 44100 * 8) > 0.01);
}

TEST_CASE("ambient worker: started once, before rendering; its generator is silent as a live source") {
    boop_ambient_config c = config(22);
    CHECK(boop_ambient_start_worker(nullptr) == BOOP_ERROR_INVALID_ARGUMENT);
    {
        Ambient a(c);  // destroyed with a worker that never had to wait for a render
        REQUIRE(boop_ambient_start_worker(a) == BOOP_OK);
        CHECK(boop_ambient_start_worker(a) == BOOP_ERROR_ALREADY_RUNNING);
        boop_source src = boop_ambient_source(a);
        std::vector<float> x(2 * 256, 1.0f);
        REQUIRE(src.render(src.context, x.data(), 256) == BOOP_OK);
        CHECK(peak(x) == 0.0);
    }
    {
        Ambient a(c);
        auto x = renderAmbient(a, 100, {100});
        CHECK(boop_ambient_start_worker(a) == BOOP_ERROR_ALREADY_RUNNING);
    }
    {
        Ambient a(c);  // destroyed while the worker waits with a full ring
        REQUIRE(boop_ambient_start_worker(a) == BOOP_OK);
        auto x = renderAmbient(a, 1000, {1000});
        CHECK(rms(x) >= 0.0);
    }
}
