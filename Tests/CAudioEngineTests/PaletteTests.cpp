// The voice and kit lists (CAudioEngine.h, BOOP_VOICES and BOOP_KITS) as the C API hands them
// out: every value below the count has its line and nothing past it does, the names are distinct
// words a song file can hold, and the engine takes every voice's default sound and every kit.
#include <doctest/doctest.h>
#include <cctype>
#include <set>
#include <string>
#include "TestSignals.hpp"

namespace {

bool isName(const char* s) {
    if (!s || !*s) return false;
    for (; *s; ++s)
        if (!std::islower(static_cast<unsigned char>(*s)) && !std::isdigit(static_cast<unsigned char>(*s)))
            return false;
    return true;
}

}  // namespace

TEST_CASE("every voice has its line: a name, a description, a program and a sound the engine takes") {
    REQUIRE(boop_voice_count() == BOOP_VOICE_COUNT);
    // Past the table, within the enum's range (a negative value is no boop_instrument_voice at all).
    for (int v : {static_cast<int>(BOOP_VOICE_COUNT), 1000}) {
        const auto none = static_cast<boop_instrument_voice>(v);
        boop_instrument sound{};
        CHECK(boop_voice_name(none) == nullptr);
        CHECK(boop_voice_description(none) == nullptr);
        CHECK(boop_voice_gm_program(none) == -1);
        CHECK(boop_voice_sound(none, &sound) == BOOP_ERROR_INVALID_ARGUMENT);
    }
    CHECK(boop_voice_sound(BOOP_VOICE_SINE, nullptr) == BOOP_ERROR_INVALID_ARGUMENT);
    testsig::EngineHandle engine(44100, 8, 2);
    std::set<std::string> names;
    for (int v = 0; v < BOOP_VOICE_COUNT; ++v) {
        const auto voice = static_cast<boop_instrument_voice>(v);
        const char* name = boop_voice_name(voice);
        CAPTURE(v);
        CHECK(isName(name));
        CHECK(names.insert(name ? name : "").second);
        CHECK(std::string(boop_voice_description(voice)).size() > 0);
        CHECK(boop_voice_gm_program(voice) >= 0);
        CHECK(boop_voice_gm_program(voice) < 128);
        boop_instrument sound{};
        REQUIRE(boop_voice_sound(voice, &sound) == BOOP_OK);
        CHECK(sound.voice == voice);
        CHECK(boop_engine_set_instrument(engine, 0, 0, &sound) == BOOP_OK);
    }
    boop_instrument past{};
    REQUIRE(boop_voice_sound(BOOP_VOICE_SINE, &past) == BOOP_OK);
    past.voice = static_cast<boop_instrument_voice>(BOOP_VOICE_COUNT);
    CHECK(boop_engine_set_instrument(engine, 0, 0, &past) == BOOP_ERROR_INVALID_ARGUMENT);
}

TEST_CASE("every kit has its line, and the engine strikes every kit and no other") {
    REQUIRE(boop_kit_count() == BOOP_KIT_COUNT);
    for (int k : {static_cast<int>(BOOP_KIT_COUNT), 1000}) {
        CHECK(boop_kit_name(static_cast<boop_kit>(k)) == nullptr);
        CHECK(boop_kit_description(static_cast<boop_kit>(k)) == nullptr);
    }
    testsig::EngineHandle engine(44100, 8, 2);
    std::set<std::string> names;
    for (int k = 0; k < BOOP_KIT_COUNT; ++k) {
        const auto kit = static_cast<boop_kit>(k);
        const char* name = boop_kit_name(kit);
        CAPTURE(k);
        CHECK(isName(name));
        CHECK(names.insert(name ? name : "").second);
        CHECK(std::string(boop_kit_description(kit)).size() > 0);
        CHECK(boop_engine_kit_hit(engine, 0, kit, 36, 0.8f) == BOOP_OK);
    }
    CHECK(boop_engine_kit_hit(engine, 0, static_cast<boop_kit>(BOOP_KIT_COUNT), 36, 0.8f) ==
          BOOP_ERROR_INVALID_ARGUMENT);
}
