#pragma once
// JACK (jackd2, or PipeWire's JACK API): a client named after the program whose process callback
// renders a boop_source into its output ports (JackPlayback) or hands its input ports to the
// reader through a ring (JackCapture). The server owns the clock, the rate and the buffer size;
// the callbacks run on its real-time thread under the same rules as the ALSA I/O thread:
// everything they touch is allocated before the client is activated.
#include <jack/jack.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backend/Backend.hpp"
#include "backend/EndedSignal.hpp"
#include "backend/RingCapture.hpp"
#include "backend/jack/JackMidiKeys.hpp"
#include "backend/jack/JackMidiOut.hpp"
#include "backend/jack/JackTransport.hpp"
#include "include/CAudioEngine.h"
#include "rt/Realtime.hpp"
#include "rt/SampleRing.hpp"

namespace boop {

// Splits interleaved frames into per-channel port buffers, and the reverse mixdown of ports to
// mono (the mean of the channels).
void deinterleave(const float* in, uint32_t channels, uint32_t frames, float* const* out, uint32_t offset) BOOP_RT;
void mixToMono(const float* const* in, uint32_t channels, uint32_t offset, uint32_t frames, float* out) BOOP_RT;

// What both directions share: the client, its ports, its counters and the server's shutdown.
class JackClient {
  public:
    JackClient() = default;
    ~JackClient();
    JackClient(const JackClient&) = delete;
    JackClient& operator=(const JackClient&) = delete;

    // Opens the client (never starts a server) and registers `channels` ports named
    // <prefix>_1...; DEVICE_UNAVAILABLE when no server runs, or when it did not answer within
    // BOOP_JACK_ANSWER_SECONDS (then openWhy() says so). libjack's own messages are silenced:
    // the caller reports one line.
    boop_status open(const char* clientName, uint32_t channels, bool output);
    // Why the last open failed, when boop knows more than "no server": "" otherwise.
    const char* openWhy() const noexcept { return openWhy_; }
    // Activates and, with `connect`, links the ports with the server's physical ports.
    boop_status activate(bool connect);
    // Leaves the server's graph (its links go; the ports stay registered) until activate again:
    // a stopped process must not stall the server (boop synth on SIGTSTP).
    void deactivate() noexcept;
    void close() noexcept;

    jack_client_t* client() const noexcept { return client_; }
    double sampleRate() const noexcept { return rate_; }
    uint32_t bufferFrames() const noexcept { return bufferSize_.load(std::memory_order_relaxed); }
    uint32_t channels() const noexcept { return static_cast<uint32_t>(ports_.size()); }
    bool realtime() const noexcept { return realtime_; }
    uint64_t xruns() const noexcept { return xruns_.load(std::memory_order_relaxed); }
    uint32_t latencyFrames() const noexcept { return latency_.load(std::memory_order_relaxed); }
    // BOOP_ERROR_DEVICE_LOST once the server shut down or threw the client out.
    boop_status error() const noexcept { return static_cast<boop_status>(error_.load(std::memory_order_acquire)); }
    // Readable once the server shut the client down, or once the client was stopped.
    int endedDescriptor() const noexcept { return ended_.descriptor(); }
    bool active() const noexcept { return active_ && error() == BOOP_OK; }

  protected:
    std::vector<jack_port_t*> ports_;
    std::vector<float*> buffers_;  // the ports' buffers of the current cycle

    // Raises `running` (what the process callback checks) before activating, so the first cycle
    // already works, and lowers it again when activation fails.
    boop_status activateWith(std::atomic<bool>& running, bool connect);
    // Control thread: connects this client's MIDI output `out` to another client's MIDI input
    // (its full name). BOOP_ERROR_NOT_RUNNING (no port, not active), BOOP_ERROR_INVALID_ARGUMENT
    // (no such MIDI input), BOOP_ERROR_DEVICE_UNAVAILABLE.
    boop_status connectMidiPort(jack_port_t* out, const char* destination);

    // Fetches every port's buffer for this cycle into buffers_ (the process thread).
    void fetchBuffers(jack_nframes_t frames) BOOP_RT;

    // The frames the client itself delays its sound (the output stage's look-ahead), reported in
    // the ports' latencies so that other clients can compensate; 0 (the default) reports none.
    // `input`: the port whose events the sound follows (the synth's midi_in), or nullptr.
    // Control thread, before activation or followed by jack_recompute_total_latencies.
    void setOwnLatency(uint32_t frames) noexcept { ownLatency_.store(frames, std::memory_order_relaxed); }
    void setLatencyInput(jack_port_t* input) noexcept { latencyInput_.store(input, std::memory_order_release); }

  private:
    static int onBufferSize(jack_nframes_t frames, void* self) noexcept;
    static int onXrun(void* self) noexcept;
    static void onShutdown(jack_status_t code, const char* reason, void* self) noexcept;
    static void onLatency(jack_latency_callback_mode_t mode, void* self) noexcept;
    void reportOwnLatency(jack_latency_callback_mode_t mode, uint32_t own) noexcept;

    jack_client_t* client_ = nullptr;
    const char* openWhy_ = "";
    bool output_ = true;
    bool active_ = false;
    bool realtime_ = false;
    double rate_ = 0;
    std::atomic<uint32_t> bufferSize_{0};
    std::atomic<uint64_t> xruns_{0};
    std::atomic<uint32_t> latency_{0};
    std::atomic<uint32_t> ownLatency_{0};
    std::atomic<jack_port_t*> latencyInput_{nullptr};
    std::atomic<int> error_{BOOP_OK};

  protected:
    EndedSignal ended_;
};

class JackPlayback final : public JackClient, public PlaybackBackend {
  public:
    struct Config {
        const char* clientName = "boop";
        bool connect = true;
        bool midiOut = false;                 // a port midi_out written from midi() at engine frames
        bool mute = false;                    // the ports carry silence (MIDI out only); the source still runs
        bool followTransport = false;         // transport() reports the JACK transport's changes
        bool followMidiClock = false;         // a port midi_in whose clock transport() reports
        std::shared_ptr<MidiKeysQueue> keys;  // a port midi_in whose notes go there (the editor's keyboard)
    };

    ~JackPlayback() override;

    // The MIDI output, when the config asked for one (nullptr otherwise).
    MidiOutWriter* midi() noexcept { return midiWriter_.get(); }
    TransportWatch* transport() noexcept { return transport_.get(); }
    // Connects midi_out to another client's MIDI input port (control thread, after start).
    boop_status connectMidiOut(const char* destination);
    // Connects another client's MIDI output port to midi_in (control thread, after start).
    boop_status connectMidiIn(const char* source);

    // The server's rate wins over `sampleRate` (see info); the source must be made at that rate.
    boop_status open(const Config& config, double sampleRate, uint32_t channels);
    boop_status start(boop_source source) override;
    void stop(bool drain) override;

    boop_playback_info info() const override;
    boop_playback_stats stats() const override;
    void setProcessingLatency(uint32_t frames) noexcept override { setOwnLatency(frames); }
    int endedDescriptor() const noexcept override { return JackClient::endedDescriptor(); }

  private:
    static int onProcess(jack_nframes_t frames, void* self) noexcept;
    void process(jack_nframes_t frames) BOOP_RT;

    // The interleaved block the source renders into: large enough for any buffer size (a cycle
    // longer than it is rendered in pieces).
    static constexpr uint32_t kBlockFrames = 4096;

    Config config_;
    boop_source source_{};
    std::vector<float> block_;
    jack_port_t* midiOut_ = nullptr;
    jack_port_t* midiIn_ = nullptr;
    MidiKeysQueue* keys_ = nullptr;
    std::unique_ptr<MidiOutWriter> midiWriter_;
    std::unique_ptr<TransportWatch> transport_;
    // With MIDI out the engine's clock must stay the server's: cycles the server ran without this
    // client (an xrun) are rendered and dropped at the next cycle, up to kCatchUpSeconds.
    // Never past `limit` (an armed transport start holds the engine there).
    void catchUp(jack_nframes_t frames, uint64_t limit) BOOP_RT;
    void dropFrames(uint32_t missed) BOOP_RT;
    void renderSpans(jack_nframes_t frames, uint64_t clock, void* midiBuffer) BOOP_RT;
    void renderRange(uint32_t from, uint32_t to) BOOP_RT;
    void renderKeys(void* in, uint64_t clock, uint32_t live) BOOP_RT;
    static constexpr double kCatchUpSeconds = 2.0;
    jack_nframes_t nextCycleTime_ = 0;
    bool cycleSeen_ = false;
    std::atomic<bool> rendering_{false};
    std::atomic<uint64_t> frames_{0};
    bool started_ = false;
};

class JackCapture final : public JackClient, public RingCapture {
  public:
    struct Config {
        const char* clientName = "boop";
        bool connect = true;
        uint32_t channels = 1;
        uint32_t ringFrames = 65536;
    };

    ~JackCapture() override;

    boop_status open(const Config& config);
    boop_status start() override;
    void stop() override;

    // A port midi_out whose events (queued with capture frames: the ring's frame sequence) the
    // process callback writes on their frame (boop listen --midi-out). Control thread, between
    // open and start; the writer is nullptr without it.
    boop_status openMidiOut();
    MidiOutWriter* midi() noexcept { return midiWriter_.get(); }
    // Connects midi_out to another client's MIDI input port (control thread, after start).
    boop_status connectMidiOut(const char* destination);

    boop_capture_info info() const override;
    boop_capture_stats stats() const override;

  private:
    static int onProcess(jack_nframes_t frames, void* self) noexcept;
    void process(jack_nframes_t frames) BOOP_RT;

    bool filling() const noexcept override { return capturing_.load(std::memory_order_acquire) && error() == BOOP_OK; }
    double periodSeconds() const noexcept override {
        return sampleRate() > 0 ? double(bufferFrames()) / sampleRate() : 0.0;
    }

    static constexpr uint32_t kMonoFrames = 8192;

    Config config_;
    jack_port_t* midiOut_ = nullptr;
    std::unique_ptr<MidiOutWriter> midiWriter_;
    std::vector<float> mono_;
    std::atomic<bool> capturing_{false};
    std::atomic<uint64_t> captured_{0};
    std::atomic<uint64_t> dropped_{0};
    bool started_ = false;
    bool stopped_ = false;
};

// The audio ports of a running server, for `boop devices`. DEVICE_UNAVAILABLE when none runs.
struct JackPortEntry {
    std::string name;
    std::string type;
    bool physical = false;
    bool acceptsAudio = false;   // an input port: something to play into
    bool producesAudio = false;  // an output port: something to record from
};
boop_status listJackPorts(std::vector<JackPortEntry>& out);
// Opens a client (never a server), hands `visit` the name, port and flags of every port of `type`
// (JACK_DEFAULT_AUDIO_TYPE, JACK_DEFAULT_MIDI_TYPE), and closes it. DEVICE_UNAVAILABLE when no
// server runs, OUT_OF_MEMORY when a visit threw.
boop_status visitJackPorts(const char* type, const std::function<void(const char*, jack_port_t*, int)>& visit);

}  // namespace boop
