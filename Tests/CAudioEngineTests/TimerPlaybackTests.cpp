// Playback with no sound device, on a clock the test moves: the timer's thread renders the heard
// frame plus its buffer, and wakes exactly when the heard frame has moved on a period, not before,
// each wait read from the frame line (so the waits never drift from it).
#include <doctest/doctest.h>
#include <poll.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <vector>

#include "backend/TimerPlayback.hpp"
#include "include/CAudioEngine.h"

using boop::TimerPlayback;

namespace {
constexpr uint64_t kStartNs = 5'000'000'000;
constexpr double kRate = 48000;

// The test's clock: a wait moves it on by what was asked, at once. A wait that would take it past
// `limit` parks the thread instead, until stop() wakes it, so the test reads a finished state.
struct FakeClock {
    std::atomic<uint64_t> now{kStartNs};
    uint64_t limit = kStartNs + 1'000'000'000;
    std::mutex lock;
    std::condition_variable parkedChanged;
    bool parked = false;
    std::vector<uint64_t> waits;
};
FakeClock fake;

uint64_t fakeNow() noexcept { return fake.now.load(); }

void fakeWait(int stopFd, uint64_t ns) noexcept {
    {
        std::lock_guard<std::mutex> guard(fake.lock);
        fake.waits.push_back(ns);
        if (fake.now.load() + ns <= fake.limit) {
            fake.now += ns;
            return;
        }
        fake.parked = true;
    }
    fake.parkedChanged.notify_all();
    pollfd fd{stopFd, POLLIN, 0};
    poll(&fd, 1, -1);
}

boop_status countFrames(void* context, float* out, uint32_t frames) noexcept {
    out[0] = 0;
    static_cast<std::atomic<uint64_t>*>(context)->fetch_add(frames, std::memory_order_relaxed);
    return BOOP_OK;
}
}  // namespace

TEST_CASE("no sound device: the timer wakes when the heard frame moved a period, its buffer rendered ahead") {
    fake.waits.reserve(1000);
    TimerPlayback timer(TimerPlayback::Clock{fakeNow, fakeWait});
    TimerPlayback::Config config;
    config.periodFrames = 256;
    config.periods = 3;
    config.realtimePriority = 0;
    REQUIRE(timer.open(config, kRate, 2) == BOOP_OK);
    std::atomic<uint64_t> rendered{0};
    boop_source source{};
    source.render = countFrames;
    source.context = &rendered;
    source.channels = 2;
    source.sample_rate = kRate;
    source.max_block_frames = 4096;
    REQUIRE(timer.start(source) == BOOP_OK);
    CHECK(timer.startNs() == kStartNs);  // frame 0 heard when it started, on its clock
    {
        std::unique_lock<std::mutex> guard(fake.lock);
        // A limit for a loaded machine, not a delay: the thread parks as soon as it is done.
        REQUIRE(fake.parkedChanged.wait_for(guard, std::chrono::seconds(60), [] { return fake.parked; }));
    }
    // One second of its clock: a turn every period (256 frames), each waiting exactly until the
    // frame line reaches the next period; the turn at 47872 frames was the last within it.
    REQUIRE(fake.waits.size() == 188);
    for (uint64_t k = 0; k < fake.waits.size(); ++k)
        CHECK(fake.waits[k] == TimerPlayback::frameNs(kStartNs, 256 * (k + 1), kRate) -
                                   TimerPlayback::frameNs(kStartNs, 256 * k, kRate));
    CHECK(fake.now.load() == TimerPlayback::frameNs(kStartNs, 47872, kRate));
    const boop_playback_stats s = timer.stats();
    CHECK(s.frames_written == 47872 + 768);  // the heard frame plus the buffer, never more
    CHECK(s.delay_frames == 768);
    CHECK(rendered.load() == s.frames_written);
    CHECK(s.running == 1);
    pollfd running{timer.endedDescriptor(), POLLIN, 0};
    CHECK(::poll(&running, 1, 0) == 0);  // quiet while the audio runs
    timer.stop(false);
    CHECK(timer.stats().running == 0);
    pollfd stopped{timer.endedDescriptor(), POLLIN, 0};
    CHECK(::poll(&stopped, 1, 0) == 1);  // readable once it stopped
}
