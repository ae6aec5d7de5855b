#pragma once
// `boop synth` on ALSA: the engine played through the ALSA PCM (the same I/O thread as `play`),
// MIDI from an ALSA sequencer client (AlsaSeqInput). The sequencer carries no frame times, so each
// event is stamped on arrival by the reader thread, placed on the engine's frame clock one period
// after the render head (MidiArrival.hpp) and queued; the I/O thread renders up to each event's
// frame and applies it there through the same MidiSynth as JACK's synth.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "backend/alsa/AlsaPlayback.hpp"
#include "backend/alsa/AlsaSeqInput.hpp"
#include "backend/jack/JackSynth.hpp"  // MidiLogEntry
#include "backend/jack/SynthRecorder.hpp"
#include "engine/Engine.hpp"
#include "engine/MidiArrival.hpp"
#include "engine/MidiSynth.hpp"
#include "engine/OutputStage.hpp"
#include "rt/LockFreeQueue.hpp"

namespace boop {

class AlsaSynth {
  public:
    struct Config {
        AlsaPlayback::Config pcm;
        AlsaSeqInput::Config seq;
        double sampleRate = 48000;
        uint32_t voices = 16;
        double bendRange = 2.0;
        int channelVoices[MidiSynth::kChannels] = {};
        boop_output_config output{0.0, BOOP_CEILING_DBTP};
    };

    ~AlsaSynth();

    // The sequencer first (no sequencer: DEVICE_UNAVAILABLE before any sound device is opened),
    // then the PCM and the engine at the rate it grants. `why` says what failed, in one line.
    boop_status open(const Config& config, std::string& why);
    boop_status start();
    boop_status connectMidi(const char* source, std::string& why) { return seq_.subscribe(source, why); }
    // Before start (control thread): a palette channel's sound; the output stage's look-ahead.
    boop_status setChannelSound(int channel, const boop_instrument& sound);
    boop_status setLookahead(bool on);
    boop_status setTuning(const Tuning& tuning);
    boop_status setMpe(int lowerMembers, int upperMembers);
    void fadeOut(double seconds) noexcept;
    void stop() noexcept;
    // --record, as JACK's synth records (SynthRecorder): after open and before start, opens the
    // file; after stop, finishes it. The I/O thread pushes each block it renders and the messages
    // it applies, on the engine's frames.
    boop_status record(const char* path);
    boop_status finishRecording();
    const char* recordError() const noexcept { return recorder_ ? recorder_->error().c_str() : recordWhy_.c_str(); }
    uint64_t recordDropped() const noexcept { return recorder_ ? recorder_->dropped() : 0; }

    // Any thread.
    double sampleRate() const noexcept { return rate_; }
    uint32_t periodFrames() const noexcept { return period_; }
    uint32_t outputLatency() const noexcept { return stage_.latency(); }
    const char* midiPortName() const noexcept { return seq_.portName().c_str(); }
    uint64_t framesRendered() const noexcept { return frames_.load(std::memory_order_relaxed); }
    uint64_t messages() const noexcept { return messages_.load(std::memory_order_relaxed); }
    uint64_t ignored() const noexcept { return ignored_.load(std::memory_order_relaxed); }
    uint64_t late() const noexcept { return scheduler_ ? scheduler_->late() : 0; }
    uint64_t logDropped() const noexcept { return logDropped_.load(std::memory_order_relaxed); }
    uint32_t voices() const noexcept { return engine_ ? engine_->activeVoices() + synth_->paletteVoices() : 0; }
    const MidiSynth* synth() const noexcept { return synth_.get(); }
    boop_playback_stats playbackStats() const { return playback_.stats(); }
    // Control thread (the log's one consumer).
    bool nextLogged(MidiLogEntry& out) noexcept { return log_ && log_->tryPop(out); }

    // The I/O thread's source callback.
    static boop_status renderSource(void* self, float* out, uint32_t frames) BOOP_RT;

  private:
    static void onEvent(void* self, uint64_t arrivalNs, const snd_seq_event_t& event);
    void render(float* out, uint32_t frames) BOOP_RT;

    static constexpr uint32_t kBlockFrames = 4096;
    static constexpr std::size_t kQueueCapacity = 4096;

    AlsaSeqInput seq_;
    AlsaPlayback playback_;
    std::unique_ptr<Engine> engine_;
    std::unique_ptr<MidiSynth> synth_;
    std::unique_ptr<MidiArrivalScheduler> scheduler_;
    OutputStage stage_;  // gain and true-peak limiter on every block, before the device and the file
    std::unique_ptr<LockFreeQueue<MidiLogEntry>> log_;
    std::unique_ptr<SynthRecorder> recorder_;
    std::string recordWhy_;               // why the file could not be opened
    SynthRecorder* recording_ = nullptr;  // set before start, read by the I/O thread
    double rate_ = 0;
    uint32_t period_ = 0;
    uint64_t rendered_ = 0;  // the I/O thread's frame clock
    bool started_ = false;
    std::atomic<uint64_t> frames_{0};
    std::atomic<uint64_t> messages_{0};
    std::atomic<uint64_t> ignored_{0};
    std::atomic<uint64_t> logDropped_{0};
};

}  // namespace boop
