// C shim for capture and pitch detection (CAudioEngine.h, "ALSA capture, device listing and
// pitch detection"): argument checks, handle <-> object, no exception across the boundary.
#include <cmath>
#include <cstdio>
#include <memory>
#include <new>

#include "backend/alsa/AlsaCapture.hpp"
#include "backend/jack/JackClient.hpp"
#include "capi/Guarded.hpp"
#include "dsp/Yin.hpp"
#include "include/CAudioEngine.h"

// One handle, one backend: whichever the config named, behind the backend interface.
struct boop_capture {
    std::unique_ptr<boop::CaptureBackend> backend;
};

namespace {

// Opens the backend the config names, or returns its status.
boop_status openBackend(const boop_capture_config& c, std::unique_ptr<boop::CaptureBackend>& out, const char*& why) {
    const uint32_t channels = c.channels != 0 ? c.channels : 1;
    const uint32_t ringFrames = c.ring_frames != 0 ? c.ring_frames : 65536;
    if (c.backend == BOOP_BACKEND_JACK) {
        boop::JackCapture::Config cfg;
        cfg.clientName = c.client_name != nullptr ? c.client_name : "boop";
        cfg.connect = c.connect != 0;
        cfg.channels = channels;
        cfg.ringFrames = ringFrames;
        auto jack = std::make_unique<boop::JackCapture>();
        const boop_status s = jack->open(cfg);
        return boop::capi::keepOpened(std::move(jack), s, out, why);
    }
    boop::AlsaCapture::Config cfg;
    cfg.device = c.device != nullptr ? c.device : "default";
    if (c.sample_rate != 0) cfg.sampleRate = c.sample_rate;
    cfg.channels = channels;
    cfg.take(c.period_frames, c.periods, c.realtime_priority);
    cfg.ringFrames = ringFrames;
    auto alsa = std::make_unique<boop::AlsaCapture>();
    const boop_status s = alsa->open(cfg);
    return boop::capi::keepOpened(std::move(alsa), s, out, why);
}

}  // namespace

struct boop_pitch_detector {
    boop::dsp::Yin yin;
};

extern "C" {

void boop_capture_config_default(boop_capture_config* config) {
    if (config == nullptr) return;
    const boop::AlsaCapture::Config alsa;
    boop::capi::setStreamDefaults(*config, alsa);
    config->sample_rate = alsa.sampleRate;
    config->channels = alsa.channels;
    config->ring_frames = alsa.ringFrames;
}

boop_status boop_capture_open(const boop_capture_config* config, boop_capture** out_capture) {
    return boop_capture_open_why(config, out_capture, nullptr, 0);
}

boop_status boop_capture_open_why(const boop_capture_config* config, boop_capture** out_capture, char* why,
                                  size_t why_size) {
    boop::capi::writeWhy(why, why_size, "");
    if (out_capture == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    *out_capture = nullptr;
    boop_capture_config defaults;
    boop_capture_config_default(&defaults);
    const boop_capture_config& c = config != nullptr ? *config : defaults;
    if (c.backend != BOOP_BACKEND_ALSA && c.backend != BOOP_BACKEND_JACK) return BOOP_ERROR_INVALID_ARGUMENT;
    return boop::capi::guarded([&] {
        std::unique_ptr<boop::CaptureBackend> backend;
        const char* reason = "";
        const boop_status s = openBackend(c, backend, reason);
        if (s != BOOP_OK) {
            boop::capi::writeWhy(why, why_size, reason);
            return s;
        }
        auto cap = std::make_unique<boop_capture>();
        cap->backend = std::move(backend);
        *out_capture = cap.release();
        return BOOP_OK;
    });
}

boop_capture_info boop_capture_get_info(const boop_capture* capture) {
    return boop::capi::infoOf<boop_capture_info>(capture);
}

boop_status boop_capture_start(boop_capture* capture) {
    if (capture == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    try {
        return capture->backend->start();
    } catch (...) {
        return BOOP_ERROR_INTERNAL;
    }
}

boop_status boop_capture_read(boop_capture* capture, float* out, uint32_t max_frames, uint32_t* out_frames,
                              uint64_t* out_first_frame) {
    if (out_frames != nullptr) *out_frames = 0;
    if (capture == nullptr || out_frames == nullptr || (out == nullptr && max_frames > 0))
        return BOOP_ERROR_INVALID_ARGUMENT;
    *out_frames = static_cast<uint32_t>(capture->backend->read(out, max_frames, out_first_frame));
    return BOOP_OK;
}

uint32_t boop_capture_wait(boop_capture* capture, uint32_t min_frames, int timeout_ms) {
    if (capture == nullptr) return 0;
    return static_cast<uint32_t>(capture->backend->wait(min_frames, timeout_ms));
}

boop_capture_stats boop_capture_get_stats(const boop_capture* capture) {
    return boop::capi::statsOf<boop_capture_stats>(capture);
}

void boop_capture_stop(boop_capture* capture) {
    if (capture == nullptr) return;
    try {
        capture->backend->stop();
    } catch (...) {}
}

void boop_capture_destroy(boop_capture* capture) {
    if (capture == nullptr) return;
    try {
        capture->backend->stop();
    } catch (...) {}
    delete capture;
}

namespace {
boop::JackCapture* jackOf(const boop_capture* c) {
    return c != nullptr ? dynamic_cast<boop::JackCapture*>(c->backend.get()) : nullptr;
}
boop::MidiOutWriter* midiOf(const boop_capture* c) {
    boop::JackCapture* jack = jackOf(c);
    return jack != nullptr ? jack->midi() : nullptr;
}
}  // namespace

boop_status boop_capture_midi_open(boop_capture* capture) {
    boop::JackCapture* jack = jackOf(capture);
    if (jack == nullptr) return BOOP_ERROR_NOT_RUNNING;
    return boop::capi::guarded([&] { return jack->openMidiOut(); });
}

boop_status boop_capture_midi_send(boop_capture* capture, uint64_t frame, const uint8_t* bytes, uint32_t size) {
    if (!boop::capi::validMidiMessage(bytes, size)) return BOOP_ERROR_INVALID_ARGUMENT;
    return boop::capi::midiSend(midiOf(capture), frame, bytes, size);
}

boop_status boop_capture_midi_panic(boop_capture* capture) { return boop::capi::midiPanic(midiOf(capture)); }

int boop_capture_midi_panic_done(const boop_capture* capture) { return boop::capi::midiPanicDone(midiOf(capture)); }

boop_status boop_capture_midi_connect(boop_capture* capture, const char* destination) {
    if (destination == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    boop::JackCapture* jack = jackOf(capture);
    if (jack == nullptr) return BOOP_ERROR_NOT_RUNNING;
    return boop::capi::guarded([&] { return jack->connectMidiOut(destination); });
}

uint64_t boop_capture_midi_written(const boop_capture* capture) {
    const boop::MidiOutWriter* midi = midiOf(capture);
    return midi != nullptr ? midi->written() : 0;
}

uint64_t boop_capture_midi_late(const boop_capture* capture) {
    const boop::MidiOutWriter* midi = midiOf(capture);
    return midi != nullptr ? midi->late() : 0;
}

boop_status boop_pitch_detector_create(double sample_rate, uint32_t window_frames, double min_hz, double max_hz,
                                       boop_pitch_detector** out_detector) {
    if (out_detector == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    *out_detector = nullptr;
    if (!(sample_rate >= BOOP_PITCH_RATE_MIN && sample_rate <= BOOP_ENGINE_RATE_MAX) ||
        window_frames < BOOP_PITCH_WINDOW_MIN || window_frames > BOOP_PITCH_WINDOW_MAX || !(min_hz >= 0) ||
        !(max_hz >= 0) || (max_hz > 0 && min_hz > max_hz))
        return BOOP_ERROR_INVALID_ARGUMENT;
    return boop::capi::guarded([&] {
        auto d = std::make_unique<boop_pitch_detector>();
        d->yin.setRange(min_hz, max_hz);
        d->yin.prepare(sample_rate, window_frames);
        *out_detector = d.release();
        return BOOP_OK;
    });
}

void boop_pitch_detector_set_threshold(boop_pitch_detector* detector, double threshold) {
    if (detector != nullptr && threshold > 0 && threshold < 1) detector->yin.setThreshold(threshold);
}

void boop_pitch_detector_set_silence_dbfs(boop_pitch_detector* detector, double dbfs) {
    if (detector != nullptr && std::isfinite(dbfs)) detector->yin.setSilenceThreshold(dbfs);
}

boop_pitch_result boop_pitch_detector_process(boop_pitch_detector* detector, const float* samples, uint32_t frames) {
    boop_pitch_result r{0.0, 0.0};
    if (detector == nullptr || samples == nullptr) return r;
    const boop::dsp::YinResult y = detector->yin.process(samples, frames);
    r.frequency_hz = y.frequency;
    r.confidence = y.confidence;
    return r;
}

void boop_pitch_detector_destroy(boop_pitch_detector* detector) { delete detector; }

}  // extern "C"
