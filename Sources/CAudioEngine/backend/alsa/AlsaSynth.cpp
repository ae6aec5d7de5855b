// `boop synth` on ALSA (see AlsaSynth.hpp).
#include "backend/alsa/AlsaSynth.hpp"

#include <time.h>

#include "backend/alsa/AlsaSeqEvents.hpp"
#include "engine/SynthBlocks.hpp"

namespace boop {

namespace {
// CLOCK_MONOTONIC through the vDSO: a read of shared memory, no system call, so the I/O thread may
// stamp its reports with it (not annotated, hence allowed by name).
BOOP_RT_UNCHECKED_BEGIN
uint64_t monotonicNow() BOOP_RT {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return uint64_t(ts.tv_sec) * 1'000'000'000u + uint64_t(ts.tv_nsec);
}
BOOP_RT_UNCHECKED_END
}  // namespace

AlsaSynth::~AlsaSynth() { stop(); }

boop_status AlsaSynth::open(const Config& config, std::string& why) {
    boop_status s = seq_.open(config.seq, why);
    if (s != BOOP_OK) return s;
    s = playback_.open(config.pcm, config.sampleRate, 2);
    if (s != BOOP_OK) {
        why = std::string("ALSA PCM ") + config.pcm.device + " cannot be opened for playback";
        seq_.stop();
        return s;
    }
    const boop_playback_info info = playback_.info();
    rate_ = info.sample_rate;
    period_ = info.period_frames;
    s = prepare(config.synth, rate_);
    if (s == BOOP_OK) {
        try {
            scheduler_ = std::make_unique<MidiArrivalScheduler>(kQueueCapacity);
        } catch (...) {
            s = BOOP_ERROR_OUT_OF_MEMORY;
        }
    }
    if (s != BOOP_OK) {
        stop();
        if (s == BOOP_ERROR_INVALID_ARGUMENT) why = "the engine cannot run at the rate the device granted";
        return s;
    }
    scheduler_->clock().prepare(rate_, period_);
    return BOOP_OK;
}

boop_status AlsaSynth::start() {
    if (!engine_) return BOOP_ERROR_NOT_RUNNING;
    if (started_) return BOOP_ERROR_ALREADY_RUNNING;
    boop_source source{};
    source.render = &AlsaSynth::renderSource;
    source.context = this;
    source.channels = 2;
    source.max_block_frames = kBlockFrames;
    source.sample_rate = rate_;
    boop_status s = playback_.start(source);
    if (s != BOOP_OK) return s;
    started_ = true;
    return seq_.start(&AlsaSynth::onEvent, this);
}

void AlsaSynth::stop() noexcept {
    seq_.stop();  // no more events before the audio stops
    playback_.stop(false);
    started_ = false;
}

void AlsaSynth::addStats(boop_synth_stats& s) const {
    const boop_playback_stats p = playback_.stats();
    s.xruns = p.xruns;
    s.error = p.error;
    s.late = scheduler_ ? scheduler_->late() : 0;
}

// The reader thread: decoded sequencer events become channel messages, placed and queued.
void AlsaSynth::onEvent(void* context, uint64_t arrivalNs, const snd_seq_event_t& event) {
    auto* self = static_cast<AlsaSynth*>(context);
    MidiMessage m;
    if (!seqEventToMidi(event, m)) {
        // Clock, SysEx, announcements: a source subscribing or going away is not a failure.
        self->ignored_.fetch_add(1, std::memory_order_relaxed);
        return;
    }
    self->messages_.fetch_add(1, std::memory_order_relaxed);
    self->scheduler_->arrive(arrivalNs, m);
}

boop_status AlsaSynth::renderSource(void* self, float* out, uint32_t frames) BOOP_RT {
    static_cast<AlsaSynth*>(self)->render(out, frames);
    return BOOP_OK;
}

void AlsaSynth::render(float* out, uint32_t frames) BOOP_RT {
    const uint64_t blockStart = rendered_;
    if (recording_ != nullptr) recording_->cycle(blockStart, frames);
    uint32_t done = 0, at = 0;
    MidiMessage m;
    while (scheduler_->next(blockStart, frames, done, at, m)) {
        if (at > done) renderSynthFrames(*synth_, *engine_, out + std::size_t(done) * 2, at - done);
        done = at;
        apply(blockStart + at, m);
    }
    if (frames > done) renderSynthFrames(*synth_, *engine_, out + std::size_t(done) * 2, frames - done);
    stage_.process(out, frames);
    if (recording_ != nullptr) recording_->pushAudio(out, frames);
    rendered_ = blockStart + frames;
    scheduler_->clock().observe(monotonicNow(), rendered_);
    frames_.store(rendered_, std::memory_order_relaxed);
}

}  // namespace boop
