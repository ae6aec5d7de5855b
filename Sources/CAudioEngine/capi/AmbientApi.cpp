// C shim for the generative ambient section of CAudioEngine.h: checks arguments, owns the
// C++ object behind the opaque handle, and keeps every exception on this side of the boundary.
#include <cstring>
#include <memory>
#include <new>
#include "ambient/AmbientEngine.hpp"
#include "capi/Guarded.hpp"
#include "include/CAudioEngine.h"

struct boop_ambient {
    boop::ambient::AmbientEngine engine;
    explicit boop_ambient(const boop_ambient_config& c) : engine(c) {}
};

namespace {

// The audio thread enters here; the C declaration cannot carry noexcept/nonblocking, so the
// checked real-time path is this function and AmbientEngine::render.
boop_status renderChecked(boop_ambient* ambient, float* out, uint32_t frames) BOOP_RT {
    if (!ambient || (!out && frames > 0)) return BOOP_ERROR_INVALID_ARGUMENT;
    ambient->engine.render(out, frames);
    return BOOP_OK;
}

boop_status renderSource(void* context, float* out, uint32_t frames) BOOP_RT {
    return renderChecked(static_cast<boop_ambient*>(context), out, frames);
}

constexpr double kMeasureSeconds = 20.0;

bool validSeconds(double s, double hi) noexcept { return s == s && s >= 0.0 && s <= hi; }

}  // namespace

extern "C" {

void boop_ambient_config_default(boop_ambient_config* config) {
    if (config) boop::ambient::defaultConfig(*config);
}

boop_status boop_ambient_config_check(const boop_ambient_config* config, const char** field) {
    if (!config) {
        if (field) *field = "config";
        return BOOP_ERROR_INVALID_ARGUMENT;
    }
    const char* bad = boop::ambient::checkConfig(*config);
    if (field) *field = bad;
    return bad ? BOOP_ERROR_INVALID_ARGUMENT : BOOP_OK;
}

boop_status boop_ambient_create(const boop_ambient_config* config, boop_ambient** out) {
    if (!out) return BOOP_ERROR_INVALID_ARGUMENT;
    *out = nullptr;
    boop_ambient_config c;
    if (config)
        c = *config;
    else
        boop::ambient::defaultConfig(c);
    if (boop::ambient::checkConfig(c)) return BOOP_ERROR_INVALID_ARGUMENT;
    return boop::capi::guarded([&] {
        auto a = std::make_unique<boop_ambient>(c);
        // Every piece at one loudness: what this one measures over its first 20 s (after the
        // fade-in) sets the starting gain; the follower keeps it there as the piece wanders.
        // Measured on the engine itself, whose first seconds are then not rendered again, unless
        // they held something not finite: then on an engine of its own, as the render's effects
        // are reset where it appears.
        double lufs = 0;
        if (!a->engine.measureAhead(kMeasureSeconds, lufs)) {
            a = std::make_unique<boop_ambient>(c);
            lufs = boop::ambient::AmbientEngine::measureLoudness(c, kMeasureSeconds);
        }
        a->engine.normalize(BOOP_AMBIENT_LOUDNESS_LUFS, lufs);
        *out = a.release();
        return BOOP_OK;
    });
}

void boop_ambient_destroy(boop_ambient* ambient) { delete ambient; }

boop_status boop_ambient_render(boop_ambient* ambient, float* out, uint32_t frames) {
    if (ambient && ambient->engine.hasWorker()) {
        if (!out && frames > 0) return BOOP_ERROR_INVALID_ARGUMENT;
        ambient->engine.renderWithWorker(out, frames);
        return BOOP_OK;
    }
    return renderChecked(ambient, out, frames);
}

boop_status boop_ambient_start_worker(boop_ambient* ambient) {
    if (!ambient) return BOOP_ERROR_INVALID_ARGUMENT;
    if (ambient->engine.hasWorker() || ambient->engine.frame() != 0) return BOOP_ERROR_ALREADY_RUNNING;
    try {
        return ambient->engine.startWorker() ? BOOP_OK : BOOP_ERROR_INTERNAL;
    } catch (const std::bad_alloc&) {
        return BOOP_ERROR_OUT_OF_MEMORY;
    }
}

boop_source boop_ambient_source(boop_ambient* ambient) {
    boop_source s;
    std::memset(&s, 0, sizeof s);
    if (!ambient) return s;
    s.render = renderSource;
    s.context = ambient;
    s.channels = 2;
    s.max_block_frames = ambient->engine.config().max_block_frames;
    s.sample_rate = ambient->engine.config().sample_rate;
    return s;
}

boop_status boop_ambient_fade_out(boop_ambient* ambient, double seconds) {
    if (!ambient || !validSeconds(seconds, 60.0)) return BOOP_ERROR_INVALID_ARGUMENT;
    ambient->engine.requestFadeOut(seconds);
    return BOOP_OK;
}

boop_status boop_ambient_set_paused(boop_ambient* ambient, int paused, double fade_seconds) {
    if (!ambient || !validSeconds(fade_seconds, 10.0)) return BOOP_ERROR_INVALID_ARGUMENT;
    ambient->engine.requestPause(paused != 0, fade_seconds);
    return BOOP_OK;
}

void boop_ambient_get_status(const boop_ambient* ambient, boop_ambient_status* status) {
    if (!status) return;
    if (!ambient) {
        std::memset(status, 0, sizeof *status);
        return;
    }
    ambient->engine.status(*status);
}

const boop_ambient_range* boop_ambient_range_of(const char* field) { return boop::ambient::rangeOf(field); }

const char* boop_ambient_key_name(int32_t key) {
    if (key < 0 || key > 11) return "?";
    return boop::ambient::HarmonyManager::noteName(key);
}

const char* boop_ambient_spelled_name(int32_t key, int32_t spelling) {
    if (spelling < BOOP_AMBIENT_SPELLING_CONVENTIONAL || spelling > BOOP_AMBIENT_SPELLING_FLATS) return nullptr;
    return boop::ambient::noteName(key, static_cast<boop::ambient::Spelling>(spelling));
}

const char* boop_ambient_scale_name(int32_t scale) { return boop::ambient::HarmonyManager::scaleName(scale); }

}  // extern "C"
