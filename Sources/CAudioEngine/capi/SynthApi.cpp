// C shim for the live MIDI synth section of CAudioEngine.h: argument checks, handle <-> object,
// no exception crossing the boundary. JACK and ALSA synths behind one handle.
#include <cmath>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "backend/alsa/AlsaSynth.hpp"
#include "backend/jack/JackSynth.hpp"
#include "capi/Guarded.hpp"
#include "capi/TuningHandle.hpp"
#include "engine/OutputStage.hpp"
#include "include/CAudioEngine.h"
#include "include/CAudioEngineSynth.h"

// One handle, one host: whichever backend the config named, behind the host interface.
struct boop_synth {
    std::unique_ptr<boop::SynthHost> host;
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

boop::SynthHost::Settings settingsOf(const boop_synth_config& config) {
    boop::SynthHost::Settings settings;
    settings.voices = config.voices;
    settings.bendRange = config.bend_range;
    settings.output = config.output;
    for (int c = 0; c < BOOP_MIDI_CHANNELS; ++c) settings.channelVoices[c] = config.channel_voice[c];
    return settings;
}

boop_status openAlsa(const boop_synth_config& config, boop_synth& s, std::string& why) {
    boop::AlsaSynth::Config cfg;
    cfg.pcm.device = config.device;
    cfg.pcm.periodFrames = config.period_frames;
    cfg.pcm.periods = config.periods;
    cfg.pcm.adaptive = false;  // the MIDI delay is one period: it must not grow under the player
    cfg.seq.clientName = config.client_name != nullptr ? config.client_name : "boop";
    cfg.sampleRate = config.sample_rate;
    cfg.synth = settingsOf(config);
    auto alsa = std::make_unique<boop::AlsaSynth>();
    const boop_status status = alsa->open(cfg, why);
    s.host = std::move(alsa);
    return status;
}

boop_status openJack(const boop_synth_config& config, boop_synth& s, std::string& why) {
    boop::JackSynth::Config cfg;
    cfg.clientName = config.client_name != nullptr ? config.client_name : "boop";
    cfg.connect = config.connect != 0;
    cfg.synth = settingsOf(config);
    auto jack = std::make_unique<boop::JackSynth>();
    const boop_status status = jack->open(cfg);
    why = jack->openWhy();
    s.host = std::move(jack);
    return status;
}
}  // namespace

boop_status boop_synth_open_why(const boop_synth_config* config, boop_synth** out_synth, char* why, size_t why_size) {
    boop::capi::writeWhy(why, why_size, "");
    if (config == nullptr || out_synth == nullptr || !validSynthConfig(*config)) return BOOP_ERROR_INVALID_ARGUMENT;
    *out_synth = nullptr;
    std::unique_ptr<boop_synth> s(new (std::nothrow) boop_synth);
    if (!s) return BOOP_ERROR_OUT_OF_MEMORY;
    boop_status status = BOOP_ERROR_INTERNAL;
    std::string reason;
    try {
        status = config->backend == BOOP_BACKEND_ALSA ? openAlsa(*config, *s, reason) : openJack(*config, *s, reason);
    } catch (...) {
        status = BOOP_ERROR_OUT_OF_MEMORY;
    }
    if (status != BOOP_OK) {
        boop::capi::writeWhy(why, why_size, reason.c_str());
        return status;
    }
    *out_synth = s.release();
    return BOOP_OK;
}

boop_status boop_synth_open(const boop_synth_config* config, boop_synth** out_synth) {
    return boop_synth_open_why(config, out_synth, nullptr, 0);
}

double boop_synth_sample_rate(const boop_synth* synth) { return synth != nullptr ? synth->host->sampleRate() : 0.0; }

uint32_t boop_synth_buffer_frames(const boop_synth* synth) {
    return synth != nullptr ? synth->host->periodFrames() : 0;
}

uint32_t boop_synth_output_latency_frames(const boop_synth* synth) {
    return synth != nullptr ? synth->host->outputLatency() : 0;
}

const char* boop_synth_midi_port(const boop_synth* synth) {
    return synth != nullptr ? synth->host->midiPortName() : "";
}

boop_status boop_synth_start(boop_synth* synth) {
    return synth != nullptr ? synth->host->start() : BOOP_ERROR_INVALID_ARGUMENT;
}

boop_status boop_synth_connect_midi(boop_synth* synth, const char* source) {
    if (synth == nullptr || source == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    std::string why;
    return boop::capi::guarded([&] { return synth->host->connectMidi(source, why); });
}

boop_status boop_synth_fade_out(boop_synth* synth, double seconds) {
    if (synth == nullptr || !(seconds >= 0.001 && seconds <= 10.0)) return BOOP_ERROR_INVALID_ARGUMENT;
    synth->host->fadeOut(seconds);
    return BOOP_OK;
}

boop_synth_stats boop_synth_get_stats(const boop_synth* synth) {
    if (synth != nullptr) return synth->host->stats();
    boop_synth_stats s{};
    s.last_note = -1;
    return s;
}

int boop_synth_ended_fd(const boop_synth* synth) { return synth != nullptr ? synth->host->endedDescriptor() : -1; }

int boop_synth_next_event(boop_synth* synth, boop_midi_event* out_event) {
    if (synth == nullptr || out_event == nullptr) return 0;
    boop::MidiLogEntry e;
    if (!synth->host->nextLogged(e)) return 0;
    *out_event = boop_midi_event{e.frame, e.status, e.data1, e.data2};
    return 1;
}

uint64_t boop_synth_log_dropped(const boop_synth* synth) { return synth != nullptr ? synth->host->logDropped() : 0; }

boop_status boop_synth_record(boop_synth* synth, const char* path) {
    if (synth == nullptr || path == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    return boop::capi::guarded([&] { return synth->host->record(path); });
}

boop_status boop_synth_finish_record(boop_synth* synth) {
    if (synth == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    return boop::capi::guarded([&] { return synth->host->finishRecording(); });
}

const char* boop_synth_record_error(const boop_synth* synth) {
    return synth != nullptr ? synth->host->recordError() : "";
}

uint64_t boop_synth_record_dropped(const boop_synth* synth) {
    return synth != nullptr ? synth->host->recordDropped() : 0;
}

void boop_synth_stop(boop_synth* synth) {
    if (synth != nullptr) synth->host->stop();
}

void boop_synth_destroy(boop_synth* synth) { delete synth; }

boop_status boop_synth_set_channel_sound(boop_synth* synth, uint32_t channel, const boop_instrument* sound) {
    if (synth == nullptr || sound == nullptr || channel >= BOOP_MIDI_CHANNELS || !boop::isVoice(sound->voice))
        return BOOP_ERROR_INVALID_ARGUMENT;
    return synth->host->setChannelSound(static_cast<int>(channel), *sound);
}

boop_status boop_synth_set_lookahead(boop_synth* synth, int lookahead) {
    if (synth == nullptr || (lookahead != 0 && lookahead != 1)) return BOOP_ERROR_INVALID_ARGUMENT;
    return synth->host->setLookahead(lookahead != 0);
}

boop_status boop_synth_set_tuning(boop_synth* synth, const boop_tuning* tuning) {
    if (synth == nullptr || tuning == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    return synth->host->setTuning(tuning->tuning);
}

boop_status boop_synth_set_mpe(boop_synth* synth, int lower, int upper) {
    if (synth == nullptr || lower < 0 || upper < 0 || lower > BOOP_SYNTH_MPE_MEMBERS_MAX ||
        upper > BOOP_SYNTH_MPE_MEMBERS_MAX || lower + upper > (lower && upper ? 14 : 15))
        return BOOP_ERROR_INVALID_ARGUMENT;
    return synth->host->setMpe(lower, upper);
}

boop_status boop_synth_suspend(boop_synth* synth) {
    return synth != nullptr ? synth->host->suspend() : BOOP_ERROR_INVALID_ARGUMENT;
}

boop_status boop_synth_resume(boop_synth* synth) {
    return synth != nullptr ? synth->host->resume() : BOOP_ERROR_INVALID_ARGUMENT;
}
