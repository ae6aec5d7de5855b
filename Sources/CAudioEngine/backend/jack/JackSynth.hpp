#pragma once
// `boop synth` on JACK: a client with a MIDI input port (midi_in) and two audio outputs, whose
// process callback reads the cycle's MIDI events and applies each on its own frame: the engine
// renders up to the event's frame, the event is applied, rendering goes on, and each block passes
// the output stage (gain, true-peak limiter). A note therefore starts the stage's look-ahead
// (outputLatency frames, reported to the server as the ports' latency) after the frame its event
// carries, at any buffer size: a fixed latency, no jitter.
#include <jack/jack.h>
#include <jack/midiport.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backend/jack/JackClient.hpp"
#include "backend/jack/SynthRecorder.hpp"
#include "engine/Engine.hpp"
#include "engine/MidiInput.hpp"
#include "engine/MidiSynth.hpp"
#include "engine/OutputStage.hpp"
#include "rt/LockFreeQueue.hpp"

namespace boop {

class JackSynth final : public JackClient {
  public:
    struct Config {
        const char* clientName = "boop";
        bool connect = true;
        uint32_t voices = 16;
        double bendRange = 2.0;
        int channelVoices[MidiSynth::kChannels] = {};
        boop_output_config output{0.0, BOOP_CEILING_DBTP};
    };

    ~JackSynth();

    boop_status open(const Config& config);
    boop_status start();
    // Connects a MIDI output port of another client to midi_in (control thread).
    boop_status connectMidi(const char* source);
    // Before start (control thread): a palette channel's sound; the output stage's look-ahead.
    boop_status setChannelSound(int channel, const boop_instrument& sound);
    boop_status setLookahead(bool on);
    boop_status setTuning(const Tuning& tuning);
    boop_status setMpe(int lowerMembers, int upperMembers);
    // After start (control thread): out of the server's graph and back, links made again; the
    // notes that sounded are gone on resume.
    boop_status suspend();
    boop_status resume();
    // Fades every voice out over `seconds` at the next cycle (control thread).
    void fadeOut(double seconds) noexcept;
    void stop() noexcept;
    // --record: before start, opens the file (SynthRecorder::open); after stop, finishes it.
    boop_status record(const char* path);
    boop_status finishRecording();
    const char* recordError() const noexcept { return recorder_ ? recorder_->error().c_str() : recordWhy_.c_str(); }
    uint64_t recordDropped() const noexcept { return recorder_ ? recorder_->dropped() : 0; }

    // Any thread.
    const char* midiPortName() const noexcept;
    uint32_t outputLatency() const noexcept { return stage_.latency(); }
    uint64_t framesRendered() const noexcept { return frames_.load(std::memory_order_relaxed); }
    uint64_t malformed() const noexcept { return malformed_.load(std::memory_order_relaxed); }
    uint64_t ignored() const noexcept { return ignored_.load(std::memory_order_relaxed); }
    uint64_t messages() const noexcept { return messages_.load(std::memory_order_relaxed); }
    uint64_t logDropped() const noexcept { return logDropped_.load(std::memory_order_relaxed); }
    uint32_t voices() const noexcept { return engine_ ? engine_->activeVoices() + synth_->paletteVoices() : 0; }
    const MidiSynth* synth() const noexcept { return synth_.get(); }
    bool running() const noexcept { return running_.load(std::memory_order_acquire) && error() == BOOP_OK; }
    // Control thread (the log's one consumer).
    bool nextLogged(MidiLogEntry& out) noexcept { return log_ && log_->tryPop(out); }

  private:
    static int onProcess(jack_nframes_t frames, void* self) noexcept;
    void process(jack_nframes_t frames) BOOP_RT;
    void renderTo(uint32_t begin, uint32_t end) BOOP_RT;
    void readMidi(void* buffer, jack_nframes_t frames, uint32_t& done) BOOP_RT;
    // A MIDI output port named `source`, or the first whose name holds it (any case); "" if none.
    std::string findMidiSource(const char* source) const;

    static constexpr uint32_t kBlockFrames = 4096;
    static constexpr std::size_t kLogCapacity = 4096;

    Config config_;
    // Registered after activation, so that the port appearing means the client takes
    // connections (a port of a client not yet active cannot be connected to).
    std::atomic<jack_port_t*> midiIn_{nullptr};
    std::unique_ptr<Engine> engine_;
    std::unique_ptr<MidiSynth> synth_;
    std::unique_ptr<LockFreeQueue<MidiLogEntry>> log_;
    std::unique_ptr<SynthRecorder> recorder_;
    std::string recordWhy_;               // why the file could not be opened
    SynthRecorder* recording_ = nullptr;  // set before activation, read by the audio thread
    MidiParser parser_;
    OutputStage stage_;
    std::vector<float> block_;
    jack_nframes_t cycleStart_ = 0;
    std::atomic<bool> running_{false};
    std::atomic<uint64_t> frames_{0};
    std::atomic<uint64_t> malformed_{0};
    std::atomic<uint64_t> ignored_{0};
    std::atomic<uint64_t> messages_{0};
    std::atomic<uint64_t> logDropped_{0};
    bool started_ = false;
    std::vector<std::string> sources_;  // the MIDI ports connected, linked again on resume
};

}  // namespace boop
