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

#include "backend/SynthHost.hpp"
#include "backend/jack/JackClient.hpp"
#include "engine/MidiInput.hpp"

namespace boop {

class JackSynth final : public JackClient, public SynthHost {
  public:
    struct Config {
        const char* clientName = "boop";
        bool connect = true;
        Settings synth;
    };

    ~JackSynth() override;

    boop_status open(const Config& config);
    boop_status start() override;
    // Connects a MIDI output port of another client (its name, or part of it) to midi_in.
    boop_status connectMidi(const char* source, std::string& why) override;
    // After start (control thread): out of the server's graph and back, links made again; the
    // notes that sounded are gone on resume.
    boop_status suspend() override;
    boop_status resume() override;
    void stop() noexcept override;

    // Any thread.
    double sampleRate() const noexcept override { return JackClient::sampleRate(); }
    uint32_t periodFrames() const noexcept override { return bufferFrames(); }
    int endedDescriptor() const noexcept override { return JackClient::endedDescriptor(); }
    const char* midiPortName() const noexcept override;

  private:
    static int onProcess(jack_nframes_t frames, void* self) noexcept;
    void process(jack_nframes_t frames) BOOP_RT;
    void renderTo(uint32_t begin, uint32_t end) BOOP_RT;
    void readMidi(void* buffer, jack_nframes_t frames, uint32_t& done) BOOP_RT;
    // A MIDI output port named `source`, or the first whose name holds it (any case); "" if none.
    std::string findMidiSource(const char* source) const;
    void addStats(boop_synth_stats& s) const override;
    void lookaheadChanged() noexcept override { setOwnLatency(stage_.latency()); }

    Config config_;
    // Registered after activation, so that the port appearing means the client takes
    // connections (a port of a client not yet active cannot be connected to).
    std::atomic<jack_port_t*> midiIn_{nullptr};
    MidiParser parser_;
    std::vector<float> block_;
    jack_nframes_t cycleStart_ = 0;
    std::atomic<bool> running_{false};
    std::atomic<uint64_t> malformed_{0};
    std::vector<std::string> sources_;  // the MIDI ports connected, linked again on resume
};

}  // namespace boop
