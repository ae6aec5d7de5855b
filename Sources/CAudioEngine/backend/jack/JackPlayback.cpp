// JACK playback: a source rendered into the client's output ports in the server's process
// callback (see JackClient.hpp).
#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <chrono>

#include "backend/jack/JackClient.hpp"

namespace boop {

namespace {

int64_t nowNs() noexcept {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace

// The process callbacks are BOOP_RT, so RealtimeSanitizer watches everything they run. Calls the
// compiler cannot prove non-blocking are allowed by name: libjack's real-time accessors (MIDI
// buffers, jack_last_frame_time: reads of shared memory) and a source's render through its
// function pointer (BOOP_RT where each source is defined).
BOOP_RT_UNCHECKED_BEGIN
JackPlayback::~JackPlayback() { stop(false); }

boop_status JackPlayback::open(const Config& config, double, uint32_t channels) {
    if (channels < 1 || channels > BOOP_CHANNELS_MAX) return BOOP_ERROR_INVALID_ARGUMENT;
    config_ = config;
    const boop_status s = JackClient::open(config.clientName, channels, true);
    if (s != BOOP_OK) return s;
    block_.assign(std::size_t(kBlockFrames) * channels, 0.0f);
    if (config.midiOut) {
        midiOut_ = jack_port_register(client(), "midi_out", JACK_DEFAULT_MIDI_TYPE, JackPortIsOutput, 0);
        if (midiOut_ == nullptr) {
            close();
            return BOOP_ERROR_DEVICE_UNAVAILABLE;
        }
        try {
            midiWriter_ = std::make_unique<MidiOutWriter>(std::size_t(1) << 16);
        } catch (...) {
            close();
            return BOOP_ERROR_OUT_OF_MEMORY;
        }
    }
    keys_ = config.keys.get();                   // kept alive by config_
    if (keys_ != nullptr) keys_->forgetSound();  // an earlier playback's engine may be gone
    if (config.followMidiClock || keys_ != nullptr) {
        midiIn_ = jack_port_register(client(), "midi_in", JACK_DEFAULT_MIDI_TYPE, JackPortIsInput, 0);
        if (midiIn_ == nullptr) {
            close();
            return BOOP_ERROR_DEVICE_UNAVAILABLE;
        }
    }
    if (config.followTransport || config.followMidiClock) transport_ = std::make_unique<TransportWatch>(frames_);
    if (config.followTransport) transport_->attach(client());
    jack_set_process_callback(client(), onProcess, this);
    return BOOP_OK;
}

boop_status JackPlayback::connectMidiOut(const char* destination) { return connectMidiPort(midiOut_, destination); }

boop_status JackPlayback::connectMidiIn(const char* source) {
    if (midiIn_ == nullptr || !active()) return BOOP_ERROR_NOT_RUNNING;
    jack_port_t* port = jack_port_by_name(client(), source);
    if (port == nullptr || (jack_port_flags(port) & JackPortIsOutput) == 0 ||
        std::strcmp(jack_port_type(port), JACK_DEFAULT_MIDI_TYPE) != 0)
        return BOOP_ERROR_INVALID_ARGUMENT;
    const int r = jack_connect(client(), source, jack_port_name(midiIn_));
    return r == 0 || r == EEXIST ? BOOP_OK : BOOP_ERROR_DEVICE_UNAVAILABLE;
}

boop_status JackPlayback::start(boop_source source) {
    if (client() == nullptr) return BOOP_ERROR_NOT_RUNNING;
    if (started_) return BOOP_ERROR_ALREADY_RUNNING;
    if (source.render == nullptr || source.channels != channels() || source.max_block_frames == 0)
        return BOOP_ERROR_INVALID_ARGUMENT;
    source_ = source;
    ended_.clear();
    const boop_status s = activateWith(rendering_, config_.connect);
    started_ = s == BOOP_OK;
    return s;
}

void JackPlayback::stop(bool drain) {
    if (client() == nullptr) return;
    if (drain && active()) {
        // What was rendered reaches the speakers after the ports' latency and this cycle.
        const double seconds = std::min(2.0, double(latencyFrames() + 2 * bufferFrames()) / sampleRate());
        const int64_t until = nowNs() + int64_t(seconds * 1e9);
        while (active() && nowNs() < until) poll(nullptr, 0, 5);
    }
    deactivate();
    rendering_.store(false, std::memory_order_release);
    close();
    ended_.raise();
}

int JackPlayback::onProcess(jack_nframes_t frames, void* self) noexcept {
    static_cast<JackPlayback*>(self)->process(frames);
    return 0;
}

void JackPlayback::process(jack_nframes_t frames) BOOP_RT {
    fetchBuffers(frames);
    const uint32_t ch = channels();
    void* midiBuffer = midiOut_ != nullptr ? jack_port_get_buffer(midiOut_, frames) : nullptr;
    if (!rendering_.load(std::memory_order_acquire)) {
        for (uint32_t c = 0; c < ch; ++c) std::memset(buffers_[c], 0, sizeof(float) * frames);
        if (midiBuffer != nullptr) jack_midi_clear_buffer(midiBuffer);
        return;
    }
    // The engine has rendered exactly the frames counted so far: its clock at this cycle's start.
    // Following the transport, it is held on an armed start's frame until the transport rolls.
    // Following a MIDI clock, it is held from a Start or Continue until the first clock after it.
    const bool follow = config_.followTransport;
    const bool clocked = config_.followMidiClock;
    if (midiBuffer != nullptr)
        catchUp(frames, follow                               ? transport_->holdLimit()
                        : clocked && transport_->clockHeld() ? frames_.load(std::memory_order_relaxed)
                                                             : UINT64_MAX);
    uint32_t lead = 0;  // frames of silence first, the engine standing still (realigned with the transport)
    if (follow) {
        transport_->cycle(client(), frames_.load(std::memory_order_relaxed), frames, xruns());
        dropFrames(transport_->skip());
        lead = transport_->lead();
    }
    const uint64_t clock = frames_.load(std::memory_order_relaxed);
    void* keysIn = nullptr;  // the keyboard's notes, sounded on their frames as the cycle renders
    if (midiIn_ != nullptr) {
        void* in = jack_port_get_buffer(midiIn_, frames);
        if (clocked) transport_->midi(in, clock, frames);
        if (keys_ != nullptr && clocked) readMidiKeys(in, clock, *keys_);
        if (keys_ != nullptr && !clocked) keysIn = in;
    }
    if (clocked) return renderSpans(frames, clock, midiBuffer);
    const uint64_t limit = follow ? transport_->holdLimit() : UINT64_MAX;
    const uint32_t live = limit > clock ? static_cast<uint32_t>(std::min<uint64_t>(frames - lead, limit - clock)) : 0;
    if (midiBuffer != nullptr && follow && transport_->midiHeld())
        midiWriter_->quietCycle(midiBuffer);
    else if (midiBuffer != nullptr && !midiWriter_->quietCycle(midiBuffer))
        midiWriter_->writeSpan(midiBuffer, clock, live, lead);
    if (keysIn != nullptr)
        renderKeys(keysIn, clock, live);
    else
        renderRange(lead, lead + live);
    for (uint32_t c = 0; c < ch; ++c) {
        std::memset(buffers_[c], 0, sizeof(float) * lead);
        const uint32_t silent = config_.mute ? 0 : lead + live;
        std::memset(buffers_[c] + silent, 0, sizeof(float) * (frames - silent));
    }
    frames_.fetch_add(live, std::memory_order_release);
}

// The cycle's frames [from, to) from the source, into the ports.
void JackPlayback::renderRange(uint32_t from, uint32_t to) BOOP_RT {
    const uint32_t ch = channels();
    const uint32_t step = std::min(kBlockFrames, source_.max_block_frames);
    for (uint32_t done = from; done < to;) {
        const uint32_t n = std::min<uint32_t>(to - done, step);
        if (source_.render(source_.context, block_.data(), n) != BOOP_OK)
            std::fill(block_.begin(), block_.begin() + std::ptrdiff_t(n) * ch, 0.0f);
        deinterleave(block_.data(), ch, n, buffers_.data(), done);
        done += n;
    }
}

// The editor's keyboard: the source renders up to each message's frame, the message is played
// there (a note starts on its own frame), rendering goes on. Messages come in time order; one
// past the frames rendered this cycle is played at their end.
void JackPlayback::renderKeys(void* in, uint64_t clock, uint32_t live) BOOP_RT {
    keys_->takeSound();
    uint32_t done = 0;
    const uint32_t count = midiKeyCount(in);
    for (uint32_t i = 0; i < count; ++i) {
        boop_midi_event e;
        uint32_t offset = 0;
        if (!midiKey(in, i, clock, e, offset)) continue;
        const uint32_t at = std::max(done, std::min(offset, live));
        renderRange(done, at);
        done = at;
        e.frame = clock + at;
        keys_->play(e);
    }
    renderRange(done, live);
}

// A MIDI clock's cycle: the engine renders its spans (the parts it is not held in), each where it
// falls in the cycle, silence between; its MIDI output goes out shifted alike.
void JackPlayback::renderSpans(jack_nframes_t frames, uint64_t clock, void* midiBuffer) BOOP_RT {
    const uint32_t ch = channels();
    for (uint32_t c = 0; c < ch; ++c) std::memset(buffers_[c], 0, sizeof(float) * frames);
    const bool midi = midiBuffer != nullptr && !midiWriter_->quietCycle(midiBuffer);
    const uint32_t step = std::min(kBlockFrames, source_.max_block_frames);
    uint64_t engine = clock;
    for (uint32_t k = 0; k < transport_->spanCount(); ++k) {
        const TransportWatch::Span span = transport_->spans()[k];
        if (midi) midiWriter_->writeSpan(midiBuffer, engine, span.frames, span.offset);
        for (uint32_t done = 0; done < span.frames;) {
            const uint32_t n = std::min<uint32_t>(span.frames - done, step);
            if (source_.render(source_.context, block_.data(), n) != BOOP_OK)
                std::fill(block_.begin(), block_.begin() + std::ptrdiff_t(n) * ch, 0.0f);
            if (!config_.mute) deinterleave(block_.data(), ch, n, buffers_.data(), span.offset + done);
            done += n;
        }
        engine += span.frames;
    }
    frames_.fetch_add(engine - clock, std::memory_order_release);
}

// A cycle the server ran without this client moves the frame time on by more than a cycle.
void JackPlayback::catchUp(jack_nframes_t frames, uint64_t limit) BOOP_RT {
    const jack_nframes_t now = jack_last_frame_time(client());
    const uint32_t gap = cycleSeen_ ? static_cast<uint32_t>(now - nextCycleTime_) : 0;
    cycleSeen_ = true;
    nextCycleTime_ = now + frames;
    if (gap == 0 || gap > static_cast<uint32_t>(kCatchUpSeconds * sampleRate())) return;
    const uint64_t clock = frames_.load(std::memory_order_relaxed);
    dropFrames(static_cast<uint32_t>(std::min<uint64_t>(gap, limit > clock ? limit - clock : 0)));
}

// The engine renders `missed` frames that nobody hears: its clock moves on with the server's.
void JackPlayback::dropFrames(uint32_t missed) BOOP_RT {
    const uint32_t step = std::min(kBlockFrames, source_.max_block_frames);
    for (uint32_t done = 0; done < missed;) {
        const uint32_t n = std::min(missed - done, step);
        source_.render(source_.context, block_.data(), n);
        done += n;
    }
    frames_.fetch_add(missed, std::memory_order_release);
}

BOOP_RT_UNCHECKED_END

boop_playback_info JackPlayback::info() const {
    return playbackInfo(sampleRate(), channels(), bufferFrames(), bufferFrames(), bufferFrames(), "FLOAT_LE",
                        realtime() ? BOOP_PRIORITY_FIFO : BOOP_PRIORITY_NORMAL);
}

boop_playback_stats JackPlayback::stats() const {
    boop_playback_stats s{};
    s.frames_written = frames_.load(std::memory_order_acquire);
    // A cycle's frames are heard one cycle later plus the latency of what the ports feed.
    s.delay_frames = int64_t(latencyFrames()) + bufferFrames();
    s.xruns = xruns();
    s.running = rendering_.load(std::memory_order_acquire) && error() == BOOP_OK ? 1 : 0;
    s.error = error();
    s.latency_frames = latencyFrames() + bufferFrames();
    return s;
}

}  // namespace boop
