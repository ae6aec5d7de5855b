// JACK capture: the client's input ports, mixed to mono into the capture ring (see JackClient.hpp).
#include <algorithm>
#include <cerrno>
#include <cstring>

#include "backend/jack/JackClient.hpp"

namespace boop {

// ---- JackCapture ---------------------------------------------------------------------------

JackCapture::~JackCapture() { stop(); }

boop_status JackCapture::open(const Config& config) {
    config_ = config;
    const boop_status s = JackClient::open(config.clientName, config.channels, false);
    if (s != BOOP_OK) return s;
    try {
        ring_ = std::make_unique<SampleRing>(config.ringFrames);
        mono_.assign(kMonoFrames, 0.0f);
    } catch (...) {
        close();
        return BOOP_ERROR_OUT_OF_MEMORY;
    }
    jack_set_process_callback(client(), onProcess, this);
    return BOOP_OK;
}

boop_status JackCapture::openMidiOut() {
    if (client() == nullptr || started_) return BOOP_ERROR_NOT_RUNNING;
    if (midiOut_ != nullptr) return BOOP_OK;
    try {
        midiWriter_ = std::make_unique<MidiOutWriter>(std::size_t(1) << 14);
    } catch (...) {
        return BOOP_ERROR_OUT_OF_MEMORY;
    }
    midiOut_ = jack_port_register(client(), "midi_out", JACK_DEFAULT_MIDI_TYPE, JackPortIsOutput, 0);
    if (midiOut_ == nullptr) {
        midiWriter_.reset();
        return BOOP_ERROR_DEVICE_UNAVAILABLE;
    }
    return BOOP_OK;
}

boop_status JackCapture::connectMidiOut(const char* destination) { return connectMidiPort(midiOut_, destination); }

boop_status JackCapture::start() {
    if (stopped_) return BOOP_ERROR_NOT_RUNNING;
    if (client() == nullptr) return BOOP_ERROR_NOT_RUNNING;
    if (started_) return BOOP_ERROR_ALREADY_RUNNING;
    const boop_status s = activateWith(capturing_, config_.connect);
    started_ = s == BOOP_OK;
    return s;
}

void JackCapture::stop() {
    if (client() == nullptr) return;
    deactivate();
    capturing_.store(false, std::memory_order_release);
    close();
    stopped_ = true;
}

int JackCapture::onProcess(jack_nframes_t frames, void* self) noexcept {
    static_cast<JackCapture*>(self)->process(frames);
    return 0;
}

// jack_port_get_buffer reads the server's shared memory (no system call, no lock) but is not
// annotated: allowed by name, as the other JACK process callbacks do.
BOOP_RT_UNCHECKED_BEGIN
void JackCapture::process(jack_nframes_t frames) BOOP_RT {
    const bool capturing = capturing_.load(std::memory_order_acquire);
    if (midiOut_ != nullptr) {
        // The events of this cycle are those whose capture frame falls in the frames it brings in:
        // the reader's decision about frame F, queued for F + its fixed delay, lands on that frame.
        void* buffer = jack_port_get_buffer(midiOut_, frames);
        if (capturing)
            midiWriter_->writeCycle(buffer, captured_.load(std::memory_order_relaxed), frames);
        else
            jack_midi_clear_buffer(buffer);
    }
    if (!capturing) return;
    fetchBuffers(frames);
    for (uint32_t done = 0; done < frames;) {
        const uint32_t n = std::min<uint32_t>(frames - done, kMonoFrames);
        mixToMono(buffers_.data(), channels(), done, n, mono_.data());
        const std::size_t written = ring_->write(mono_.data(), n);
        captured_.fetch_add(written, std::memory_order_release);
        if (written < n) dropped_.fetch_add(n - written, std::memory_order_relaxed);
        done += n;
    }
}
BOOP_RT_UNCHECKED_END

boop_capture_info JackCapture::info() const {
    return streamInfo<boop_capture_info>(sampleRate(), channels(), bufferFrames(), bufferFrames(), "FLOAT_LE",
                                         realtime());
}

boop_capture_stats JackCapture::stats() const {
    boop_capture_stats s{};
    s.frames_captured = captured_.load(std::memory_order_acquire);
    s.frames_dropped = dropped_.load(std::memory_order_relaxed);
    s.overruns = xruns();
    s.running = filling() ? 1 : 0;
    s.error = error();
    return s;
}

}  // namespace boop
