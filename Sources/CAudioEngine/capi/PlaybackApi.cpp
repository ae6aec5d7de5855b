// C shim for the ALSA playback section of CAudioEngine.h: argument checks, handle <-> object,
// and no exception crossing the boundary.
#include <new>

#include "backend/alsa/AlsaPlayback.hpp"
#include "backend/jack/JackClient.hpp"
#include "include/CAudioEngine.h"

// One handle, one backend: the functions below dispatch on which one was opened.
struct boop_playback {
    boop::AlsaPlayback alsa;
    boop::JackPlayback jack;
    bool usesJack = false;
};

extern "C" {

void boop_playback_config_default(boop_playback_config* config) {
    if (config == nullptr) return;
    config->device = "default";
    config->period_frames = 128;
    config->periods = 3;
    config->realtime_priority = 70;
    config->adaptive = 1;
    config->backend = BOOP_BACKEND_ALSA;
    config->client_name = "boop";
    config->connect = 1;
}

boop_status boop_playback_open(const boop_playback_config* config, double sample_rate, uint32_t channels,
                               boop_playback** out_playback) {
    if (out_playback == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    *out_playback = nullptr;
    boop_playback_config defaults;
    boop_playback_config_default(&defaults);
    const boop_playback_config& c = config != nullptr ? *config : defaults;
    boop::AlsaPlayback::Config cfg;
    cfg.device = c.device != nullptr ? c.device : "default";
    cfg.periodFrames = c.period_frames != 0 ? c.period_frames : 128;
    cfg.periods = c.periods != 0 ? c.periods : 3;
    cfg.realtimePriority = c.realtime_priority;
    cfg.adaptive = c.adaptive != 0;
    try {
        if (c.backend != BOOP_BACKEND_ALSA && c.backend != BOOP_BACKEND_JACK) return BOOP_ERROR_INVALID_ARGUMENT;
        auto* p = new (std::nothrow) boop_playback();
        if (p == nullptr) return BOOP_ERROR_OUT_OF_MEMORY;
        p->usesJack = c.backend == BOOP_BACKEND_JACK;
        boop::JackPlayback::Config jcfg;
        jcfg.clientName = c.client_name != nullptr ? c.client_name : "boop";
        jcfg.connect = c.connect != 0;
        const boop_status s =
            p->usesJack ? p->jack.open(jcfg, sample_rate, channels) : p->alsa.open(cfg, sample_rate, channels);
        if (s != BOOP_OK) {
            delete p;
            return s;
        }
        *out_playback = p;
        return BOOP_OK;
    } catch (...) {
        return BOOP_ERROR_INTERNAL;
    }
}

boop_playback_info boop_playback_get_info(const boop_playback* playback) {
    if (playback == nullptr) {
        boop_playback_info none{};
        none.format = "";
        return none;
    }
    return playback->usesJack ? playback->jack.info() : playback->alsa.info();
}

boop_status boop_playback_start(boop_playback* playback, boop_source source) {
    if (playback == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    try {
        return playback->usesJack ? playback->jack.start(source) : playback->alsa.start(source);
    } catch (...) {
        return BOOP_ERROR_INTERNAL;
    }
}

boop_playback_stats boop_playback_get_stats(const boop_playback* playback) {
    if (playback == nullptr) {
        boop_playback_stats none{};
        none.error = BOOP_ERROR_INVALID_ARGUMENT;
        return none;
    }
    return playback->usesJack ? playback->jack.stats() : playback->alsa.stats();
}

void boop_playback_stop(boop_playback* playback, int drain) {
    if (playback == nullptr) return;
    try {
        if (playback->usesJack)
            playback->jack.stop(drain != 0);
        else
            playback->alsa.stop(drain != 0);
    } catch (...) {}
}

void boop_playback_destroy(boop_playback* playback) {
    if (playback == nullptr) return;
    try {
        if (playback->usesJack)
            playback->jack.stop(false);
        else
            playback->alsa.stop(false);
    } catch (...) {}
    delete playback;
}

}  // extern "C"
