// C shim for the output stage and the loudness meter (CAudioEngine.h, "The output stage and
// loudness"): argument checks, handle <-> object, no exception across the boundary.
#include <atomic>
#include <cmath>
#include <memory>
#include <new>

#include "capi/Guarded.hpp"
#include "capi/OutputHandle.hpp"
#include "dsp/LoudnessMeter.hpp"
#include "dsp/TruePeak.hpp"
#include "engine/SourceCrossfader.hpp"
#include "include/CAudioEngine.h"
#include "rt/Realtime.hpp"

struct boop_crossfader {
    boop::SourceCrossfader impl;
    explicit boop_crossfader(const boop_source& first) : impl(first) {}
};

struct boop_loudness {
    boop::dsp::LoudnessMeter meter;
    boop::dsp::TruePeak peaks[2];
    uint32_t channels = 1;
    float truePeak = 0.0f;
};

namespace {

boop_status renderCrossfader(void* context, float* out, uint32_t frames) noexcept {
    return static_cast<boop_crossfader*>(context)->impl.render(out, frames);
}

}  // namespace

extern "C" {

void boop_output_config_default(boop_output_config* config) {
    if (config == nullptr) return;
    config->gain_db = 0.0;
    config->ceiling_dbtp = BOOP_CEILING_DBTP;
}

boop_status boop_output_config_check(const boop_output_config* config) {
    return config != nullptr && boop::OutputStage::isValid(*config) ? BOOP_OK : BOOP_ERROR_INVALID_ARGUMENT;
}

boop_status boop_output_create(const boop_output_config* config, double sample_rate, uint32_t channels,
                               boop_output** out_output) {
    if (out_output == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    *out_output = nullptr;
    boop_output_config c;
    boop_output_config_default(&c);
    if (config != nullptr) c = *config;
    if (!boop::OutputStage::isValid(c) ||
        !(sample_rate >= BOOP_ENGINE_RATE_MIN && sample_rate <= BOOP_ENGINE_RATE_MAX) || channels < 1 ||
        channels > BOOP_CHANNELS_MAX)
        return BOOP_ERROR_INVALID_ARGUMENT;
    return boop::capi::guarded([&] {
        auto o = std::make_unique<boop_output>();
        o->chain.stage().prepare(sample_rate, channels, c.ceiling_dbtp);
        o->chain.stage().setGainDb(c.gain_db);
        *out_output = o.release();
        return BOOP_OK;
    });
}

void boop_output_destroy(boop_output* output) { delete output; }

boop_status boop_output_set_gain_db(boop_output* output, double gain_db) {
    if (output == nullptr || !(gain_db >= BOOP_GAIN_DB_MIN && gain_db <= BOOP_GAIN_DB_MAX))
        return BOOP_ERROR_INVALID_ARGUMENT;
    output->chain.stage().setGainDb(gain_db);
    return BOOP_OK;
}

uint32_t boop_output_latency_frames(const boop_output* output) {
    return output != nullptr ? output->chain.stage().latency() : 0;
}

boop_status boop_output_process(boop_output* output, float* interleaved, uint32_t frames, uint32_t* out_frames) {
    if (out_frames != nullptr) *out_frames = 0;
    if (output == nullptr || out_frames == nullptr || (interleaved == nullptr && frames > 0))
        return BOOP_ERROR_INVALID_ARGUMENT;
    *out_frames = output->chain.stage().processAligned(interleaved, frames);
    return BOOP_OK;
}

boop_status boop_output_render(boop_output* output, boop_source source, float* out, uint32_t frames,
                               uint32_t* out_frames) {
    if (out_frames != nullptr) *out_frames = 0;
    if (output == nullptr || out_frames == nullptr || out == nullptr || source.render == nullptr ||
        source.channels != output->chain.stage().channels() ||
        source.sample_rate != output->chain.stage().sampleRate() || frames > source.max_block_frames)
        return BOOP_ERROR_INVALID_ARGUMENT;
    return output->chain.renderAligned(source, out, frames, *out_frames);
}

boop_status boop_output_finish(boop_output* output, float* out, uint32_t capacity_frames, uint32_t* out_frames) {
    if (out_frames != nullptr) *out_frames = 0;
    if (output == nullptr || out_frames == nullptr || out == nullptr ||
        capacity_frames < output->chain.stage().latency())
        return BOOP_ERROR_INVALID_ARGUMENT;
    *out_frames = output->chain.stage().finish(out);
    return BOOP_OK;
}

float boop_output_take_reduction_db(boop_output* output) {
    return output != nullptr ? output->chain.stage().takeReductionDb() : 0.0f;
}

boop_status boop_loudness_create(double sample_rate, uint32_t channels, boop_loudness** out_meter) {
    if (out_meter == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    *out_meter = nullptr;
    if (!(sample_rate >= BOOP_ENGINE_RATE_MIN && sample_rate <= BOOP_ENGINE_RATE_MAX) || channels < 1 ||
        channels > BOOP_CHANNELS_MAX)
        return BOOP_ERROR_INVALID_ARGUMENT;
    return boop::capi::guarded([&] {
        auto m = std::make_unique<boop_loudness>();
        m->channels = channels;
        m->meter.prepare(sample_rate, static_cast<int>(channels));
        for (auto& p : m->peaks) p.prepare();
        *out_meter = m.release();
        return BOOP_OK;
    });
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
    return boop::capi::guarded([&] {
        *out_crossfader = new boop_crossfader(first);
        return BOOP_OK;
    });
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
