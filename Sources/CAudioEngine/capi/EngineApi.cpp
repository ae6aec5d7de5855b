// The C boundary: checks every argument, maps C++ failures to boop_status, lets no exception out.
#include <cmath>
#include <memory>
#include <new>
#include "backend/jack/JackMidiKeys.hpp"
#include "capi/Guarded.hpp"
#include "engine/Engine.hpp"
#include "engine/Instrument.hpp"
#include "engine/Palette.hpp"
#include "include/CAudioEngine.h"

struct boop_engine {
    explicit boop_engine(const boop_engine_config& c) : engine(c) {}
    boop::Engine engine;
};

namespace {
struct StatusText {
    boop_status status;
    const char* text;
};
constexpr StatusText kStatusTexts[] = {
    {BOOP_OK, "ok"},
    {BOOP_ERROR_INVALID_ARGUMENT, "invalid argument"},
    {BOOP_ERROR_OUT_OF_MEMORY, "out of memory"},
    {BOOP_ERROR_QUEUE_FULL, "event queue full"},
    {BOOP_ERROR_DEVICE_UNAVAILABLE, "audio device unavailable"},
    {BOOP_ERROR_DEVICE_LOST, "audio device lost"},
    {BOOP_ERROR_IO, "input/output error"},
    {BOOP_ERROR_CANNOT_CREATE, "cannot create output"},
    {BOOP_ERROR_ALREADY_RUNNING, "already running"},
    {BOOP_ERROR_NOT_RUNNING, "not running"},
    {BOOP_ERROR_INTERNAL, "internal error"},
};
static_assert(sizeof kStatusTexts / sizeof kStatusTexts[0] == 1 - BOOP_ERROR_INTERNAL, "a text for every status");
}  // namespace

extern "C" {

const char* boop_status_string(boop_status status) {
    for (const StatusText& t : kStatusTexts)
        if (t.status == status) return t.text;
    return "unknown status";
}

const char* boop_version(void) { return PIXELBOOP_VERSION; }

void boop_engine_config_default(boop_engine_config* config) {
    if (!config) return;
    // The defaults are the table's (CAudioEngineLimits.h).
    config->sample_rate = boop_limit_get(BOOP_LIMIT_ENGINE_RATE).default_value;
    config->voices = BOOP_ENGINE_VOICES_DEFAULT;
    config->max_block_frames = static_cast<uint32_t>(boop_limit_get(BOOP_LIMIT_BLOCK_FRAMES).default_value);
    config->queue_capacity = static_cast<uint32_t>(boop_limit_get(BOOP_LIMIT_QUEUE).default_value);
    config->channels = static_cast<uint32_t>(boop_limit_get(BOOP_LIMIT_CHANNELS).default_value);
}

boop_status boop_engine_create(const boop_engine_config* config, boop_engine** out_engine) {
    if (!out_engine) return BOOP_ERROR_INVALID_ARGUMENT;
    *out_engine = nullptr;
    boop_engine_config c;
    boop_engine_config_default(&c);
    if (config) c = *config;
    if (!boop::Engine::isValid(c)) return BOOP_ERROR_INVALID_ARGUMENT;
    return boop::capi::guarded([&] {
        *out_engine = new boop_engine(c);
        return BOOP_OK;
    });
}

void boop_engine_destroy(boop_engine* engine) { delete engine; }

// One event on the engine's queue; the fields not named keep Command's defaults.
static boop_status pushEvent(boop_engine* engine, boop::Command::Type type, uint64_t frame, uint32_t timbre = 0,
                             uint32_t noteId = 0, float gain = 0.0f, double value = 0.0) {
    boop::Command c;
    c.type = type;
    c.timbre = static_cast<uint8_t>(timbre);
    c.noteId = noteId;
    c.gain = gain;
    c.frame = frame;
    c.value = value;
    return engine->engine.push(c) ? BOOP_OK : BOOP_ERROR_QUEUE_FULL;
}

static bool validGain(float gain) { return gain >= 0.0f && gain <= static_cast<float>(BOOP_EVENT_GAIN_MAX); }

// A note's frequency and gain, as every note-on checks them: above 0 and below Nyquist.
static bool validNote(const boop_engine* engine, double frequency_hz, float gain) {
    const double nyquist = engine->engine.config().sample_rate * 0.5;
    return frequency_hz > 0.0 && frequency_hz < nyquist && validGain(gain);
}

static bool validGmKey(uint32_t gm_key) { return gm_key <= boop_limit_get(BOOP_LIMIT_MIDI_DATA).max; }

static bool validFade(double fade_seconds) {
    return fade_seconds >= BOOP_FADE_SECONDS_MIN && fade_seconds <= BOOP_FADE_SECONDS_MAX;
}

boop_status boop_engine_note_on(boop_engine* engine, uint64_t frame, uint32_t note_id, boop_timbre timbre,
                                double frequency_hz, float gain) {
    if (!engine || !validNote(engine, frequency_hz, gain) || static_cast<int>(timbre) < 0 ||
        static_cast<int>(timbre) >= BOOP_TIMBRE_COUNT)
        return BOOP_ERROR_INVALID_ARGUMENT;
    return pushEvent(engine, boop::Command::Type::NoteOn, frame, static_cast<uint32_t>(timbre), note_id, gain,
                     frequency_hz);
}

boop_status boop_engine_note_off(boop_engine* engine, uint64_t frame, uint32_t note_id) {
    if (!engine) return BOOP_ERROR_INVALID_ARGUMENT;
    return pushEvent(engine, boop::Command::Type::NoteOff, frame, 0, note_id);
}

boop_status boop_engine_drum_hit(boop_engine* engine, uint64_t frame, uint32_t gm_key, float gain) {
    if (!engine || !validGmKey(gm_key) || !validGain(gain)) return BOOP_ERROR_INVALID_ARGUMENT;
    return pushEvent(engine, boop::Command::Type::DrumHit, frame, 0, gm_key, gain);
}

boop_status boop_engine_all_notes_off(boop_engine* engine, uint64_t frame, double fade_seconds) {
    if (!engine || !validFade(fade_seconds)) return BOOP_ERROR_INVALID_ARGUMENT;
    return pushEvent(engine, boop::Command::Type::AllNotesOff, frame, 0, 0, 0.0f, fade_seconds);
}

boop_status boop_engine_cancel_pending(boop_engine* engine, double fade_seconds) {
    if (!engine || !validFade(fade_seconds)) return BOOP_ERROR_INVALID_ARGUMENT;
    engine->engine.cancelPending(fade_seconds);
    return BOOP_OK;
}

boop_status boop_engine_render(boop_engine* engine, float* out, uint32_t frames) {
    if (!engine || !out || frames > engine->engine.config().max_block_frames) return BOOP_ERROR_INVALID_ARGUMENT;
    engine->engine.render(out, frames);
    return BOOP_OK;
}

uint64_t boop_engine_frame_clock(const boop_engine* engine) { return engine ? engine->engine.frameClock() : 0; }
uint32_t boop_engine_active_voices(const boop_engine* engine) { return engine ? engine->engine.activeVoices() : 0; }
uint64_t boop_engine_dropped_events(const boop_engine* engine) { return engine ? engine->engine.droppedEvents() : 0; }
uint64_t boop_engine_mark(boop_engine* engine, uint64_t frame) {
    if (!engine) return 0;
    engine->engine.markFrame(frame);
    return engine->engine.markTime(frame);
}
double boop_engine_sample_rate(const boop_engine* engine) { return engine ? engine->engine.config().sample_rate : 0.0; }
uint32_t boop_engine_channels(const boop_engine* engine) { return engine ? engine->engine.config().channels : 0; }
float boop_engine_peak(const boop_engine* engine) { return engine ? engine->engine.peak() : 0.0f; }

static boop_status renderEngineSource(void* context, float* out, uint32_t frames) BOOP_RT {
    auto* engine = static_cast<boop_engine*>(context);
    engine->engine.render(out, frames);
    return BOOP_OK;
}

boop_source boop_engine_source(boop_engine* engine) {
    boop_source s{};
    if (!engine) return s;
    s.render = renderEngineSource;
    s.context = engine;
    s.channels = engine->engine.config().channels;
    s.max_block_frames = engine->engine.config().max_block_frames;
    s.sample_rate = engine->engine.config().sample_rate;
    return s;
}

}  // extern "C"

// ---- the song instruments and kits (CAudioEngine.h, "Instruments") ----

namespace {

// Inside the row of the limits table (CAudioEngineLimits.h) that bounds the parameter.
bool within(double v, boop_limit_id id) {
    const boop_limit limit = boop_limit_get(id);
    return std::isfinite(v) && v >= limit.min && v <= limit.max;
}

bool valid(const boop_instrument& i) {
    return boop::isVoice(static_cast<int>(i.voice)) && within(i.width, BOOP_LIMIT_INSTRUMENT_WIDTH) &&
           within(i.attack, BOOP_LIMIT_INSTRUMENT_ATTACK) && within(i.decay, BOOP_LIMIT_INSTRUMENT_DECAY) &&
           within(i.sustain, BOOP_LIMIT_INSTRUMENT_SUSTAIN) && within(i.release, BOOP_LIMIT_INSTRUMENT_RELEASE) &&
           within(i.cutoff, BOOP_LIMIT_INSTRUMENT_CUTOFF) && within(i.resonance, BOOP_LIMIT_INSTRUMENT_RESONANCE) &&
           within(i.pan, BOOP_LIMIT_INSTRUMENT_PAN);
}

}  // namespace

extern "C" boop_status boop_engine_set_instrument(boop_engine* engine, uint64_t frame, uint32_t slot,
                                                  const boop_instrument* instrument) {
    if (!engine || !instrument || slot >= BOOP_INSTRUMENT_SLOTS || !valid(*instrument))
        return BOOP_ERROR_INVALID_ARGUMENT;
    const double values[boop::InstrumentParams::Count] = {static_cast<double>(instrument->voice),
                                                          instrument->width,
                                                          instrument->attack,
                                                          instrument->decay,
                                                          instrument->sustain,
                                                          instrument->release,
                                                          instrument->cutoff,
                                                          instrument->resonance,
                                                          instrument->pan};
    boop_status status = BOOP_OK;
    for (uint32_t i = 0; i < boop::InstrumentParams::Count; ++i)
        if (pushEvent(engine, boop::Command::Type::InstrumentParam, frame, slot, i, 0.0f, values[i]) != BOOP_OK)
            status = BOOP_ERROR_QUEUE_FULL;
    return status;
}

extern "C" boop_status boop_engine_instrument_note_on(boop_engine* engine, uint64_t frame, uint32_t note_id,
                                                      uint32_t slot, double frequency_hz, float gain) {
    if (!engine || slot >= BOOP_INSTRUMENT_SLOTS || !validNote(engine, frequency_hz, gain))
        return BOOP_ERROR_INVALID_ARGUMENT;
    return pushEvent(engine, boop::Command::Type::InstrumentNoteOn, frame, slot, note_id, gain, frequency_hz);
}

extern "C" boop_status boop_engine_kit_hit(boop_engine* engine, uint64_t frame, boop_kit kit, uint32_t gm_key,
                                           float gain) {
    if (!engine || !validGmKey(gm_key) || !boop::isKit(static_cast<int>(kit)) || !validGain(gain))
        return BOOP_ERROR_INVALID_ARGUMENT;
    return pushEvent(engine, boop::Command::Type::DrumHit, frame, static_cast<uint32_t>(kit), gm_key, gain);
}

namespace {
bool validKeysSound(const boop_keys_sound& s) {
    if (!validGain(s.gain) || !validGain(s.accent_gain) || s.accent_velocity > 128) return false;
    switch (s.kind) {
        case BOOP_KEYS_SILENT:
            return true;
        case BOOP_KEYS_TIMBRE:
            return s.index < BOOP_TIMBRE_COUNT;
        case BOOP_KEYS_INSTRUMENT:
            return s.index < BOOP_INSTRUMENT_SLOTS;
        case BOOP_KEYS_DRUMS:
            return s.index < BOOP_KIT_COUNT;
        default:
            return false;
    }
}
}  // namespace

// Here rather than beside the keyboard: the sound names the engine inside its handle.
extern "C" boop_status boop_midi_in_set_sound(boop_midi_in* input, boop_engine* engine, const boop_keys_sound* sound) {
    const std::shared_ptr<boop::MidiKeysQueue> keys = boop::midiKeysOf(input);
    if (!keys || engine == nullptr || sound == nullptr || !validKeysSound(*sound)) return BOOP_ERROR_INVALID_ARGUMENT;
    return keys->sounds.tryPush(boop::KeysSound{&engine->engine, *sound}) ? BOOP_OK : BOOP_ERROR_QUEUE_FULL;
}

extern "C" boop_status boop_midi_in_set_channel_sound(boop_midi_in* input, boop_engine* engine, uint8_t channel,
                                                      const boop_keys_sound* sound) {
    const std::shared_ptr<boop::MidiKeysQueue> keys = boop::midiKeysOf(input);
    if (!keys || engine == nullptr || channel > 15 || (sound != nullptr && !validKeysSound(*sound))) {
        return BOOP_ERROR_INVALID_ARGUMENT;
    }
    boop::KeysSound k{sound != nullptr ? &engine->engine : nullptr, sound != nullptr ? *sound : boop_keys_sound{},
                      channel};
    return keys->sounds.tryPush(k) ? BOOP_OK : BOOP_ERROR_QUEUE_FULL;
}
