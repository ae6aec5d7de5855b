// C shim for the live MIDI synth section of CAudioEngine.h: argument checks, handle <-> object,
// no exception crossing the boundary. JACK and ALSA synths behind one handle.
#include <cmath>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "backend/alsa/AlsaSynth.hpp"
#include "backend/jack/JackSynth.hpp"
#include "capi/TuningHandle.hpp"
#include "engine/OutputStage.hpp"
#include "include/CAudioEngine.h"
#include "include/CAudioEngineSynth.h"

struct boop_synth {
    boop::JackSynth jack;
    std::unique_ptr<boop::AlsaSynth> alsa;  // set when the ALSA backend was opened
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
    config->device = "default";
    config->sample_rate = 48000;
    config->period_frames = 256;
    config->periods = 3;
    boop_output_config_default(&config->output);
}

namespace {
bool validSynthConfig(const boop_synth_config& c) {
    if (c.backend != BOOP_BACKEND_JACK && c.backend != BOOP_BACKEND_ALSA) return false;
    if (!boop::OutputStage::isValid(c.output)) return false;
    if (c.voices < BOOP_ENGINE_VOICES_MIN || c.voices > BOOP_ENGINE_VOICES_MAX) return false;
    if (!(std::isfinite(c.bend_range) && c.bend_range >= BOOP_SYNTH_BEND_RANGE_MIN &&
          c.bend_range <= BOOP_SYNTH_BEND_RANGE_MAX))
        return false;
    for (int v : c.channel_voice)
        if (!boop::MidiSynth::isVoice(v)) return false;
    if (c.backend == BOOP_BACKEND_ALSA &&
        (c.device == nullptr || c.device[0] == '\0' ||
         !(c.sample_rate >= BOOP_ENGINE_RATE_MIN && c.sample_rate <= BOOP_ENGINE_RATE_MAX) ||
         c.period_frames < BOOP_PERIOD_FRAMES_MIN || c.period_frames > BOOP_PERIOD_FRAMES_MAX ||
         c.periods < BOOP_PERIODS_MIN || c.periods > BOOP_PERIODS_MAX))
        return false;
    return true;
}

boop_status openAlsa(const boop_synth_config& config, boop_synth& s, std::string& why) {
    boop::AlsaSynth::Config cfg;
    cfg.pcm.device = config.device;
    cfg.pcm.periodFrames = config.period_frames;
    cfg.pcm.periods = config.periods;
    cfg.pcm.adaptive = false;  // the MIDI delay is one period: it must not grow under the player
    cfg.seq.clientName = config.client_name != nullptr ? config.client_name : "boop";
    cfg.sampleRate = config.sample_rate;
    cfg.voices = config.voices;
    cfg.bendRange = config.bend_range;
    cfg.output = config.output;
    for (int c = 0; c < BOOP_MIDI_CHANNELS; ++c) cfg.channelVoices[c] = config.channel_voice[c];
    s.alsa = std::make_unique<boop::AlsaSynth>();
    return s.alsa->open(cfg, why);
}

boop_status openJack(const boop_synth_config& config, boop_synth& s) {
    boop::JackSynth::Config cfg;
    cfg.clientName = config.client_name != nullptr ? config.client_name : "boop";
    cfg.connect = config.connect != 0;
    cfg.voices = config.voices;
    cfg.bendRange = config.bend_range;
    cfg.output = config.output;
    for (int c = 0; c < BOOP_MIDI_CHANNELS; ++c) cfg.channelVoices[c] = config.channel_voice[c];
    return s.jack.open(cfg);
}
}  // namespace

boop_status boop_synth_open_why(const boop_synth_config* config, boop_synth** out_synth, char* why, size_t why_size) {
    if (why != nullptr && why_size > 0) why[0] = '\0';
    if (config == nullptr || out_synth == nullptr || !validSynthConfig(*config)) return BOOP_ERROR_INVALID_ARGUMENT;
    *out_synth = nullptr;
    std::unique_ptr<boop_synth> s(new (std::nothrow) boop_synth);
    if (!s) return BOOP_ERROR_OUT_OF_MEMORY;
    boop_status status = BOOP_ERROR_INTERNAL;
    std::string reason;
    try {
        status = config->backend == BOOP_BACKEND_ALSA ? openAlsa(*config, *s, reason) : openJack(*config, *s);
    } catch (...) {
        status = BOOP_ERROR_OUT_OF_MEMORY;
    }
    if (status != BOOP_OK) {
        if (why != nullptr && why_size > 0) {
            std::strncpy(why, reason.c_str(), why_size - 1);
            why[why_size - 1] = '\0';
        }
        return status;
    }
    *out_synth = s.release();
    return BOOP_OK;
}

boop_status boop_synth_open(const boop_synth_config* config, boop_synth** out_synth) {
    return boop_synth_open_why(config, out_synth, nullptr, 0);
}

double boop_synth_sample_rate(const boop_synth* synth) {
    if (synth == nullptr) return 0.0;
    return synth->alsa ? synth->alsa->sampleRate() : synth->jack.sampleRate();
}

uint32_t boop_synth_buffer_frames(const boop_synth* synth) {
    if (synth == nullptr) return 0;
    return synth->alsa ? synth->alsa->periodFrames() : synth->jack.bufferFrames();
}

uint32_t boop_synth_output_latency_frames(const boop_synth* synth) {
    if (synth == nullptr) return 0;
    return synth->alsa ? synth->alsa->outputLatency() : synth->jack.outputLatency();
}

const char* boop_synth_midi_port(const boop_synth* synth) {
    if (synth == nullptr) return "";
    return synth->alsa ? synth->alsa->midiPortName() : synth->jack.midiPortName();
}

boop_status boop_synth_start(boop_synth* synth) {
    if (synth == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    return synth->alsa ? synth->alsa->start() : synth->jack.start();
}

boop_status boop_synth_connect_midi(boop_synth* synth, const char* source) {
    if (synth == nullptr || source == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    if (!synth->alsa) return synth->jack.connectMidi(source);
    std::string why;
    try {
        return synth->alsa->connectMidi(source, why);
    } catch (...) {
        return BOOP_ERROR_OUT_OF_MEMORY;
    }
}

boop_status boop_synth_fade_out(boop_synth* synth, double seconds) {
    if (synth == nullptr || !(seconds >= 0.001 && seconds <= 10.0)) return BOOP_ERROR_INVALID_ARGUMENT;
    if (synth->alsa)
        synth->alsa->fadeOut(seconds);
    else
        synth->jack.fadeOut(seconds);
    return BOOP_OK;
}

namespace {
template <typename Synth>
void fillCommon(const Synth& j, boop_synth_stats& s) {
    s.messages = j.messages();
    s.ignored = j.ignored();
    if (const boop::MidiSynth* m = j.synth()) {
        s.notes_held = m->notesHeld();
        s.last_note = m->lastNote();
    }
    s.voices = j.voices();
    s.frames = j.framesRendered();
}
}  // namespace

boop_synth_stats boop_synth_get_stats(const boop_synth* synth) {
    boop_synth_stats s{};
    s.last_note = -1;
    if (synth == nullptr) return s;
    if (synth->alsa) {
        fillCommon(*synth->alsa, s);
        const boop_playback_stats p = synth->alsa->playbackStats();
        s.xruns = p.xruns;
        s.error = p.error;
        s.late = synth->alsa->late();
        return s;
    }
    const boop::JackSynth& j = synth->jack;
    fillCommon(j, s);
    s.malformed_bytes = j.malformed();
    s.xruns = j.xruns();
    s.error = j.error();
    return s;
}

int boop_synth_next_event(boop_synth* synth, boop_midi_event* out_event) {
    if (synth == nullptr || out_event == nullptr) return 0;
    boop::MidiLogEntry e;
    if (!(synth->alsa ? synth->alsa->nextLogged(e) : synth->jack.nextLogged(e))) return 0;
    *out_event = boop_midi_event{e.frame, e.status, e.data1, e.data2};
    return 1;
}

uint64_t boop_synth_log_dropped(const boop_synth* synth) {
    if (synth == nullptr) return 0;
    return synth->alsa ? synth->alsa->logDropped() : synth->jack.logDropped();
}

boop_status boop_synth_record(boop_synth* synth, const char* path) {
    if (synth == nullptr || path == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    try {
        return synth->alsa ? synth->alsa->record(path) : synth->jack.record(path);
    } catch (...) {
        return BOOP_ERROR_OUT_OF_MEMORY;
    }
}

boop_status boop_synth_finish_record(boop_synth* synth) {
    if (synth == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    try {
        return synth->alsa ? synth->alsa->finishRecording() : synth->jack.finishRecording();
    } catch (...) {
        return BOOP_ERROR_OUT_OF_MEMORY;
    }
}

const char* boop_synth_record_error(const boop_synth* synth) {
    if (synth == nullptr) return "";
    return synth->alsa ? synth->alsa->recordError() : synth->jack.recordError();
}

uint64_t boop_synth_record_dropped(const boop_synth* synth) {
    if (synth == nullptr) return 0;
    return synth->alsa ? synth->alsa->recordDropped() : synth->jack.recordDropped();
}

void boop_synth_stop(boop_synth* synth) {
    if (synth == nullptr) return;
    if (synth->alsa)
        synth->alsa->stop();
    else
        synth->jack.stop();
}

void boop_synth_destroy(boop_synth* synth) { delete synth; }

boop_status boop_synth_set_channel_sound(boop_synth* synth, uint32_t channel, const boop_instrument* sound) {
    if (synth == nullptr || sound == nullptr || channel >= BOOP_MIDI_CHANNELS || !boop::isVoice(sound->voice))
        return BOOP_ERROR_INVALID_ARGUMENT;
    const int ch = static_cast<int>(channel);
    return synth->alsa ? synth->alsa->setChannelSound(ch, *sound) : synth->jack.setChannelSound(ch, *sound);
}

boop_status boop_synth_set_lookahead(boop_synth* synth, int lookahead) {
    if (synth == nullptr || (lookahead != 0 && lookahead != 1)) return BOOP_ERROR_INVALID_ARGUMENT;
    return synth->alsa ? synth->alsa->setLookahead(lookahead != 0) : synth->jack.setLookahead(lookahead != 0);
}

boop_status boop_synth_set_tuning(boop_synth* synth, const boop_tuning* tuning) {
    if (synth == nullptr || tuning == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    return synth->alsa ? synth->alsa->setTuning(tuning->tuning) : synth->jack.setTuning(tuning->tuning);
}

boop_status boop_synth_set_mpe(boop_synth* synth, int lower, int upper) {
    if (synth == nullptr || lower < 0 || upper < 0 || lower > BOOP_SYNTH_MPE_MEMBERS_MAX ||
        upper > BOOP_SYNTH_MPE_MEMBERS_MAX || lower + upper > (lower && upper ? 14 : 15))
        return BOOP_ERROR_INVALID_ARGUMENT;
    return synth->alsa ? synth->alsa->setMpe(lower, upper) : synth->jack.setMpe(lower, upper);
}

boop_status boop_synth_suspend(boop_synth* synth) {
    if (synth == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    return synth->alsa ? BOOP_OK : synth->jack.suspend();
}

boop_status boop_synth_resume(boop_synth* synth) {
    if (synth == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    return synth->alsa ? BOOP_OK : synth->jack.resume();
}
