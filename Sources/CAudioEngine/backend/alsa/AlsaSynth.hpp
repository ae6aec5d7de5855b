#pragma once
// `boop synth` on ALSA: the engine played through the ALSA PCM (the same I/O thread as `play`),
// MIDI from an ALSA sequencer client (AlsaSeqInput). The sequencer carries no frame times, so each
// event is stamped on arrival by the reader thread, placed on the engine's frame clock one period
// after the render head (MidiArrival.hpp) and queued; the I/O thread renders up to each event's
// frame and applies it there through the same MidiSynth as JACK's synth (SynthHost).
#include <cstdint>
#include <memory>
#include <string>

#include "backend/SynthHost.hpp"
#include "backend/alsa/AlsaPlayback.hpp"
#include "backend/alsa/AlsaSeqInput.hpp"
#include "engine/MidiArrival.hpp"

namespace boop {

class AlsaSynth final : public SynthHost {
  public:
    struct Config {
        AlsaPlayback::Config pcm;
        AlsaSeqInput::Config seq;
        double sampleRate = 48000;
        Settings synth;
    };

    ~AlsaSynth() override;

    // The sequencer first (no sequencer: DEVICE_UNAVAILABLE before any sound device is opened),
    // then the PCM and the engine at the rate it grants. `why` says what failed, in one line.
    boop_status open(const Config& config, std::string& why);
    boop_status start() override;
    boop_status connectMidi(const char* source, std::string& why) override { return seq_.subscribe(source, why); }
    void stop() noexcept override;

    // Any thread.
    double sampleRate() const noexcept override { return rate_; }
    uint32_t periodFrames() const noexcept override { return period_; }
    const char* midiPortName() const noexcept override { return seq_.portName().c_str(); }
    int endedDescriptor() const noexcept override { return playback_.endedDescriptor(); }

    // The I/O thread's source callback.
    static boop_status renderSource(void* self, float* out, uint32_t frames) BOOP_RT;

  private:
    static void onEvent(void* self, uint64_t arrivalNs, const snd_seq_event_t& event);
    void render(float* out, uint32_t frames) BOOP_RT;
    void addStats(boop_synth_stats& s) const override;

    static constexpr std::size_t kQueueCapacity = 4096;

    AlsaSeqInput seq_;
    AlsaPlayback playback_;
    std::unique_ptr<MidiArrivalScheduler> scheduler_;
    double rate_ = 0;
    uint32_t period_ = 0;
    uint64_t rendered_ = 0;  // the I/O thread's frame clock
};

}  // namespace boop
