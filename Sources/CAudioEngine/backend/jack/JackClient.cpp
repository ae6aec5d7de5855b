// JACK client and the port listing (see JackClient.hpp; playback in JackPlayback.cpp, capture in
// JackCapture.cpp).
#include "backend/jack/JackClient.hpp"

#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "backend/BoundedCall.hpp"

namespace boop {

namespace {

// libjack prints its own diagnostics ("Cannot connect to server socket ...") on stderr, several
// lines per failed attempt; boop reports one line of its own instead.
void silent(const char*) {}

void silenceLibjack() noexcept {
    jack_set_error_function(silent);
    jack_set_info_function(silent);
}

// The threads libjack starts (its notification thread at open, the real-time process thread at
// activation) inherit the starting thread's signal mask. With the signals boop handles blocked
// while they start, no handler ever runs on them: Ctrl-Z's handler, run on the process thread
// while it waited for its next cycle, left the client stuck after `fg` (the server reporting it
// "not finished" every cycle from then on, and the sound gone).
class HandledSignalsBlocked {
  public:
    HandledSignalsBlocked() noexcept {
        sigset_t set;
        sigemptyset(&set);
        for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGCONT, SIGWINCH, SIGTTIN, SIGTTOU})
            sigaddset(&set, sig);
        pthread_sigmask(SIG_BLOCK, &set, &old_);
    }
    ~HandledSignalsBlocked() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
    HandledSignalsBlocked(const HandledSignalsBlocked&) = delete;
    HandledSignalsBlocked& operator=(const HandledSignalsBlocked&) = delete;

  private:
    sigset_t old_{};
};

// Calls into libjack of this process still waiting for a server's answer (see BoundedCall.hpp).
LateCalls lateCalls;

// jack_deactivate and jack_client_close wait for the server's answer as the open does: a server
// stopped (SIGSTOP) while boop played left `q` and SIGTERM waiting in them for ever. Late, or not
// made because an earlier call is still late, the client is left as it is until the process ends.
// Made on a thread of its own, the close also keeps the caller's signal mask: jack2, closing its
// last client, sets the closing thread's mask to the one saved at the first open (handled signals
// blocked), which once left Ctrl-C and SIGTERM blocked for good on the main thread.
bool answeredWithin(std::function<int()> call) {
    int result = -1;
    return callWithin<int>(
               lateCalls, BOOP_JACK_ANSWER_SECONDS, std::move(call), [](int) {}, result) == BoundedOutcome::done;
}

// jack_client_open (never starting a server), waiting for it at most
// BOOP_JACK_ANSWER_SECONDS; `why` says why no client came back (empty: the server refused or is
// not there, which the caller says in its own words).
jack_client_t* openClient(const char* name, const char*& why) {
    why = "";
    jack_client_t* client = nullptr;
    const std::string owned = name;
    const BoundedOutcome outcome = callWithin<jack_client_t*>(
        lateCalls, BOOP_JACK_ANSWER_SECONDS,
        [owned]() {
            jack_status_t status{};
            return jack_client_open(owned.c_str(), JackNoStartServer, &status);
        },
        [](jack_client_t* late) {
            if (late != nullptr) jack_client_close(late);
        },
        client);
    switch (outcome) {
        case BoundedOutcome::done:
            break;
        case BoundedOutcome::late:
            why = "the JACK server did not answer within " BOOP_JACK_ANSWER_TEXT " (stopped or hung?)";
            break;
        case BoundedOutcome::busy:
            why = "an earlier attempt to reach the JACK server has not returned yet (stopped or hung?)";
            break;
        case BoundedOutcome::noThread:
            why = "no thread could be started for the JACK client";
            break;
    }
    return client;
}

}  // namespace

void deinterleave(const float* in, uint32_t channels, uint32_t frames, float* const* out, uint32_t offset) BOOP_RT {
    for (uint32_t c = 0; c < channels; ++c) {
        float* dst = out[c] + offset;
        for (uint32_t i = 0; i < frames; ++i) dst[i] = in[std::size_t(i) * channels + c];
    }
}

void mixToMono(const float* const* in, uint32_t channels, uint32_t offset, uint32_t frames, float* out) BOOP_RT {
    const float scale = 1.0f / static_cast<float>(channels);
    for (uint32_t i = 0; i < frames; ++i) {
        float sum = 0.0f;
        for (uint32_t c = 0; c < channels; ++c) sum += in[c][offset + i];
        out[i] = sum * scale;
    }
}

// ---- JackClient ----------------------------------------------------------------------------

JackClient::~JackClient() { close(); }

boop_status JackClient::open(const char* clientName, uint32_t channels, bool output) {
    if (client_ != nullptr) return BOOP_ERROR_ALREADY_RUNNING;
    if (clientName == nullptr || clientName[0] == '\0' || channels < 1 || channels > BOOP_DEVICE_CHANNELS_MAX)
        return BOOP_ERROR_INVALID_ARGUMENT;
    silenceLibjack();
    // Never start a server behind the user's back: no server is "unavailable", said once.
    {
        const HandledSignalsBlocked blocked;
        client_ = openClient(clientName, openWhy_);
    }
    if (client_ == nullptr) return BOOP_ERROR_DEVICE_UNAVAILABLE;
    output_ = output;
    rate_ = jack_get_sample_rate(client_);
    bufferSize_.store(jack_get_buffer_size(client_), std::memory_order_relaxed);
    jack_set_buffer_size_callback(client_, onBufferSize, this);
    jack_set_xrun_callback(client_, onXrun, this);
    jack_on_info_shutdown(client_, onShutdown, this);
    jack_set_latency_callback(client_, onLatency, this);
    ports_.reserve(channels);
    buffers_.assign(channels, nullptr);
    for (uint32_t c = 0; c < channels; ++c) {
        char name[32];
        std::snprintf(name, sizeof name, "%s_%u", output ? "out" : "in", c + 1);
        jack_port_t* port =
            jack_port_register(client_, name, JACK_DEFAULT_AUDIO_TYPE, output ? JackPortIsOutput : JackPortIsInput, 0);
        if (port == nullptr) {
            close();
            return BOOP_ERROR_DEVICE_UNAVAILABLE;
        }
        ports_.push_back(port);
    }
    return BOOP_OK;
}

boop_status JackClient::activate(bool connect) {
    if (client_ == nullptr) return BOOP_ERROR_NOT_RUNNING;
    {
        const HandledSignalsBlocked blocked;
        if (jack_activate(client_) != 0) return BOOP_ERROR_DEVICE_UNAVAILABLE;
    }
    active_ = true;
    realtime_ = jack_is_realtime(client_) != 0;
    if (!connect) return BOOP_OK;
    // Playback feeds the server's physical inputs (system:playback_N); capture reads its physical
    // outputs (system:capture_N). A mono output goes to the first two speakers, as a mono file
    // played by any player does.
    const char** physical = jack_get_ports(client_, nullptr, JACK_DEFAULT_AUDIO_TYPE,
                                           JackPortIsPhysical | (output_ ? JackPortIsInput : JackPortIsOutput));
    if (physical == nullptr) return BOOP_OK;  // nothing to connect to: the user routes it
    std::size_t count = 0;
    while (physical[count] != nullptr) ++count;
    const std::size_t links =
        ports_.size() == 1 && output_ ? std::min<std::size_t>(2, count) : std::min(ports_.size(), count);
    for (std::size_t i = 0; i < links; ++i) {
        jack_port_t* mine = ports_[std::min(i, ports_.size() - 1)];
        if (output_)
            jack_connect(client_, jack_port_name(mine), physical[i]);
        else
            jack_connect(client_, physical[i], jack_port_name(mine));
    }
    jack_free(physical);
    return BOOP_OK;
}

boop_status JackClient::activateWith(std::atomic<bool>& running, bool connect) {
    running.store(true, std::memory_order_release);
    const boop_status s = activate(connect);
    if (s != BOOP_OK) running.store(false, std::memory_order_release);
    return s;
}

void JackClient::deactivate() noexcept {
    if (client_ == nullptr || !active_) return;
    // After a shutdown the server is gone: nothing to leave.
    if (error() == BOOP_OK) {
        const HandledSignalsBlocked blocked;
        jack_client_t* c = client_;
        answeredWithin([c] { return jack_deactivate(c); });
    }
    active_ = false;
}

void JackClient::close() noexcept {
    if (client_ == nullptr) return;
    deactivate();
    {
        // After a shutdown, closing only frees the client's side.
        const HandledSignalsBlocked blocked;
        jack_client_t* c = client_;
        answeredWithin([c] { return jack_client_close(c); });
    }
    client_ = nullptr;
    active_ = false;
    ports_.clear();
    latencyInput_.store(nullptr, std::memory_order_release);
}

// The process callbacks are BOOP_RT, so RealtimeSanitizer watches everything they run.
// jack_port_get_buffer (libjack's real-time accessor: pointer arithmetic on shared memory) is not
// annotated: allowed by name.
BOOP_RT_UNCHECKED_BEGIN
void JackClient::fetchBuffers(jack_nframes_t frames) BOOP_RT {
    for (std::size_t c = 0; c < ports_.size(); ++c)
        buffers_[c] = static_cast<float*>(jack_port_get_buffer(ports_[c], frames));
}
BOOP_RT_UNCHECKED_END

int JackClient::onBufferSize(jack_nframes_t frames, void* self) noexcept {
    static_cast<JackClient*>(self)->bufferSize_.store(frames, std::memory_order_relaxed);
    return 0;
}

int JackClient::onXrun(void* self) noexcept {
    static_cast<JackClient*>(self)->xruns_.fetch_add(1, std::memory_order_relaxed);
    return 0;
}

void JackClient::onShutdown(jack_status_t, const char*, void* self) noexcept {
    auto* me = static_cast<JackClient*>(self);
    me->error_.store(BOOP_ERROR_DEVICE_LOST, std::memory_order_release);
    me->ended_.raise();  // write(2): async-signal-safe, as JACK asks of this callback
}

void JackClient::onLatency(jack_latency_callback_mode_t mode, void* self) noexcept {
    auto* me = static_cast<JackClient*>(self);
    if (me->ports_.empty()) return;
    const jack_latency_callback_mode_t mine = me->output_ ? JackPlaybackLatency : JackCaptureLatency;
    if (mode == mine) {
        jack_latency_range_t range{};
        jack_port_get_latency_range(me->ports_[0], mine, &range);
        me->latency_.store(range.max, std::memory_order_relaxed);
    }
    const uint32_t own = me->ownLatency_.load(std::memory_order_relaxed);
    if (own > 0 && me->output_) me->reportOwnLatency(mode, own);
}

// A client with a latency callback gets no latency computed for it by the server, so one that
// delays its sound says so itself: its outputs' capture latency is its input's plus `own` (a
// recorder of out_1 knows how late a note on midi_in sounds there), its input's playback latency
// the outputs' plus `own` (a sequencer feeding midi_in knows how early to send).
void JackClient::reportOwnLatency(jack_latency_callback_mode_t mode, uint32_t own) noexcept {
    jack_port_t* input = latencyInput_.load(std::memory_order_acquire);
    jack_latency_range_t range{0, 0};
    if (mode == JackCaptureLatency) {
        if (input != nullptr) jack_port_get_latency_range(input, JackCaptureLatency, &range);
        range = {range.min + own, range.max + own};
        for (jack_port_t* port : ports_) jack_port_set_latency_range(port, JackCaptureLatency, &range);
        return;
    }
    if (input == nullptr) return;
    jack_latency_range_t out{UINT32_MAX, 0};
    for (jack_port_t* port : ports_) {
        jack_port_get_latency_range(port, JackPlaybackLatency, &range);
        out = {std::min(out.min, range.min), std::max(out.max, range.max)};
    }
    range = {out.min + own, out.max + own};
    jack_port_set_latency_range(input, JackPlaybackLatency, &range);
}

// ---- listing -------------------------------------------------------------------------------

boop_status visitJackPorts(const char* type, const std::function<void(const char*, jack_port_t*, int)>& visit) {
    silenceLibjack();
    const char* why = "";
    jack_client_t* c = nullptr;
    {
        const HandledSignalsBlocked blocked;
        c = openClient("boop-devices", why);
    }
    if (c == nullptr) return BOOP_ERROR_DEVICE_UNAVAILABLE;
    const char** names = jack_get_ports(c, nullptr, type, 0);
    boop_status result = BOOP_OK;
    try {
        for (std::size_t i = 0; names != nullptr && names[i] != nullptr; ++i)
            if (jack_port_t* port = jack_port_by_name(c, names[i])) visit(names[i], port, jack_port_flags(port));
    } catch (...) {
        result = BOOP_ERROR_OUT_OF_MEMORY;
    }
    if (names != nullptr) jack_free(names);
    const HandledSignalsBlocked blocked;
    answeredWithin([c] { return jack_client_close(c); });
    return result;
}

boop_status listJackPorts(std::vector<JackPortEntry>& out) {
    return visitJackPorts(JACK_DEFAULT_AUDIO_TYPE, [&out](const char* name, jack_port_t* port, int flags) {
        JackPortEntry e;
        e.name = name;
        e.type = jack_port_type(port);
        e.physical = (flags & JackPortIsPhysical) != 0;
        e.acceptsAudio = (flags & JackPortIsInput) != 0;
        e.producesAudio = (flags & JackPortIsOutput) != 0;
        out.push_back(std::move(e));
    });
}

boop_status JackClient::connectMidiPort(jack_port_t* out, const char* destination) {
    if (out == nullptr || !active()) return BOOP_ERROR_NOT_RUNNING;
    jack_port_t* port = jack_port_by_name(client(), destination);
    if (port == nullptr || (jack_port_flags(port) & JackPortIsInput) == 0 ||
        std::strcmp(jack_port_type(port), JACK_DEFAULT_MIDI_TYPE) != 0)
        return BOOP_ERROR_INVALID_ARGUMENT;
    const int r = jack_connect(client(), jack_port_name(out), destination);
    return r == 0 || r == EEXIST ? BOOP_OK : BOOP_ERROR_DEVICE_UNAVAILABLE;
}

}  // namespace boop
