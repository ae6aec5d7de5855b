// C shim for the playback section of CAudioEngine.h: argument checks, handle <-> object, and no
// exception crossing the boundary. Thread rules are the header's: open/start/stop/destroy from
// one control thread; info and stats from any thread.
#include <atomic>
#include <cstdio>
#include <memory>
#include <new>
#include <string>

#include "backend/RealtimePriority.hpp"
#include "backend/TimerPlayback.hpp"
#include "backend/alsa/AlsaCommon.hpp"
#include "backend/alsa/AlsaPlayback.hpp"
#include "backend/alsa/AlsaSeqOutput.hpp"
#include "backend/jack/JackClient.hpp"
#include "capi/Guarded.hpp"
#include "engine/OutputChain.hpp"
#include "include/CAudioEngine.h"

// One handle, one backend: whichever the config named, behind the backend interface. The
// backend pulls the output chain (engine/OutputChain): the source started, then the output stage.
struct boop_playback {
    std::unique_ptr<boop::PlaybackBackend> backend;
    boop::OutputChain chain;
    double ceilingDbtp = BOOP_CEILING_DBTP;  // the stage's, prepared by start
    bool started = false;
    // The stage's look-ahead, set at start: frames written but not yet heard, as the device's are.
    std::atomic<uint32_t> stageLatency{0};
    // ALSA with midi_out: the sequencer port, scheduled by the I/O thread's frame line.
    std::unique_ptr<boop::AlsaSeqOutput> seqOut;
    boop::MidiArrivalClock line;
};

namespace {

bool validPlaybackConfig(const boop_playback_config& c, double sampleRate, uint32_t channels) {
    if (c.backend != BOOP_BACKEND_ALSA && c.backend != BOOP_BACKEND_JACK) return false;
    if (!boop::OutputStage::isValid(c.output)) return false;
    if (!(sampleRate >= BOOP_ENGINE_RATE_MIN && sampleRate <= BOOP_ENGINE_RATE_MAX)) return false;
    if (channels < 1 || channels > BOOP_DEVICE_CHANNELS_MAX) return false;
    // 0 asks for the default; JACK takes the server's period whatever is asked.
    const bool periodOk = c.period_frames == 0 ||
                          (c.period_frames >= BOOP_PERIOD_FRAMES_MIN && c.period_frames <= BOOP_PERIOD_FRAMES_MAX);
    const bool periodsOk = c.periods == 0 || (c.periods >= BOOP_PERIODS_MIN && c.periods <= BOOP_PERIODS_MAX);
    return periodOk && periodsOk;
}

// Opens the backend the config names, or returns its status.
boop_status openBackend(const boop_playback_config& c, double sampleRate, uint32_t channels,
                        std::unique_ptr<boop::PlaybackBackend>& out, const char*& why) {
    if (c.backend == BOOP_BACKEND_JACK) {
        boop::JackPlayback::Config cfg;
        cfg.clientName = c.client_name != nullptr ? c.client_name : "boop";
        cfg.connect = c.connect != 0 && c.mute == 0;
        cfg.midiOut = c.midi_out != 0;
        cfg.mute = c.mute != 0;
        cfg.followTransport = c.follow_transport != 0;
        cfg.followMidiClock = c.follow_midi_clock != 0;
        cfg.keys = boop::midiKeysOf(c.midi_keys);
        auto jack = std::make_unique<boop::JackPlayback>();
        const boop_status s = jack->open(cfg, sampleRate, channels);
        return boop::capi::keepOpened(std::move(jack), s, out, why);
    }
    if (c.mute != 0) {
        // No sound: no PCM is opened; a timer runs the engine's clock (MIDI out only).
        boop::TimerPlayback::Config cfg;
        cfg.take(c.period_frames, c.periods, c.realtime_priority);
        auto timer = std::make_unique<boop::TimerPlayback>();
        const boop_status s = timer->open(cfg, sampleRate, channels);
        if (s == BOOP_OK) out = std::move(timer);
        return s;
    }
    boop::AlsaPlayback::Config cfg;
    cfg.device = c.device != nullptr ? c.device : "default";
    cfg.take(c.period_frames, c.periods, c.realtime_priority);
    cfg.adaptive = c.adaptive != 0;
    auto alsa = std::make_unique<boop::AlsaPlayback>();
    const boop_status s = alsa->open(cfg, sampleRate, channels);
    return boop::capi::keepOpened(std::move(alsa), s, out, why);
}

// MIDI out on the sequencer is scheduled for when a frame is heard: the I/O thread's line of
// frames rendered, plus the device's buffer and the output stage's look-ahead; with no sound
// device, the timer's own line (frame f at its start + f / rate).
void followFrames(boop_playback& p, double rate) {
    if (auto* timer = dynamic_cast<boop::TimerPlayback*>(p.backend.get())) {
        timer->startAt(uint64_t(boop::monotonicNs()));
        p.seqOut->followFixed(timer->startNs(), rate);
        return;
    }
    auto* alsa = dynamic_cast<boop::AlsaPlayback*>(p.backend.get());
    if (alsa == nullptr) return;
    const boop_playback_info info = alsa->info();
    p.line.prepare(rate, info.period_frames);
    alsa->reportFramesTo(&p.line);
    const uint32_t latency = info.buffer_frames + p.chain.stage().latency();
    p.seqOut->follow(&p.line, latency, uint64_t(boop::monotonicNs()), rate);
}

}  // namespace

extern "C" {

boop_priority boop_thread_make_realtime(int priority) { return boop::makeCurrentThreadRealtime(priority); }

void boop_playback_config_default(boop_playback_config* config) {
    if (config == nullptr) return;
    boop::capi::setStreamDefaults(*config, boop::AlsaPlayback::Config{});
    config->adaptive = 1;
    // Set, not left to the caller's memory: on ALSA a stray non-zero midi_out opens the sequencer.
    config->midi_out = 0;
    config->mute = 0;
    config->follow_transport = 0;
    config->follow_midi_clock = 0;
    config->midi_keys = nullptr;
    boop_output_config_default(&config->output);
}

boop_status boop_playback_open(const boop_playback_config* config, double sample_rate, uint32_t channels,
                               boop_playback** out_playback) {
    return boop_playback_open_why(config, sample_rate, channels, out_playback, nullptr, 0);
}

boop_status boop_playback_open_why(const boop_playback_config* config, double sample_rate, uint32_t channels,
                                   boop_playback** out_playback, char* why, size_t why_size) {
    boop::capi::writeWhy(why, why_size, "");
    if (out_playback == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    *out_playback = nullptr;
    boop_playback_config defaults;
    boop_playback_config_default(&defaults);
    const boop_playback_config& c = config != nullptr ? *config : defaults;
    if (!validPlaybackConfig(c, sample_rate, channels)) return BOOP_ERROR_INVALID_ARGUMENT;
    return boop::capi::guarded([&] {
        std::unique_ptr<boop::PlaybackBackend> backend;
        const char* reason = "";
        const boop_status s = openBackend(c, sample_rate, channels, backend, reason);
        if (s != BOOP_OK) {
            boop::capi::writeWhy(why, why_size, reason);
            return s;
        }
        std::unique_ptr<boop::AlsaSeqOutput> seqOut;
        if (c.backend == BOOP_BACKEND_ALSA && c.midi_out != 0) {
            seqOut = std::make_unique<boop::AlsaSeqOutput>();
            boop::AlsaSeqOutput::Config sc;
            sc.clientName = c.client_name != nullptr ? c.client_name : "boop";
            std::string why;
            const boop_status opened = seqOut->open(sc, why);
            if (opened != BOOP_OK) return opened;
        }
        auto p = std::make_unique<boop_playback>();
        p->backend = std::move(backend);
        p->seqOut = std::move(seqOut);
        p->ceilingDbtp = c.output.ceiling_dbtp;
        p->chain.stage().setGainDb(c.output.gain_db);
        *out_playback = p.release();
        return BOOP_OK;
    });
}

boop_playback_info boop_playback_get_info(const boop_playback* playback) {
    return boop::capi::infoOf<boop_playback_info>(playback);
}

boop_status boop_playback_start(boop_playback* playback, boop_source source) {
    if (playback == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    // A playback starts once: the stage is never prepared again under a running audio thread.
    if (playback->started) return BOOP_ERROR_ALREADY_RUNNING;
    if (source.render == nullptr || source.channels < 1 || source.channels > BOOP_CHANNELS_MAX ||
        !(source.sample_rate >= BOOP_ENGINE_RATE_MIN && source.sample_rate <= BOOP_ENGINE_RATE_MAX))
        return BOOP_ERROR_INVALID_ARGUMENT;
    return boop::capi::guarded([&] {
        const boop_source chained = playback->chain.live(source, playback->ceilingDbtp);
        const uint32_t latency = playback->chain.stage().latency();
        if (playback->seqOut) followFrames(*playback, source.sample_rate);
        playback->backend->setProcessingLatency(latency);
        playback->stageLatency.store(latency, std::memory_order_relaxed);
        const boop_status s = playback->backend->start(chained);
        playback->started = s == BOOP_OK || s == BOOP_ERROR_ALREADY_RUNNING;
        return s;
    });
}

boop_status boop_playback_set_gain_db(boop_playback* playback, double gain_db) {
    if (playback == nullptr || !(gain_db >= BOOP_GAIN_DB_MIN && gain_db <= BOOP_GAIN_DB_MAX))
        return BOOP_ERROR_INVALID_ARGUMENT;
    playback->chain.stage().setGainDb(gain_db);  // atomic: read by the audio thread at each block
    return BOOP_OK;
}

float boop_playback_take_reduction_db(boop_playback* playback) {
    return playback != nullptr ? playback->chain.stage().takeReductionDb() : 0.0f;
}

boop_playback_stats boop_playback_get_stats(const boop_playback* playback) {
    boop_playback_stats s = boop::capi::statsOf<boop_playback_stats>(playback);
    if (playback != nullptr) s.delay_frames += playback->stageLatency.load(std::memory_order_relaxed);
    return s;
}

int boop_playback_ended_fd(const boop_playback* playback) {
    if (playback == nullptr || playback->backend == nullptr) return -1;
    return playback->backend->endedDescriptor();
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

namespace {
boop::MidiOutWriter* midiOf(const boop_playback* p) {
    if (p == nullptr) return nullptr;
    auto* jack = dynamic_cast<boop::JackPlayback*>(p->backend.get());
    return jack != nullptr ? jack->midi() : nullptr;
}
}  // namespace

boop_status boop_playback_midi_send(boop_playback* playback, uint64_t frame, const uint8_t* bytes, uint32_t size) {
    if (!boop::capi::validMidiMessage(bytes, size)) return BOOP_ERROR_INVALID_ARGUMENT;
    if (playback != nullptr && playback->seqOut) return playback->seqOut->send(frame, bytes, size);
    return boop::capi::midiSend(midiOf(playback), frame, bytes, size);
}

int boop_playback_transport_next(boop_playback* playback, boop_transport_event* out_event) {
    if (playback == nullptr || out_event == nullptr) return 0;
    auto* jack = dynamic_cast<boop::JackPlayback*>(playback->backend.get());
    return jack != nullptr && jack->transport() != nullptr && jack->transport()->next(*out_event) ? 1 : 0;
}

boop_status boop_playback_transport_arm(boop_playback* playback, uint32_t request, uint64_t engine_frame) {
    if (playback == nullptr) return BOOP_ERROR_NOT_RUNNING;
    auto* jack = dynamic_cast<boop::JackPlayback*>(playback->backend.get());
    if (jack == nullptr || jack->transport() == nullptr) return BOOP_ERROR_NOT_RUNNING;
    jack->transport()->arm(request, engine_frame);
    return BOOP_OK;
}

boop_status boop_playback_midi_panic(boop_playback* playback) {
    if (playback != nullptr && playback->seqOut) {
        playback->seqOut->panic();  // done when it returns: the note-offs went out directly
        return BOOP_OK;
    }
    return boop::capi::midiPanic(midiOf(playback));
}

int boop_playback_midi_panic_done(const boop_playback* playback) { return boop::capi::midiPanicDone(midiOf(playback)); }

boop_status boop_playback_midi_connect(boop_playback* playback, const char* destination) {
    if (playback == nullptr || destination == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    if (playback->seqOut) {
        std::string why;
        return playback->seqOut->connect(destination, why);
    }
    auto* jack = dynamic_cast<boop::JackPlayback*>(playback->backend.get());
    if (jack == nullptr || jack->midi() == nullptr) return BOOP_ERROR_NOT_RUNNING;
    return jack->connectMidiOut(destination);
}

boop_status boop_playback_midi_in_connect(boop_playback* playback, const char* source) {
    if (playback == nullptr || source == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    auto* jack = dynamic_cast<boop::JackPlayback*>(playback->backend.get());
    if (jack == nullptr) return BOOP_ERROR_NOT_RUNNING;
    return jack->connectMidiIn(source);
}
