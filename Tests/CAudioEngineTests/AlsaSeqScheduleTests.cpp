// MIDI out on the ALSA sequencer without a sequencer: the events `play --midi-out` schedules
// (their queue stamps, on the sound device's line or, with --no-sound, the timer's fixed line),
// MIDI clock on the formula's frames with no drift over hours, a note-off before a note-on on a
// frame, and the stop sequence. The live path is LiveAlsaMidiOutTests (needs /dev/snd/seq).
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "backend/TimerPlayback.hpp"
#include "backend/alsa/AlsaCommon.hpp"
#include "backend/alsa/AlsaSeqSchedule.hpp"
#include "include/CAudioEngine.h"

namespace {

constexpr uint64_t kStartNs = 5'000'000'000;  // frame 0 heard (CLOCK_MONOTONIC)
constexpr uint64_t kQueueNs = 4'000'000'000;  // the queue's real time 0
constexpr int kQueue = 3, kPort = 0;

// The queue time of a scheduled event, in ns.
uint64_t stampNs(const snd_seq_event_t& e) {
    return uint64_t(e.time.time.tv_sec) * 1'000'000'000 + e.time.time.tv_nsec;
}

struct Schedule {
    boop::AlsaSeqSchedule s;
    explicit Schedule(double rate) {
        REQUIRE(s.ready());
        s.setQueue(kQueue, kPort, kQueueNs);
        s.followFixed(kStartNs, rate);
    }
    snd_seq_event_t send(uint64_t frame, std::vector<uint8_t> bytes) {
        snd_seq_event_t e;
        REQUIRE(s.event(frame, bytes.data(), uint32_t(bytes.size()), e));
        return e;
    }
};

}  // namespace

TEST_CASE("no sound device: frame f goes on the queue at start + f / rate, exactly, for hours") {
    Schedule at48(48000);
    const snd_seq_event_t e = at48.send(48000, {0xF8});
    CHECK(e.type == SND_SEQ_EVENT_CLOCK);
    CHECK(e.queue == kQueue);
    CHECK((e.flags & SND_SEQ_TIME_STAMP_MASK) == SND_SEQ_TIME_STAMP_REAL);
    CHECK((e.flags & SND_SEQ_TIME_MODE_MASK) == SND_SEQ_TIME_MODE_ABS);
    CHECK(e.source.port == kPort);
    CHECK(e.dest.client == SND_SEQ_ADDRESS_SUBSCRIBERS);
    CHECK(stampNs(e) == kStartNs - kQueueNs + 1'000'000'000);
    CHECK(stampNs(at48.send(1, {0xF8})) == 1'000'020'833);  // 20833.33 ns, rounded
    CHECK(stampNs(at48.send(3, {0xF8})) == 1'000'062'500);
    // Ten hours: 1.728e9 frames, still to the nanosecond (frame x 1e9 needs 128 bits past ~5 h).
    CHECK(stampNs(at48.send(48000ull * 36000, {0xF8})) == 1'000'000'000 + 36000ull * 1'000'000'000);
    Schedule at44(44100);
    CHECK(stampNs(at44.send(44100ull * 3600 + 441, {0xF8})) == 1'000'000'000 + 3600ull * 1'000'000'000 + 10'000'000);
    // A frame heard before the queue started goes out at once (time 0), never wraps.
    boop::AlsaSeqSchedule early;
    early.setQueue(kQueue, kPort, kStartNs + 1'000'000'000);
    early.followFixed(kStartNs, 48000);
    snd_seq_event_t e0;
    const uint8_t clock = 0xF8;
    REQUIRE(early.event(0, &clock, 1, e0));
    CHECK(stampNs(e0) == 0);
}

TEST_CASE(
    "MIDI clock: Start, then clock k on frame round(k x rate x 60 / (bpm x 24)), within half a frame of its time "
    "after an hour") {
    for (const double bpm : {120.0, 123.0, 97.5}) {
        const double rate = 48000;
        Schedule out(rate);
        const uint64_t anchor = 960;  // the transport starts 20 ms after the engine's clock
        const snd_seq_event_t start = out.send(anchor, {0xFA});
        CHECK(start.type == SND_SEQ_EVENT_START);
        CHECK(stampNs(start) == kStartNs - kQueueNs + 20'000'000);
        CHECK(out.s.clockRunning());
        const auto clocks = uint64_t(bpm * 24 * 60);  // an hour of clocks
        uint64_t previous = stampNs(start);
        double worst = 0;
        for (uint64_t k = 0; k <= clocks; k += (k < 2000 ? 1 : 97)) {
            const uint64_t frame = anchor + uint64_t(std::floor(double(k) * rate * 60.0 / (bpm * 24.0) + 0.5));
            const snd_seq_event_t c = out.send(frame, {0xF8});
            REQUIRE(c.type == SND_SEQ_EVENT_CLOCK);
            CHECK(stampNs(c) >= previous);
            previous = stampNs(c);
            // The ideal time of clock k: the anchor's time + k x 60 / (bpm x 24) s.
            const double ideal =
                double(kStartNs - kQueueNs) + (double(anchor) / rate + double(k) * 60.0 / (bpm * 24.0)) * 1e9;
            worst = std::max(worst, std::fabs(double(stampNs(c)) - ideal));
        }
        CHECK(worst <= 0.5e9 / rate + 1);  // the frame's rounding, nothing more: no drift
    }
}

TEST_CASE("a note-off and a note-on on one frame keep their order and their stamp") {
    Schedule out(48000);
    const snd_seq_event_t on1 = out.send(1000, {0x90, 60, 96});
    CHECK(out.s.held(0, 60));
    const snd_seq_event_t off = out.send(2000, {0x80, 60, 64});
    const snd_seq_event_t on2 = out.send(2000, {0x90, 60, 120});
    CHECK(on1.type == SND_SEQ_EVENT_NOTEON);
    CHECK(off.type == SND_SEQ_EVENT_NOTEOFF);
    CHECK(on2.type == SND_SEQ_EVENT_NOTEON);
    CHECK(on2.data.note.velocity == 120);
    // Same stamp: the queue keeps events of one time in the order they were written.
    CHECK(stampNs(off) == stampNs(on2));
    CHECK(stampNs(off) == kStartNs - kQueueNs + boop::AlsaSeqSchedule::fixedFrameTimeNs(0, 2000, 48000));
    CHECK(out.s.held(0, 60));
    out.send(2100, {0x90, 60, 0});  // velocity 0 is a note-off too
    CHECK_FALSE(out.s.held(0, 60));
    snd_seq_event_t e;
    const uint8_t bad[2] = {0x90, 60};  // a message cut short makes no event
    CHECK_FALSE(out.s.event(0, bad, 2, e));
}

TEST_CASE("stop: a direct note-off for every held note, then Stop after a Start; then nothing") {
    Schedule out(48000);
    out.send(960, {0xFA});
    out.send(960, {0x90, 60, 96});
    out.send(960, {0x91, 64, 96});
    out.send(961, {0x99, 36, 120});
    out.send(1200, {0x81, 64, 64});
    std::vector<snd_seq_event_t> sent;
    out.s.panic([&](const snd_seq_event_t& e) { sent.push_back(e); });
    REQUIRE(sent.size() == 3);
    CHECK(sent[0].type == SND_SEQ_EVENT_NOTEOFF);
    CHECK(sent[0].data.note.channel == 0);
    CHECK(sent[0].data.note.note == 60);
    CHECK(sent[1].type == SND_SEQ_EVENT_NOTEOFF);
    CHECK(sent[1].data.note.channel == 9);
    CHECK(sent[1].data.note.note == 36);
    CHECK(sent[2].type == SND_SEQ_EVENT_STOP);
    for (const auto& e : sent) {
        CHECK(e.queue == SND_SEQ_QUEUE_DIRECT);
        CHECK(e.dest.client == SND_SEQ_ADDRESS_SUBSCRIBERS);
        CHECK(e.source.port == kPort);
    }
    sent.clear();
    out.s.panic([&](const snd_seq_event_t& e) { sent.push_back(e); });
    CHECK(sent.empty());
    // No clock ran: note-offs only.
    out.send(2000, {0x92, 50, 96});
    out.s.panic([&](const snd_seq_event_t& e) { sent.push_back(e); });
    REQUIRE(sent.size() == 1);
    CHECK(sent[0].type == SND_SEQ_EVENT_NOTEOFF);
}

TEST_CASE("with a sound device the stamp follows its frame line plus the device's latency") {
    boop::AlsaSeqSchedule s;
    s.setQueue(kQueue, kPort, kQueueNs);
    s.follow(nullptr, 768, kStartNs, 48000);  // before the I/O thread's first report
    snd_seq_event_t e;
    const uint8_t clock = 0xF8;
    REQUIRE(s.event(48000, &clock, 1, e));
    CHECK(stampNs(e) == kStartNs - kQueueNs + 1'016'000'000);
}

namespace {
boop_status countFrames(void* context, float* out, uint32_t frames) noexcept {
    out[0] = 0;
    static_cast<std::atomic<uint64_t>*>(context)->fetch_add(frames, std::memory_order_relaxed);
    return BOOP_OK;
}
}  // namespace

TEST_CASE(
    "no sound device: the timer renders on CLOCK_MONOTONIC, never more than its buffer ahead of the heard frame") {
    for (uint64_t f : {0ull, 1ull, 47999ull, 48000ull, 172'800'001ull})
        CHECK(boop::TimerPlayback::heardFrame(kStartNs, boop::TimerPlayback::frameNs(kStartNs, f, 48000), 48000) == f);
    CHECK(boop::TimerPlayback::heardFrame(kStartNs, kStartNs - 1, 48000) == 0);

    boop::TimerPlayback timer;
    boop::TimerPlayback::Config config;
    config.periodFrames = 256;
    config.periods = 3;
    config.realtimePriority = 0;
    REQUIRE(timer.open(config, 48000, 2) == BOOP_OK);
    std::atomic<uint64_t> rendered{0};
    boop_source source{};
    source.render = countFrames;
    source.context = &rendered;
    source.channels = 2;
    source.sample_rate = 48000;
    source.max_block_frames = 4096;
    REQUIRE(timer.start(source) == BOOP_OK);
    const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (timer.stats().frames_written < 12000 && std::chrono::steady_clock::now() < limit)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const boop_playback_stats s = timer.stats();
    const uint64_t heardAfter = boop::TimerPlayback::heardFrame(timer.startNs(), uint64_t(boop::monotonicNs()), 48000);
    REQUIRE_MESSAGE(s.frames_written >= 12000, "the timer rendered nothing for 60 s");
    CHECK(s.running == 1);
    CHECK(s.error == BOOP_OK);
    CHECK(s.frames_written <= heardAfter + 768);
    CHECK(s.frames_written - uint64_t(s.delay_frames) <= heardAfter);
    CHECK(rendered.load() >= s.frames_written);
    CHECK(std::string(timer.info().format) == "none");
    timer.stop(false);
    CHECK(timer.stats().running == 0);
}

TEST_CASE("playback with mute on ALSA opens no PCM: any device name, no sound card needed") {
    boop_playback_config config;
    boop_playback_config_default(&config);
    config.device = "hw:99,99";  // no such card: a PCM open would fail
    config.mute = 1;
    boop_playback* p = nullptr;
    REQUIRE(boop_playback_open(&config, 48000, 2, &p) == BOOP_OK);
    CHECK(boop_playback_get_info(p).sample_rate == 48000);
    CHECK(std::string(boop_playback_get_info(p).format) == "none");
    boop_playback_destroy(p);
}
