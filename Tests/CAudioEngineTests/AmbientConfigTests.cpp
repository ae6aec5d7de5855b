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
