// Live test of a JACK capture's MIDI output (boop listen --midi-out) against a private jackd2 with
// the dummy driver, as LiveJackTests: events queued with capture frames arrive exactly as far
// apart as their frames, none late, and a panic ends a note left on. Label `live`;
// scripts/jack-tests.sh runs it from the RealtimeSanitizer build, which checks the capture's process
// callback (it writes the MIDI now) on the server's real-time thread.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <jack/jack.h>
#include <jack/midiport.h>

#include "AlsaTestSupport.hpp"
#include "JackTestServer.hpp"
#include "include/CAudioEngine.h"

using namespace boop_test;

namespace {

[[maybe_unused]] const bool skippedHere = [] {
    if (std::string(BOOP_SANITIZER_MODE) != "thread") return false;
    std::printf("SKIP: libjack ends its client threads with pthread_cancel, which ThreadSanitizer does not support.\n");
    std::fflush(stdout);
    std::_Exit(77);
}();

// A MIDI input that keeps every message's server frame and bytes (room made before activation).
struct Recorder {
    struct Event {
        uint64_t frame;
        uint8_t bytes[3];
    };
    jack_client_t* client = nullptr;
    jack_port_t* port = nullptr;
    std::vector<Event> events = std::vector<Event>(256);
    std::atomic<size_t> count{0};

    static int process(jack_nframes_t frames, void* self) {
        auto* me = static_cast<Recorder*>(self);
        void* buffer = jack_port_get_buffer(me->port, frames);
        const jack_nframes_t start = jack_last_frame_time(me->client);
        for (uint32_t i = 0, n = jack_midi_get_event_count(buffer); i < n; ++i) {
            jack_midi_event_t e;
            const size_t at = me->count.load(std::memory_order_relaxed);
            if (jack_midi_event_get(&e, buffer, i) != 0 || e.size != 3 || at >= me->events.size()) continue;
            me->events[at] = {uint64_t(start) + e.time, {e.buffer[0], e.buffer[1], e.buffer[2]}};
            me->count.store(at + 1, std::memory_order_release);
        }
        return 0;
    }
};

bool waitFor(const std::atomic<size_t>& count, size_t n) {
    const double start = nowSeconds();
    while (count.load(std::memory_order_acquire) < n && nowSeconds() - start < 30)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return count.load(std::memory_order_acquire) >= n;
}

// The capture frame reached now: every frame captured so far read away.
uint64_t captureNow(boop_capture* cap) {
    std::vector<float> buffer(65536);
    uint32_t got = 0;
    uint64_t first = 0;
    boop_capture_wait(cap, 4800, 30000);
    boop_capture_read(cap, buffer.data(), uint32_t(buffer.size()), &got, &first);
    return first + got;
}

}  // namespace

TEST_CASE("JACK capture midi_out: events on their capture frames, none late; a panic ends a held note") {
    JackServer server;
    REQUIRE_MESSAGE(server.ok(), server.why());
    Recorder rec;
    jack_status_t status{};
    rec.client = jack_client_open("boop-midi-rec", JackNoStartServer, &status);
    REQUIRE(rec.client != nullptr);
    rec.port = jack_port_register(rec.client, "in", JACK_DEFAULT_MIDI_TYPE, JackPortIsInput, 0);
    jack_set_process_callback(rec.client, Recorder::process, &rec);
    REQUIRE(jack_activate(rec.client) == 0);

    boop_capture_config cc;
    boop_capture_config_default(&cc);
    cc.backend = BOOP_BACKEND_JACK;
    cc.client_name = "boop-voice-test";
    cc.connect = 0;
    boop_capture* cap = nullptr;
    REQUIRE(boop_capture_open(&cc, &cap) == BOOP_OK);
    const uint8_t on[3] = {0x90, 60, 100};
    CHECK(boop_capture_midi_send(cap, 0, on, 3) == BOOP_ERROR_NOT_RUNNING);  // no midi_out yet
    REQUIRE(boop_capture_midi_open(cap) == BOOP_OK);
    REQUIRE(boop_capture_start(cap) == BOOP_OK);
    CHECK(boop_capture_midi_open(cap) == BOOP_ERROR_NOT_RUNNING);  // ports go before start
    CHECK(boop_capture_midi_connect(cap, "no-such:port") == BOOP_ERROR_INVALID_ARGUMENT);
    REQUIRE(boop_capture_midi_connect(cap, "boop-midi-rec:in") == BOOP_OK);

    // Ten notes queued 0.1 s ahead, at odd distances: they arrive exactly as far apart.
    const uint64_t base = captureNow(cap) + 4800;
    std::vector<uint64_t> sent;
    for (uint8_t k = 0; k < 10; ++k) {
        const uint64_t frame = base + k * 1000u + k * 7u;
        const uint8_t note[3] = {uint8_t(k % 2 == 0 ? 0x90 : 0x80), uint8_t(60 + k / 2), 100};
        REQUIRE(boop_capture_midi_send(cap, frame, note, 3) == BOOP_OK);
        sent.push_back(frame);
    }
    REQUIRE(waitFor(rec.count, 10));
    for (size_t k = 1; k < 10; ++k) CHECK(rec.events[k].frame - rec.events[0].frame == sent[k] - sent[0]);
    CHECK(boop_capture_midi_late(cap) == 0);
    CHECK(boop_capture_midi_written(cap) == 10);

    // A note left on, then a panic: its note-off goes out.
    REQUIRE(boop_capture_midi_send(cap, captureNow(cap) + 960, on, 3) == BOOP_OK);
    REQUIRE(waitFor(rec.count, 11));
    REQUIRE(boop_capture_midi_panic(cap) == BOOP_OK);
    REQUIRE(waitFor(rec.count, 12));
    CHECK(boop_capture_midi_panic_done(cap) == 1);
    CHECK(rec.events[11].bytes[0] == 0x80);
    CHECK(rec.events[11].bytes[1] == 60);
    MESSAGE("capture midi_out: " << boop_capture_midi_written(cap) << " messages, "
                                 << boop_capture_get_stats(cap).overruns << " xruns");
    boop_capture_destroy(cap);
    jack_client_close(rec.client);
}
