#include "ambient/AmbientConfig.hpp"

#include <cmath>
#include <cstddef>
#include <cstring>

namespace boop::ambient {

namespace {

enum class Kind { f64, f32, i32, u32 };

struct Field {
    boop_ambient_range range;
    std::size_t offset;
    Kind kind;
};

// Every numeric field with its range, in the order checkConfig reports them. Cross-field rules
// (filter_max_hz >= filter_min_hz, lead_pulses <= lead_steps, lead_rotation < lead_steps) follow.
constexpr Field kFields[] = {
    {{"sample_rate", BOOP_ENGINE_RATE_MIN, BOOP_ENGINE_RATE_MAX, 0},
     offsetof(boop_ambient_config, sample_rate),
     Kind::f64},
    {{"max_block_frames", 1, BOOP_ENGINE_BLOCK_FRAMES_MAX, 1},
     offsetof(boop_ambient_config, max_block_frames),
     Kind::u32},
    {{"key", 0, 11, 1}, offsetof(boop_ambient_config, key), Kind::i32},
    {{"scale", 0, BOOP_AMBIENT_SCALE_COUNT - 1, 1}, offsetof(boop_ambient_config, scale), Kind::i32},
    {{"tempo_bpm", 20, 240, 0}, offsetof(boop_ambient_config, tempo_bpm), Kind::f64},
    {{"chord_seconds", 1, 120, 0}, offsetof(boop_ambient_config, chord_seconds), Kind::f64},
    {{"seventh_chance", 0, 1, 0}, offsetof(boop_ambient_config, seventh_chance), Kind::f32},
    {{"modulation_chance", 0, 1, 0}, offsetof(boop_ambient_config, modulation_chance), Kind::f32},
    {{"master_gain", 0, 2, 0}, offsetof(boop_ambient_config, master_gain), Kind::f32},
    {{"pad_level", 0, 1, 0}, offsetof(boop_ambient_config, pad_level), Kind::f32},
    {{"lead_level", 0, 1, 0}, offsetof(boop_ambient_config, lead_level), Kind::f32},
    {{"grain_level", 0, 1, 0}, offsetof(boop_ambient_config, grain_level), Kind::f32},
    {{"ocean_level", 0, 1, 0}, offsetof(boop_ambient_config, ocean_level), Kind::f32},
    {{"pad_octave", 1, 6, 1}, offsetof(boop_ambient_config, pad_octave), Kind::i32},
    {{"pad_detune_cents", 0, 50, 0}, offsetof(boop_ambient_config, pad_detune_cents), Kind::f32},
    {{"pad_attack_seconds", 0.01, 20, 0}, offsetof(boop_ambient_config, pad_attack_seconds), Kind::f32},
    {{"pad_release_seconds", 0.05, 30, 0}, offsetof(boop_ambient_config, pad_release_seconds), Kind::f32},
    {{"filter_min_hz", 40, 18000, 0}, offsetof(boop_ambient_config, filter_min_hz), Kind::f32},
    {{"filter_max_hz", 40, 18000, 0}, offsetof(boop_ambient_config, filter_max_hz), Kind::f32},
    {{"filter_resonance", 0, 1, 0}, offsetof(boop_ambient_config, filter_resonance), Kind::f32},
    {{"filter_sweep_seconds", 2, 600, 0}, offsetof(boop_ambient_config, filter_sweep_seconds), Kind::f32},
    {{"lead_octave", 2, 7, 1}, offsetof(boop_ambient_config, lead_octave), Kind::i32},
    {{"lead_steps", 1, 64, 1}, offsetof(boop_ambient_config, lead_steps), Kind::u32},
    {{"lead_pulses", 0, 64, 1}, offsetof(boop_ambient_config, lead_pulses), Kind::u32},
    {{"lead_rotation", 0, 63, 1}, offsetof(boop_ambient_config, lead_rotation), Kind::u32},
    {{"lead_probability", 0, 1, 0}, offsetof(boop_ambient_config, lead_probability), Kind::f32},
    {{"fm_ratio", 0.25, 16, 0}, offsetof(boop_ambient_config, fm_ratio), Kind::f32},
    {{"fm_index", 0, 12, 0}, offsetof(boop_ambient_config, fm_index), Kind::f32},
    {{"lead_attack_seconds", 0.001, 2, 0}, offsetof(boop_ambient_config, lead_attack_seconds), Kind::f32},
    {{"lead_decay_seconds", 0.02, 10, 0}, offsetof(boop_ambient_config, lead_decay_seconds), Kind::f32},
    {{"grain_seconds", 0.01, 0.5, 0}, offsetof(boop_ambient_config, grain_seconds), Kind::f32},
    {{"grain_density", 0.2, 80, 0}, offsetof(boop_ambient_config, grain_density), Kind::f32},
    {{"grain_pitch_spread", 0, 1, 0}, offsetof(boop_ambient_config, grain_pitch_spread), Kind::f32},
    {{"ocean_swell_seconds", 2, 60, 0}, offsetof(boop_ambient_config, ocean_swell_seconds), Kind::f32},
    {{"delay_seconds", 0.01, 2, 0}, offsetof(boop_ambient_config, delay_seconds), Kind::f32},
    {{"delay_feedback", 0, 0.95, 0}, offsetof(boop_ambient_config, delay_feedback), Kind::f32},
    {{"delay_mix", 0, 1, 0}, offsetof(boop_ambient_config, delay_mix), Kind::f32},
    {{"delay_damping", 0, 1, 0}, offsetof(boop_ambient_config, delay_damping), Kind::f32},
    {{"reverb_size", 0, 1, 0}, offsetof(boop_ambient_config, reverb_size), Kind::f32},
    {{"reverb_decay_seconds", 0.1, 60, 0}, offsetof(boop_ambient_config, reverb_decay_seconds), Kind::f32},
    {{"reverb_mix", 0, 1, 0}, offsetof(boop_ambient_config, reverb_mix), Kind::f32},
    {{"reverb_damping", 0, 1, 0}, offsetof(boop_ambient_config, reverb_damping), Kind::f32},
    {{"drift_amount", 0, 1, 0}, offsetof(boop_ambient_config, drift_amount), Kind::f32},
    {{"fade_in_seconds", 0, 30, 0}, offsetof(boop_ambient_config, fade_in_seconds), Kind::f32},
    {{"key_spelling", 0, 2, 1}, offsetof(boop_ambient_config, key_spelling), Kind::i32},
};

bool inRange(const boop_ambient_config& c, const Field& f) noexcept {
    const char* base = reinterpret_cast<const char*>(&c) + f.offset;
    switch (f.kind) {
        case Kind::f64: {
            double v;
            std::memcpy(&v, base, sizeof v);
            return std::isfinite(v) && v >= f.range.min && v <= f.range.max;
        }
        case Kind::f32: {
            // Float fields compare against float bounds, so a preset may use the documented limits
            // exactly (0.01f is slightly below the double 0.01).
            float v;
            std::memcpy(&v, base, sizeof v);
            return std::isfinite(v) && v >= static_cast<float>(f.range.min) && v <= static_cast<float>(f.range.max);
        }
        case Kind::i32: {
            int32_t v;
            std::memcpy(&v, base, sizeof v);
            return v >= f.range.min && v <= f.range.max;
        }
        case Kind::u32: {
            uint32_t v;
            std::memcpy(&v, base, sizeof v);
            return v >= f.range.min && v <= f.range.max;
        }
    }
    return false;
}

}  // namespace

void defaultConfig(boop_ambient_config& c) noexcept {
    std::memset(&c, 0, sizeof c);
    c.sample_rate = 44100.0;
    c.seed = 1;
    c.max_block_frames = 4096;
    c.key = 2;  // D
    c.scale = BOOP_AMBIENT_SCALE_MAJOR;
    c.tempo_bpm = 72.0;
    c.chord_seconds = 10.0;
    c.seventh_chance = 0.3f;
    c.modulation_chance = 0.3f;
    c.master_gain = 0.8f;
    c.pad_level = 0.6f;
    c.lead_level = 0.35f;
    c.grain_level = 0.3f;
    c.ocean_level = 0.15f;
    c.pad_octave = 3;
    c.pad_detune_cents = 9.0f;
    c.pad_attack_seconds = 3.0f;
    c.pad_release_seconds = 5.0f;
    c.filter_min_hz = 400.0f;
    c.filter_max_hz = 2400.0f;
    c.filter_resonance = 0.2f;
    c.filter_sweep_seconds = 30.0f;
    c.lead_octave = 5;
    c.lead_pulses = 5;
    c.lead_steps = 16;
    c.lead_rotation = 0;
    c.lead_probability = 0.8f;
    c.fm_ratio = 2.0f;
    c.fm_index = 2.0f;
    c.lead_attack_seconds = 0.005f;
    c.lead_decay_seconds = 1.6f;
    c.grain_seconds = 0.12f;
    c.grain_density = 10.0f;
    c.grain_pitch_spread = 0.3f;
    c.ocean_swell_seconds = 10.0f;
    c.delay_seconds = 0.42f;
    c.delay_feedback = 0.45f;
    c.delay_mix = 0.35f;
    c.delay_damping = 0.4f;
    c.reverb_size = 0.7f;
    c.reverb_decay_seconds = 6.0f;
    c.reverb_mix = 0.45f;
    c.reverb_damping = 0.35f;
    c.drift_amount = 0.4f;
    c.fade_in_seconds = 1.0f;
}

const char* checkConfig(const boop_ambient_config& c) noexcept {
    for (const Field& f : kFields) {
        if (!inRange(c, f)) return f.range.field;
    }
    if (c.filter_max_hz < c.filter_min_hz) return "filter_max_hz";
    if (c.lead_pulses > c.lead_steps) return "lead_pulses";
    if (c.lead_rotation >= c.lead_steps) return "lead_rotation";
    return nullptr;
}

const boop_ambient_range* rangeOf(const char* field) noexcept {
    if (field == nullptr) return nullptr;
    for (const Field& f : kFields) {
        if (std::strcmp(f.range.field, field) == 0) return &f.range;
    }
    return nullptr;
}

}  // namespace boop::ambient
