// C shim for the output stage and the loudness meter (CAudioEngine.h, "The output stage and
// loudness"): argument checks, handle <-> object, no exception across the boundary.
#include <atomic>
#include <cmath>
#include <new>

#include "dsp/LoudnessMeter.hpp"
#include "dsp/TruePeak.hpp"
#include "dsp/TruePeakLimiter.hpp"
#include "engine/SourceCrossfader.hpp"
#include "include/CAudioEngine.h"
#include "rt/Realtime.hpp"

struct boop_limiter {
    boop::TruePeakLimiter impl;
    double sampleRate = 44100;
    uint32_t channels = 1;
    // Written by the control thread, read by the processing thread at each block.
    std::atomic<float> gain{1.0f};
    std::atomic<float> reduction{0.0f};  // the deepest reduction (dB) not yet taken
    boop_source inner{};
};

struct boop_crossfader {
    boop::SourceCrossfader impl;
    explicit boop_crossfader(const boop_source& first) : impl(first) {}
};

struct boop_loudness {
    boop::LoudnessMeter meter;
    boop::TruePeak peaks[2];
    uint32_t channels = 1;
    float truePeak = 0.0f;
};

static_assert(std::atomic<float>::is_always_lock_free, "the gain is shared with the audio thread");

namespace {

boop_status processLimiter(boop_limiter* l, float* io, uint32_t frames) BOOP_RT {
    l->impl.setGain(l->gain.load(std::memory_order_relaxed));
    l->impl.process(io, frames);
    const float r = l->impl.takeMaxReductionDb();
    if (r < l->reduction.load(std::memory_order_relaxed)) l->reduction.store(r, std::memory_order_relaxed);
    return BOOP_OK;
}

// Not BOOP_RT itself: it calls the inner source through a function pointer, which the compiler
// cannot check; every source's render is BOOP_RT where it is defined (engine, ambient).
boop_status renderLimited(void* context, float* out, uint32_t frames) noexcept {
    auto* l = static_cast<boop_limiter*>(context);
    const boop_status s = l->inner.render(l->inner.context, out, frames);
    if (s != BOOP_OK) return s;
    return processLimiter(l, out, frames);
}

boop_status renderCrossfader(void* context, float* out, uint32_t frames) noexcept {
    return static_cast<boop_crossfader*>(context)->impl.render(out, frames);
}

}  // namespace

extern "C" {

boop_status boop_limiter_create(double sample_rate, uint32_t channels, boop_limiter** out_limiter) {
    if (out_limiter == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    *out_limiter = nullptr;
    if (!(sample_rate >= BOOP_ENGINE_RATE_MIN && sample_rate <= BOOP_ENGINE_RATE_MAX) || channels < 1 || channels > 2)
        return BOOP_ERROR_INVALID_ARGUMENT;
    try {
        auto* l = new boop_limiter();
        l->sampleRate = sample_rate;
        l->channels = channels;
        l->impl.prepare(sample_rate, static_cast<int>(channels), BOOP_CEILING_DBTP);
        *out_limiter = l;
        return BOOP_OK;
    } catch (const std::bad_alloc&) {
        return BOOP_ERROR_OUT_OF_MEMORY;
    } catch (...) {
        return BOOP_ERROR_INTERNAL;
    }
}

void boop_limiter_destroy(boop_limiter* limiter) { delete limiter; }

boop_status boop_limiter_set_gain_db(boop_limiter* limiter, double gain_db) {
    if (limiter == nullptr || !(gain_db >= BOOP_GAIN_DB_MIN && gain_db <= BOOP_GAIN_DB_MAX))
        return BOOP_ERROR_INVALID_ARGUMENT;
    limiter->gain.store(static_cast<float>(std::pow(10.0, gain_db / 20.0)), std::memory_order_relaxed);
    // Before the first frame the gain applies at once (the render is scaled exactly).
    return BOOP_OK;
}

uint32_t boop_limiter_latency_frames(const boop_limiter* limiter) {
    return limiter != nullptr ? limiter->impl.latency() : 0;
}

boop_status boop_limiter_process(boop_limiter* limiter, float* interleaved, uint32_t frames) {
    if (limiter == nullptr || (interleaved == nullptr && frames > 0)) return BOOP_ERROR_INVALID_ARGUMENT;
    return processLimiter(limiter, interleaved, frames);
}

float boop_limiter_take_reduction_db(boop_limiter* limiter) {
    return limiter != nullptr ? limiter->reduction.exchange(0.0f, std::memory_order_relaxed) : 0.0f;
}

boop_source boop_limiter_source(boop_limiter* limiter, boop_source inner) {
    boop_source s{};
    if (limiter == nullptr || inner.render == nullptr || inner.channels != limiter->channels ||
        inner.sample_rate != limiter->sampleRate)
        return s;
    limiter->inner = inner;
    s.render = renderLimited;
    s.context = limiter;
    s.channels = inner.channels;
    s.max_block_frames = inner.max_block_frames;
    s.sample_rate = inner.sample_rate;
    return s;
}

boop_status boop_loudness_create(double sample_rate, uint32_t channels, boop_loudness** out_meter) {
    if (out_meter == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    *out_meter = nullptr;
    if (!(sample_rate >= BOOP_ENGINE_RATE_MIN && sample_rate <= BOOP_ENGINE_RATE_MAX) || channels < 1 || channels > 2)
        return BOOP_ERROR_INVALID_ARGUMENT;
    try {
        auto* m = new boop_loudness();
        m->channels = channels;
        m->meter.prepare(sample_rate, static_cast<int>(channels));
        for (auto& p : m->peaks) p.prepare();
        *out_meter = m;
        return BOOP_OK;
    } catch (const std::bad_alloc&) {
        return BOOP_ERROR_OUT_OF_MEMORY;
    } catch (...) {
        return BOOP_ERROR_INTERNAL;
    }
}

void boop_loudness_destroy(boop_loudness* meter) { delete meter; }

boop_status boop_loudness_add(boop_loudness* m, const float* interleaved, uint64_t frames) {
    if (m == nullptr || (interleaved == nullptr && frames > 0)) return BOOP_ERROR_INVALID_ARGUMENT;
    m->meter.add(interleaved, frames);
    for (uint64_t i = 0; i < frames; ++i)
        for (uint32_t c = 0; c < m->channels; ++c)
            m->truePeak = std::fmax(m->truePeak, m->peaks[c].process(interleaved[i * m->channels + c]));
    return BOOP_OK;
}

boop_status boop_crossfader_create(boop_source first, boop_crossfader** out_crossfader) {
    if (out_crossfader == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    *out_crossfader = nullptr;
    if (first.render == nullptr || first.channels < 1 || first.max_block_frames < 1) return BOOP_ERROR_INVALID_ARGUMENT;
    try {
        *out_crossfader = new boop_crossfader(first);
        return BOOP_OK;
    } catch (const std::bad_alloc&) {
        return BOOP_ERROR_OUT_OF_MEMORY;
    } catch (...) {
        return BOOP_ERROR_INTERNAL;
    }
}

void boop_crossfader_destroy(boop_crossfader* crossfader) { delete crossfader; }

boop_source boop_crossfader_source(boop_crossfader* crossfader) {
    boop_source s{};
    if (crossfader == nullptr) return s;
    s.render = renderCrossfader;
    s.context = crossfader;
    s.channels = crossfader->impl.channels();
    s.max_block_frames = crossfader->impl.maxFrames();
    s.sample_rate = crossfader->impl.sampleRate();
    return s;
}

boop_status boop_crossfader_fade_to(boop_crossfader* crossfader, boop_source next, double seconds) {
    if (crossfader == nullptr || next.render == nullptr || next.channels != crossfader->impl.channels() ||
        next.sample_rate != crossfader->impl.sampleRate() || next.max_block_frames < crossfader->impl.maxFrames() ||
        !(seconds >= 0.001 && seconds <= 60))
        return BOOP_ERROR_INVALID_ARGUMENT;
    return crossfader->impl.fadeTo(next, seconds) ? BOOP_OK : BOOP_ERROR_ALREADY_RUNNING;
}

int boop_crossfader_idle(const boop_crossfader* crossfader) {
    return crossfader != nullptr && crossfader->impl.idle() ? 1 : 0;
}

double boop_loudness_integrated(const boop_loudness* m) { return m ? m->meter.integrated() : -HUGE_VAL; }
double boop_loudness_momentary(const boop_loudness* m) { return m ? m->meter.momentary() : -HUGE_VAL; }
double boop_loudness_short_term(const boop_loudness* m) { return m ? m->meter.shortTerm() : -HUGE_VAL; }
double boop_loudness_true_peak(const boop_loudness* m) {
    return m && m->truePeak > 0 ? 20.0 * std::log10(static_cast<double>(m->truePeak)) : -HUGE_VAL;
}

}  // extern "C"
