#pragma once
// What the live synth's two hosts share (`boop synth`: AlsaSynth on an ALSA PCM and sequencer,
// JackSynth as a JACK client): the engine and the MIDI synth on it, the output stage its sound
// passes, the log of the messages applied, the --record file and the settings taken before
// start. A host adds where MIDI comes from and where the sound goes; capi/ holds either through
// this interface.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "backend/jack/SynthRecorder.hpp"
#include "engine/Engine.hpp"
#include "engine/MidiInput.hpp"
#include "engine/MidiSynth.hpp"
#include "engine/OutputStage.hpp"
#include "include/CAudioEngine.h"
#include "rt/LockFreeQueue.hpp"
#include "rt/Realtime.hpp"

namespace boop {

class SynthHost {
  public:
    struct Settings {
        uint32_t voices = 16;
        double bendRange = 2.0;
        int channelVoices[MidiSynth::kChannels] = {};
        boop_output_config output{0.0, BOOP_CEILING_DBTP};
    };

    SynthHost() = default;
    virtual ~SynthHost() = default;
    SynthHost(const SynthHost&) = delete;
    SynthHost& operator=(const SynthHost&) = delete;

    // The host's own part (control thread).
    virtual boop_status start() = 0;
    // A MIDI source by its name or part of it: a sequencer client, a JACK port.
    virtual boop_status connectMidi(const char* source, std::string& why) = 0;
    virtual void stop() noexcept = 0;
    // Out of the server's graph and back (JACK); nothing to do where there is no server.
    virtual boop_status suspend() { return BOOP_OK; }
    virtual boop_status resume() { return BOOP_OK; }
    virtual double sampleRate() const noexcept = 0;
    virtual uint32_t periodFrames() const noexcept = 0;
    virtual const char* midiPortName() const noexcept = 0;
    // Readable once the sound stopped by itself (the device lost, the server gone): see
    // boop_synth_ended_fd. -1 when there is none.
    virtual int endedDescriptor() const noexcept = 0;

    // Before start (control thread): a palette channel's sound, the output stage's look-ahead,
    // the tuning, the MPE zones. NOT_RUNNING before open, ALREADY_RUNNING once started.
    boop_status setChannelSound(int channel, const boop_instrument& sound);
    boop_status setLookahead(bool on);
    boop_status setTuning(const Tuning& tuning);
    boop_status setMpe(int lowerMembers, int upperMembers);
    // Fades every voice out over `seconds` from the next block (control thread).
    void fadeOut(double seconds) noexcept;
    // --record: after open and before start, opens the file (SynthRecorder::open); after stop,
    // finishes it. The audio thread pushes each block it renders and the messages it applies.
    boop_status record(const char* path);
    boop_status finishRecording();
    const char* recordError() const noexcept { return recorder_ ? recorder_->error().c_str() : recordWhy_.c_str(); }
    uint64_t recordDropped() const noexcept { return recorder_ ? recorder_->dropped() : 0; }

    // Any thread.
    boop_synth_stats stats() const;
    uint32_t outputLatency() const noexcept { return stage_.latency(); }
    uint64_t logDropped() const noexcept { return logDropped_.load(std::memory_order_relaxed); }
    // Control thread (the log's one consumer).
    bool nextLogged(MidiLogEntry& out) noexcept { return log_ && log_->tryPop(out); }

  protected:
    static constexpr uint32_t kBlockFrames = 4096;
    static constexpr std::size_t kLogCapacity = 4096;

    // Control thread, at open (allocates): the engine at `rate` and all that plays on it.
    // INVALID_ARGUMENT when the engine cannot run at that rate, OUT_OF_MEMORY.
    boop_status prepare(const Settings& settings, double rate);
    // The host's counters: messages received and ignored, malformed bytes, xruns, error, late.
    virtual void addStats(boop_synth_stats& s) const = 0;
    // After the look-ahead changed (JACK reports the stage's latency to its server).
    virtual void lookaheadChanged() noexcept {}
    // The audio thread: applies `m` on `frame` of the engine's clock, logs and records it.
    void apply(uint64_t frame, const MidiMessage& m) BOOP_RT;

    std::unique_ptr<Engine> engine_;
    std::unique_ptr<MidiSynth> synth_;
    OutputStage stage_;                   // gain and true-peak limiter on every block, before the device and the file
    SynthRecorder* recording_ = nullptr;  // set before start, read by the audio thread
    bool started_ = false;
    std::atomic<uint64_t> frames_{0};
    std::atomic<uint64_t> messages_{0};
    std::atomic<uint64_t> ignored_{0};

  private:
    std::unique_ptr<LockFreeQueue<MidiLogEntry>> log_;
    std::unique_ptr<SynthRecorder> recorder_;
    std::string recordWhy_;  // why the file could not be opened
    double rate_ = 0;
    std::atomic<uint64_t> logDropped_{0};
};

}  // namespace boop
