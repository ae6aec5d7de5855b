// The C API of dsp/PitchTracker (voice pitch tracks for `boop train match`).
#include <algorithm>
#include <memory>
#include <new>

#include "CAudioEngine.h"
#include "capi/Guarded.hpp"
#include "dsp/PitchTracker.hpp"

struct boop_pitch_tracker {
    boop::dsp::PitchTracker tracker;
};

namespace {
boop_pitch_frame toC(const boop::dsp::PitchFrame& f) { return {f.index, f.frequency, f.guess, f.voicedProb, f.depth}; }
}  // namespace

extern "C" {

boop_status boop_pitch_tracker_create(double sample_rate, uint32_t window_frames, uint32_t lag_frames, double min_hz,
                                      double max_hz, boop_pitch_tracker** out_tracker) {
    if (out_tracker == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    *out_tracker = nullptr;
    if (!(sample_rate >= BOOP_PITCH_RATE_MIN && sample_rate <= BOOP_ENGINE_RATE_MAX) ||
        window_frames < BOOP_PITCH_WINDOW_MIN || window_frames > BOOP_PITCH_WINDOW_MAX ||
        lag_frames > boop::dsp::PitchTracker::kMaxLag || !(min_hz >= 0) || !(max_hz >= 0) ||
        (max_hz > 0 && min_hz > max_hz))
        return BOOP_ERROR_INVALID_ARGUMENT;
    return boop::capi::guarded([&] {
        auto t = std::make_unique<boop_pitch_tracker>();
        t->tracker.prepare(sample_rate, window_frames, lag_frames);
        t->tracker.setRange(min_hz, max_hz);
        *out_tracker = t.release();
        return BOOP_OK;
    });
}

int boop_pitch_tracker_push(boop_pitch_tracker* tracker, const float* samples, uint32_t frames, boop_pitch_frame* out) {
    if (tracker == nullptr || samples == nullptr || out == nullptr) return 0;
    boop::dsp::PitchFrame f;
    if (!tracker->tracker.push(samples, frames, f)) return 0;
    *out = toC(f);
    return 1;
}

uint32_t boop_pitch_tracker_flush(boop_pitch_tracker* tracker, boop_pitch_frame* out, uint32_t max) {
    if (tracker == nullptr || out == nullptr) return 0;
    boop::dsp::PitchFrame f[8];
    uint32_t written = 0;
    while (written < max) {
        const uint32_t n = tracker->tracker.flush(f, std::min<uint32_t>(8, max - written));
        if (n == 0) break;
        for (uint32_t i = 0; i < n; ++i) out[written++] = toC(f[i]);
    }
    return written;
}

void boop_pitch_tracker_reset(boop_pitch_tracker* tracker) {
    if (tracker != nullptr) tracker->tracker.reset();
}

void boop_pitch_tracker_destroy(boop_pitch_tracker* tracker) { delete tracker; }

}  // extern "C"
