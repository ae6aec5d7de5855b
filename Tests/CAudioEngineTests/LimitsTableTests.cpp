// The table of limits (CAudioEngineLimits.h, BOOP_LIMITS): every row a range holding its default,
// the engine refusing an instrument one past either end of each parameter's row and taking its
// bounds, and the playback defaults being the table's.
#include <doctest/doctest.h>
#include <cmath>
#include <cstring>
#include <set>
#include <string>
#include "TestInstrument.hpp"
#include "TestSignals.hpp"

namespace {

struct Field {
    boop_limit_id id;
    double boop_instrument::*member;
};

const Field kFields[] = {
    {BOOP_LIMIT_INSTRUMENT_WIDTH, &boop_instrument::width},
    {BOOP_LIMIT_INSTRUMENT_ATTACK, &boop_instrument::attack},
    {BOOP_LIMIT_INSTRUMENT_DECAY, &boop_instrument::decay},
    {BOOP_LIMIT_INSTRUMENT_SUSTAIN, &boop_instrument::sustain},
    {BOOP_LIMIT_INSTRUMENT_RELEASE, &boop_instrument::release},
    {BOOP_LIMIT_INSTRUMENT_CUTOFF, &boop_instrument::cutoff},
    {BOOP_LIMIT_INSTRUMENT_RESONANCE, &boop_instrument::resonance},
    {BOOP_LIMIT_INSTRUMENT_PAN, &boop_instrument::pan},
};

}  // namespace

TEST_CASE("every row is a named range that holds its default; an unknown id gives an empty row") {
    std::set<std::string> names;
    for (int i = 0; i < BOOP_LIMIT_COUNT; ++i) {
        const boop_limit row = boop_limit_get(static_cast<boop_limit_id>(i));
        CAPTURE(row.name);
        CHECK(std::strlen(row.name) > 0);
        CHECK(names.insert(row.name).second);
        CHECK(row.min < row.max);
        CHECK(row.default_value >= row.min);
        CHECK(row.default_value <= row.max);
        CHECK(std::strlen(row.description) > 0);
    }
    CHECK(std::strlen(boop_limit_get(BOOP_LIMIT_COUNT).name) == 0);
    // Rows that name a bound are that bound, and a row reads in constant expressions.
    static_assert(boop_limit_get(BOOP_LIMIT_ENGINE_RATE).max == BOOP_ENGINE_RATE_MAX, "");
    static_assert(boop_limit_get(BOOP_LIMIT_MIDI_CHANNEL).max == BOOP_MIDI_CHANNELS, "");
    CHECK(boop_limit_get(BOOP_LIMIT_ENGINE_VOICES).default_value == BOOP_ENGINE_VOICES_DEFAULT);
}

TEST_CASE("an instrument one past either end of a parameter's row is refused; its bounds are taken") {
    testsig::EngineHandle engine(44100, 8, 2);
    for (const Field& f : kFields) {
        const boop_limit row = boop_limit_get(f.id);
        CAPTURE(row.name);
        const double step = (row.max - row.min) * 1e-6;
        for (const double bad : {row.min - step, row.max + step, std::nan("")}) {
            boop_instrument inst = plainInstrument();
            inst.*f.member = bad;
            CHECK(boop_engine_set_instrument(engine, 0, 0, &inst) == BOOP_ERROR_INVALID_ARGUMENT);
        }
        for (const double good : {row.min, row.max}) {
            boop_instrument inst = plainInstrument();
            inst.*f.member = good;
            CHECK(boop_engine_set_instrument(engine, 0, 0, &inst) == BOOP_OK);
        }
    }
    // A drum key is a MIDI data byte.
    const auto key = static_cast<uint32_t>(boop_limit_get(BOOP_LIMIT_MIDI_DATA).max);
    CHECK(boop_engine_kit_hit(engine, 0, BOOP_KIT_808, key, 1.0f) == BOOP_OK);
    CHECK(boop_engine_kit_hit(engine, 0, BOOP_KIT_808, key + 1, 1.0f) == BOOP_ERROR_INVALID_ARGUMENT);
}

TEST_CASE("the engine's and the playback's defaults are the table's") {
    boop_engine_config engine;
    boop_engine_config_default(&engine);
    CHECK(engine.sample_rate == boop_limit_get(BOOP_LIMIT_ENGINE_RATE).default_value);
    CHECK(engine.voices == boop_limit_get(BOOP_LIMIT_ENGINE_VOICES).default_value);
    CHECK(engine.max_block_frames == boop_limit_get(BOOP_LIMIT_BLOCK_FRAMES).default_value);
    CHECK(engine.queue_capacity == boop_limit_get(BOOP_LIMIT_QUEUE).default_value);
    CHECK(engine.channels == boop_limit_get(BOOP_LIMIT_CHANNELS).default_value);
    CHECK(engine.sample_rate == 44100.0);
    CHECK(engine.max_block_frames == 4096);
    CHECK(engine.queue_capacity == 4096);
    boop_playback_config config;
    boop_playback_config_default(&config);
    CHECK(config.period_frames == boop_limit_get(BOOP_LIMIT_PLAYBACK_PERIOD_FRAMES).default_value);
    CHECK(config.periods == boop_limit_get(BOOP_LIMIT_PLAYBACK_PERIODS).default_value);
    CHECK(config.period_frames == 128);
    CHECK(config.periods == 3);
}
