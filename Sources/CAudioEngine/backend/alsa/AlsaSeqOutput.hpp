#pragma once
// `play --midi-out` on ALSA: a sequencer client (named as configured, "boop") with a readable port
// midi_out and a queue of its own. The sequencer's messages come stamped with engine frames; each
// is scheduled on the queue at the real time that frame will be heard, taken from the line the
// playback's I/O thread reports (MidiArrivalClock: frames rendered against CLOCK_MONOTONIC,
// smoothed) plus the device's buffer, or with no sound device a fixed line (AlsaSeqSchedule makes
// the events). The kernel then sends it on time, whatever this process does. Notes sent on and not
// off are remembered, so panic() (stop, pause, Ctrl-C, SIGTERM) drops what is scheduled and ends
// every one of them: no stuck note.
#include <alsa/asoundlib.h>

#include <cstdint>
#include <string>

#include "backend/alsa/AlsaSeqMatch.hpp"
#include "backend/alsa/AlsaSeqSchedule.hpp"
#include "engine/MidiArrival.hpp"
#include "include/CAudioEngine.h"

namespace boop {

class AlsaSeqOutput {
  public:
    struct Config {
        const char* devicePath = "/dev/snd/seq";  // checked first, as AlsaSeqInput does
        const char* clientName = "boop";
        const char* portName = "midi_out";
    };

    AlsaSeqOutput() = default;
    ~AlsaSeqOutput();
    AlsaSeqOutput(const AlsaSeqOutput&) = delete;
    AlsaSeqOutput& operator=(const AlsaSeqOutput&) = delete;

    boop_status open(const Config& config, std::string& why);
    // The playback's frame line and how far behind the render head the device plays (its buffer
    // and the output stage's look-ahead), in frames; `startNs`/`rate` stand in for the line until
    // the I/O thread's first report.
    void follow(const MidiArrivalClock* line, uint32_t latencyFrames, uint64_t startNs, double rate) noexcept {
        schedule_.follow(line, latencyFrames, startNs, rate);
    }
    // No sound device (`--no-sound`): frame f is heard at startNs + f / rate.
    void followFixed(uint64_t startNs, double rate) noexcept { schedule_.followFixed(startNs, rate); }
    // Control thread: schedules one message (1 ... 3 bytes) for engine frame `frame`.
    boop_status send(uint64_t frame, const uint8_t* bytes, uint32_t size);
    // Control thread: drops everything scheduled, note-off for every held note, Stop after a Start.
    void panic();
    // Subscribes a port that takes MIDI (see matchSeqPort) to midi_out.
    boop_status connect(const char* spec, std::string& why);
    void close() noexcept;

  private:
    int output(snd_seq_event_t& event);

    snd_seq_t* seq_ = nullptr;
    int port_ = -1;
    int queue_ = -1;
    AlsaSeqSchedule schedule_;
};

}  // namespace boop
