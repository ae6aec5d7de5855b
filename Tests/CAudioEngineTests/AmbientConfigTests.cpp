// The ambient config's defaults and ranges (ambient/AmbientConfig), through the C API that
// checks them.
#include <doctest/doctest.h>
#include <limits>
#include <string>
#include "AmbientTestSupport.hpp"

using namespace ambtest;

TEST_CASE("ambient config: defaults are valid; bad fields are named") {
    boop_ambient_config c = config(1);
    const char* field = "x";
    CHECK(boop_ambient_config_check(&c, &field) == BOOP_OK);
    CHECK(field == nullptr);

    struct Case {
        const char* name;
        void (*mutate)(boop_ambient_config&);
    };
    const Case cases[] = {
        {"sample_rate", [](boop_ambient_config& c) { c.sample_rate = std::numeric_limits<double>::quiet_NaN(); }},
        {"sample_rate", [](boop_ambient_config& c) { c.sample_rate = 1000.0; }},
        {"key", [](boop_ambient_config& c) { c.key = 12; }},
        {"scale", [](boop_ambient_config& c) { c.scale = BOOP_AMBIENT_SCALE_COUNT; }},
        {"tempo_bpm", [](boop_ambient_config& c) { c.tempo_bpm = std::numeric_limits<double>::infinity(); }},
        {"reverb_mix", [](boop_ambient_config& c) { c.reverb_mix = 1.5f; }},
        {"delay_feedback", [](boop_ambient_config& c) { c.delay_feedback = 0.99f; }},
        {"filter_max_hz", [](boop_ambient_config& c) { c.filter_max_hz = c.filter_min_hz - 1.0f; }},
        {"lead_pulses", [](boop_ambient_config& c) { c.lead_pulses = c.lead_steps + 1; }},
        {"lead_rotation", [](boop_ambient_config& c) { c.lead_rotation = c.lead_steps; }},
        {"fm_ratio", [](boop_ambient_config& c) { c.fm_ratio = -1.0f; }},
        {"max_block_frames", [](boop_ambient_config& c) { c.max_block_frames = 0; }},
    };
    for (const auto& k : cases) {
        boop_ambient_config bad = config(1);
        k.mutate(bad);
        const char* f = nullptr;
        CHECK(boop_ambient_config_check(&bad, &f) == BOOP_ERROR_INVALID_ARGUMENT);
        REQUIRE(f != nullptr);
        CHECK(std::string(f) == k.name);
        boop_ambient* a = reinterpret_cast<boop_ambient*>(1);
        CHECK(boop_ambient_create(&bad, &a) == BOOP_ERROR_INVALID_ARGUMENT);
        CHECK(a == nullptr);
    }
    CHECK(boop_ambient_create(&c, nullptr) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(boop_ambient_render(nullptr, nullptr, 0) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(boop_ambient_fade_out(nullptr, 1.0) == BOOP_ERROR_INVALID_ARGUMENT);
    boop_ambient_destroy(nullptr);
    CHECK(std::string(boop_ambient_key_name(6)) == "F#");
    CHECK(std::string(boop_ambient_key_name(12)) == "?");
    CHECK(std::string(boop_ambient_scale_name(BOOP_AMBIENT_SCALE_LYDIAN)) == "lydian");
}

TEST_CASE("ambient config: the key keeps the spelling it was written with, and the sound does not change") {
    CHECK(std::string(boop_ambient_spelled_name(1, BOOP_AMBIENT_SPELLING_SHARPS)) == "C#");
    CHECK(std::string(boop_ambient_spelled_name(1, BOOP_AMBIENT_SPELLING_FLATS)) == "Db");
    CHECK(std::string(boop_ambient_spelled_name(-11, BOOP_AMBIENT_SPELLING_CONVENTIONAL)) == "Db");
    CHECK(boop_ambient_spelled_name(1, 3) == nullptr);
    boop_ambient_config bad = config(1);
    bad.key_spelling = 3;
    const char* field = nullptr;
    CHECK(boop_ambient_config_check(&bad, &field) == BOOP_ERROR_INVALID_ARGUMENT);
    REQUIRE(field != nullptr);
    CHECK(std::string(field) == "key_spelling");

    std::vector<float> out[3];
    std::string keys[3], chords[3];
    const int32_t spellings[3] = {BOOP_AMBIENT_SPELLING_CONVENTIONAL, BOOP_AMBIENT_SPELLING_SHARPS,
                                  BOOP_AMBIENT_SPELLING_FLATS};
    for (int i = 0; i < 3; ++i) {
        boop_ambient_config c = config(5);
        c.key = 1;
        c.key_spelling = spellings[i];
        boop_ambient* a = nullptr;
        REQUIRE(boop_ambient_create(&c, &a) == BOOP_OK);
        out[i].resize(2 * 4096);
        REQUIRE(boop_ambient_render(a, out[i].data(), 4096) == BOOP_OK);
        boop_ambient_status s;
        boop_ambient_get_status(a, &s);
        keys[i] = s.key_name;
        chords[i] = s.chord_name;
        boop_ambient_destroy(a);
    }
    CHECK(keys[0] == "Db");
    CHECK(keys[1] == "C#");
    CHECK(keys[2] == "Db");
    CHECK(chords[1].rfind("C#", 0) == 0);  // the first chord is the tonic's
    CHECK(out[0] == out[1]);
    CHECK(out[0] == out[2]);
}
