// `boop synth` on JACK (see JackSynth.hpp).
#include "backend/jack/JackSynth.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>

#include "engine/SynthBlocks.hpp"

namespace boop {

JackSynth::~JackSynth() { stop(); }

boop_status JackSynth::open(const Config& config) {
    config_ = config;
    boop_status s = JackClient::open(config.clientName, 2, true);
    if (s != BOOP_OK) return s;
    s = prepare(config.synth, sampleRate());
    if (s == BOOP_OK) {
        try {
            block_.assign(std::size_t(kBlockFrames) * 2, 0.0f);
        } catch (...) {
            s = BOOP_ERROR_OUT_OF_MEMORY;
        }
    }
    if (s != BOOP_OK) {
        close();
        return s;
    }
    jack_set_process_callback(client(), onProcess, this);
    setOwnLatency(stage_.latency());
    return BOOP_OK;
}

boop_status JackSynth::start() {
    if (client() == nullptr) return BOOP_ERROR_NOT_RUNNING;
    if (started_) return BOOP_ERROR_ALREADY_RUNNING;
    const boop_status s = activateWith(running_, config_.connect);
    started_ = s == BOOP_OK;
    if (s != BOOP_OK) return s;
    jack_port_t* port = jack_port_register(client(), "midi_in", JACK_DEFAULT_MIDI_TYPE, JackPortIsInput, 0);
    if (port == nullptr) return BOOP_ERROR_DEVICE_UNAVAILABLE;
    setLatencyInput(port);
    jack_recompute_total_latencies(client());
    midiIn_.store(port, std::memory_order_release);
    return BOOP_OK;
}

std::string JackSynth::findMidiSource(const char* source) const {
    jack_port_t* port = jack_port_by_name(client(), source);
    if (port != nullptr)
        return (jack_port_flags(port) & JackPortIsOutput) != 0 &&
                       std::strcmp(jack_port_type(port), JACK_DEFAULT_MIDI_TYPE) == 0
                   ? std::string(source)
                   : std::string();
    // Part of a name, as the ALSA backend takes part of a client's name.
    const char** ports = jack_get_ports(client(), nullptr, JACK_DEFAULT_MIDI_TYPE, JackPortIsOutput);
    if (ports == nullptr) return {};
    std::string found;
    for (int i = 0; ports[i] != nullptr && found.empty(); ++i)
        if (strcasestr(ports[i], source) != nullptr) found = ports[i];
    jack_free(ports);
    return found;
}

boop_status JackSynth::connectMidi(const char* source, std::string&) {
    if (client() == nullptr || !active() || midiIn_.load(std::memory_order_acquire) == nullptr)
        return BOOP_ERROR_NOT_RUNNING;
    if (source == nullptr || source[0] == '\0') return BOOP_ERROR_INVALID_ARGUMENT;
    const std::string name = findMidiSource(source);
    if (name.empty()) return BOOP_ERROR_INVALID_ARGUMENT;
    const int r = jack_connect(client(), name.c_str(), jack_port_name(midiIn_.load(std::memory_order_acquire)));
    if (r != 0 && r != EEXIST) return BOOP_ERROR_DEVICE_UNAVAILABLE;
    if (std::find(sources_.begin(), sources_.end(), name) == sources_.end()) sources_.push_back(name);
    return BOOP_OK;
}

boop_status JackSynth::suspend() {
    if (client() == nullptr || !started_) return BOOP_ERROR_NOT_RUNNING;
    if (!active()) return error() == BOOP_OK ? BOOP_OK : BOOP_ERROR_DEVICE_LOST;
    deactivate();
    // No process callback runs now: the synth is the control thread's until activation.
    synth_->releaseAll();
    return BOOP_OK;
}

boop_status JackSynth::resume() {
    if (client() == nullptr || !started_) return BOOP_ERROR_NOT_RUNNING;
    if (active()) return BOOP_OK;
    if (error() != BOOP_OK) return BOOP_ERROR_DEVICE_LOST;
    const boop_status s = activate(config_.connect);
    if (s != BOOP_OK) return s;
    jack_recompute_total_latencies(client());
    const char* in = jack_port_name(midiIn_.load(std::memory_order_acquire));
    for (const std::string& source : sources_) jack_connect(client(), source.c_str(), in);
    return BOOP_OK;
}

const char* JackSynth::midiPortName() const noexcept {
    jack_port_t* port = midiIn_.load(std::memory_order_acquire);
    return port != nullptr ? jack_port_name(port) : "";
}

void JackSynth::addStats(boop_synth_stats& s) const {
    s.malformed_bytes = malformed_.load(std::memory_order_relaxed);
    s.xruns = xruns();
    s.error = error();
}

void JackSynth::stop() noexcept {
    if (client() == nullptr) return;
    deactivate();
    running_.store(false, std::memory_order_release);
    started_ = false;
    close();
    midiIn_.store(nullptr, std::memory_order_release);
}

int JackSynth::onProcess(jack_nframes_t frames, void* self) noexcept {
    static_cast<JackSynth*>(self)->process(frames);
    return 0;
}

// libjack's MIDI accessors and jack_last_frame_time read the server's shared memory without
// system calls or locks, but are not annotated: allowed by name here, as in JackClient.cpp.
BOOP_RT_UNCHECKED_BEGIN
void JackSynth::process(jack_nframes_t frames) BOOP_RT {
    fetchBuffers(frames);
    if (!running_.load(std::memory_order_acquire)) {
        for (float* b : buffers_) std::memset(b, 0, sizeof(float) * frames);
        return;
    }
    cycleStart_ = jack_last_frame_time(client());
    if (recording_ != nullptr) recording_->cycle(cycleStart_, frames);
    uint32_t done = 0;
    if (jack_port_t* port = midiIn_.load(std::memory_order_acquire))
        readMidi(jack_port_get_buffer(port, frames), frames, done);
    renderTo(done, frames);
    malformed_.store(parser_.malformed(), std::memory_order_relaxed);
    ignored_.store(parser_.ignored(), std::memory_order_relaxed);
    messages_.store(parser_.messages(), std::memory_order_relaxed);
    frames_.fetch_add(frames, std::memory_order_relaxed);
}

void JackSynth::readMidi(void* buffer, jack_nframes_t frames, uint32_t& done) BOOP_RT {
    const uint32_t count = jack_midi_get_event_count(buffer);
    for (uint32_t e = 0; e < count; ++e) {
        jack_midi_event_t event;
        if (jack_midi_event_get(&event, buffer, e) != 0) continue;
        // Events come in time order; a time past the cycle (never from a sane client) is
        // applied on its last frame rather than dropped.
        const uint32_t at = std::max(done, std::min<uint32_t>(event.time, frames - 1));
        renderTo(done, at);
        done = at;
        for (std::size_t b = 0; b < event.size; ++b) {
            MidiMessage m;
            if (!parser_.feed(event.buffer[b], m)) continue;
            apply(uint64_t(cycleStart_) + at, m);
        }
    }
}
BOOP_RT_UNCHECKED_END

void JackSynth::renderTo(uint32_t begin, uint32_t end) BOOP_RT {
    renderSynthBlocks(*synth_, *engine_, stage_, block_.data(), kBlockFrames, begin, end,
                      [this](const float* block, uint32_t n, uint32_t at) BOOP_RT {
                          if (recording_ != nullptr) recording_->pushAudio(block, n);
                          deinterleave(block, 2, n, buffers_.data(), at);
                      });
}

}  // namespace boop
