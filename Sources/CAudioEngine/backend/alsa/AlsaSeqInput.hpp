#pragma once
// `boop synth` on ALSA, its MIDI half: a sequencer client (named as configured, "boop") with a
// writable port midi_in that any source may be subscribed to (aconnect, a patchbay, or
// subscribe()). A reader thread (real-time priority when permitted, never the audio thread) waits
// on the sequencer, stamps each event with CLOCK_MONOTONIC as it takes it and hands it on. A
// source that goes away only ends its subscription: the client keeps running.
#include <alsa/asoundlib.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "backend/alsa/AlsaSeqMatch.hpp"
#include "include/CAudioEngine.h"

namespace boop {

class AlsaSeqInput {
  public:
    struct Config {
        // Checked before opening: where it is missing (containers, build machines) the open fails
        // at once with a reason instead of in the library's own messages.
        const char* devicePath = "/dev/snd/seq";
        const char* clientName = "boop";
        const char* portName = "midi_in";
        int realtimePriority = 60;
    };
    // Called on the reader thread for every event, with its arrival time.
    using Sink = void (*)(void* context, uint64_t arrivalNs, const snd_seq_event_t& event);

    AlsaSeqInput() = default;
    ~AlsaSeqInput();
    AlsaSeqInput(const AlsaSeqInput&) = delete;
    AlsaSeqInput& operator=(const AlsaSeqInput&) = delete;

    // DEVICE_UNAVAILABLE (with `why`, one line) when there is no sequencer or it refuses a client.
    boop_status open(const Config& config, std::string& why);
    boop_status start(Sink sink, void* context);
    // Subscribes midi_in to the readable port `spec` names (see matchSeqPort). INVALID_ARGUMENT
    // when none matches, DEVICE_UNAVAILABLE when the sequencer refuses; `why` says which.
    boop_status subscribe(const char* spec, std::string& why);
    void stop() noexcept;

    // "boop:midi_in (128:0)" once open, else "".
    const std::string& portName() const noexcept { return portName_; }
    // The ports that give MIDI, other than this client's (control thread).
    std::vector<SeqPort> sources() const;

  private:
    void run() noexcept;
    void drain() noexcept;

    snd_seq_t* seq_ = nullptr;
    int port_ = -1;
    int wakeFd_ = -1;
    int realtimePriority_ = 0;
    std::string portName_;
    Sink sink_ = nullptr;
    void* context_ = nullptr;
    std::thread thread_;
    std::atomic<bool> stopping_{false};
};

}  // namespace boop
