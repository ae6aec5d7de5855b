// C shim for the live MIDI synth section of CAudioEngine.h: argument checks, handle <-> object,
// no exception crossing the boundary.
#include <cmath>
#include <memory>
#include <new>

#include "backend/jack/JackSynth.hpp"
#include "include/CAudioEngine.h"

struct boop_synth {
    boop::JackSynth jack;
};

void boop_synth_config_default(boop_synth_config* config) {
    if (config == nullptr) return;
    *config = boop_synth_config{};
    config->backend = BOOP_BACKEND_JACK;
    config->client_name = "boop";
    config->connect = 1;
    config->voices = 16;
    config->bend_range = 2.0;
    for (int& v : config->channel_voice) v = BOOP_TIMBRE_MELODY;
    config->channel_voice[1] = BOOP_TIMBRE_CHORDS;
    config->channel_voice[2] = BOOP_TIMBRE_BASS;
    config->channel_voice[9] = BOOP_SYNTH_VOICE_DRUMS;
}

namespace {
bool validSynthConfig(const boop_synth_config& c) {
    if (c.backend != BOOP_BACKEND_JACK) return false;
    if (c.voices < BOOP_ENGINE_VOICES_MIN || c.voices > BOOP_ENGINE_VOICES_MAX) return false;
    if (!(std::isfinite(c.bend_range) && c.bend_range >= BOOP_SYNTH_BEND_RANGE_MIN &&
          c.bend_range <= BOOP_SYNTH_BEND_RANGE_MAX))
        return false;
    for (int v : c.channel_voice)
        if (v < 0 || v > BOOP_SYNTH_VOICE_DRUMS) return false;
    return true;
}
}  // namespace

boop_status boop_synth_open(const boop_synth_config* config, boop_synth** out_synth) {
    if (config == nullptr || out_synth == nullptr || !validSynthConfig(*config)) return BOOP_ERROR_INVALID_ARGUMENT;
    *out_synth = nullptr;
    std::unique_ptr<boop_synth> s(new (std::nothrow) boop_synth);
    if (!s) return BOOP_ERROR_OUT_OF_MEMORY;
    boop::JackSynth::Config cfg;
    cfg.clientName = config->client_name != nullptr ? config->client_name : "boop";
    cfg.connect = config->connect != 0;
    cfg.voices = config->voices;
    cfg.bendRange = config->bend_range;
    for (int c = 0; c < BOOP_MIDI_CHANNELS; ++c) cfg.channelVoices[c] = config->channel_voice[c];
    boop_status status = BOOP_ERROR_INTERNAL;
    try {
        status = s->jack.open(cfg);
    } catch (...) {
        status = BOOP_ERROR_OUT_OF_MEMORY;
    }
    if (status != BOOP_OK) return status;
    *out_synth = s.release();
    return BOOP_OK;
}

double boop_synth_sample_rate(const boop_synth* synth) { return synth != nullptr ? synth->jack.sampleRate() : 0.0; }

uint32_t boop_synth_buffer_frames(const boop_synth* synth) { return synth != nullptr ? synth->jack.bufferFrames() : 0; }

const char* boop_synth_midi_port(const boop_synth* synth) { return synth != nullptr ? synth->jack.midiPortName() : ""; }

boop_status boop_synth_start(boop_synth* synth) {
    if (synth == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    return synth->jack.start();
}

boop_status boop_synth_connect_midi(boop_synth* synth, const char* source) {
    if (synth == nullptr || source == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    return synth->jack.connectMidi(source);
}

boop_status boop_synth_fade_out(boop_synth* synth, double seconds) {
    if (synth == nullptr || !(seconds >= 0.001 && seconds <= 10.0)) return BOOP_ERROR_INVALID_ARGUMENT;
    synth->jack.fadeOut(seconds);
    return BOOP_OK;
}

boop_synth_stats boop_synth_get_stats(const boop_synth* synth) {
    boop_synth_stats s{};
    s.last_note = -1;
    if (synth == nullptr) return s;
    const boop::JackSynth& j = synth->jack;
    s.messages = j.messages();
    s.malformed_bytes = j.malformed();
    s.ignored = j.ignored();
    if (const boop::MidiSynth* m = j.synth()) {
        s.notes_held = m->notesHeld();
        s.last_note = m->lastNote();
    }
    s.voices = j.voices();
    s.xruns = j.xruns();
    s.frames = j.framesRendered();
    s.error = j.error();
    return s;
}

int boop_synth_next_event(boop_synth* synth, boop_midi_event* out_event) {
    if (synth == nullptr || out_event == nullptr) return 0;
    boop::MidiLogEntry e;
    if (!synth->jack.nextLogged(e)) return 0;
    *out_event = boop_midi_event{e.frame, e.status, e.data1, e.data2};
    return 1;
}

boop_status boop_synth_record(boop_synth* synth, const char* path) {
    if (synth == nullptr || path == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    return synth->jack.record(path);
}

boop_status boop_synth_finish_record(boop_synth* synth) {
    if (synth == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    try {
        return synth->jack.finishRecording();
    } catch (...) {
        return BOOP_ERROR_OUT_OF_MEMORY;
    }
}

const char* boop_synth_record_error(const boop_synth* synth) {
    return synth != nullptr ? synth->jack.recordError() : "";
}

uint64_t boop_synth_record_dropped(const boop_synth* synth) {
    return synth != nullptr ? synth->jack.recordDropped() : 0;
}

void boop_synth_stop(boop_synth* synth) {
    if (synth != nullptr) synth->jack.stop();
}

void boop_synth_destroy(boop_synth* synth) { delete synth; }
