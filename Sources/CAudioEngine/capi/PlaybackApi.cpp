// C shim for the playback section of CAudioEngine.h: argument checks, handle <-> object, and no
// exception crossing the boundary. Thread rules are the header's: open/start/stop/destroy from
// one control thread; info and stats from any thread.
#include <memory>
#include <new>

#include "backend/alsa/AlsaPlayback.hpp"
#include "backend/jack/JackClient.hpp"
#include "include/CAudioEngine.h"

// One handle, one backend: whichever the config named, behind the backend interface.
struct boop_playback {
    std::unique_ptr<boop::PlaybackBackend> backend;
};

namespace {

// Opens the backend the config names, or returns its status.
boop_status openBackend(const boop_playback_config& c, double sampleRate, uint32_t channels,
                        std::unique_ptr<boop::PlaybackBackend>& out) {
    if (c.backend == BOOP_BACKEND_JACK) {
        boop::JackPlayback::Config cfg;
        cfg.clientName = c.client_name != nullptr ? c.client_name : "boop";
        cfg.connect = c.connect != 0;
        auto jack = std::make_unique<boop::JackPlayback>();
        const boop_status s = jack->open(cfg, sampleRate, channels);
        if (s == BOOP_OK) out = std::move(jack);
        return s;
    }
    boop::AlsaPlayback::Config cfg;
    cfg.device = c.device != nullptr ? c.device : "default";
    cfg.periodFrames = c.period_frames != 0 ? c.period_frames : 128;
    cfg.periods = c.periods != 0 ? c.periods : 3;
    cfg.realtimePriority = c.realtime_priority;
    cfg.adaptive = c.adaptive != 0;
    auto alsa = std::make_unique<boop::AlsaPlayback>();
    const boop_status s = alsa->open(cfg, sampleRate, channels);
    if (s == BOOP_OK) out = std::move(alsa);
    return s;
}

}  // namespace

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
    if (c.backend != BOOP_BACKEND_ALSA && c.backend != BOOP_BACKEND_JACK) return BOOP_ERROR_INVALID_ARGUMENT;
    try {
        std::unique_ptr<boop::PlaybackBackend> backend;
        const boop_status s = openBackend(c, sample_rate, channels, backend);
        if (s != BOOP_OK) return s;
        auto* p = new boop_playback();
        p->backend = std::move(backend);
        *out_playback = p;
        return BOOP_OK;
    } catch (const std::bad_alloc&) {
        return BOOP_ERROR_OUT_OF_MEMORY;
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
    return playback->backend->info();
}

boop_status boop_playback_start(boop_playback* playback, boop_source source) {
    if (playback == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    try {
        return playback->backend->start(source);
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
    return playback->backend->stats();
}

void boop_playback_stop(boop_playback* playback, int drain) {
    if (playback == nullptr) return;
    try {
        playback->backend->stop(drain != 0);
    } catch (...) {}
}

void boop_playback_destroy(boop_playback* playback) {
    if (playback == nullptr) return;
    try {
        playback->backend->stop(false);
    } catch (...) {}
    delete playback;
}

}  // extern "C"
