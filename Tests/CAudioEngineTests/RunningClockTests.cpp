// The running-time clock of the ALSA I/O threads' watchdogs: time during which the process was
// stopped (SIGSTOP, a debugger) must not count against the device, while a device that takes
// nothing for BOOP_PLAYBACK_WATCHDOG_SECONDS of running time is still found lost.
#include <doctest/doctest.h>

#include "backend/alsa/AlsaCommon.hpp"
#include "include/CAudioEngine.h"

using boop::RunningClock;

namespace {
constexpr int64_t kMs = 1'000'000;
constexpr int64_t kWatchdogNs = int64_t(BOOP_PLAYBACK_WATCHDOG_SECONDS) * 1000 * kMs;

// The clock a test's RunningClock reads: it moves only when the test moves it.
int64_t fakeNs = 0;
int64_t fakeNow() noexcept { return fakeNs; }
}  // namespace

TEST_CASE("running clock: turns of a running loop count in full") {
    RunningClock c;
    c.resetAt(5000 * kMs);
    int64_t t = 5000 * kMs;
    int64_t running = 0;
    for (int i = 0; i < 300; ++i) {
        t += 100 * kMs;  // the poll timeout
        running = c.advanceTo(t);
        CHECK(c.skippedNs() == 0);
    }
    CHECK(running == 30'000 * kMs);
    // So a device silent this long is still past the watchdog.
    CHECK(running > kWatchdogNs);
}

TEST_CASE("running clock: a 15 s stop between two turns counts as at most one second") {
    RunningClock c;
    c.resetAt(0);
    int64_t t = 0;
    for (int i = 0; i < 10; ++i) c.advanceTo(t += 100 * kMs);  // 1 s of play before the stop
    const int64_t lastProgress = c.advanceTo(t += 5 * kMs);
    const int64_t afterStop = c.advanceTo(t += 15'000 * kMs);
    CHECK(c.skippedNs() == 15'000 * kMs - RunningClock::kMaxStepNs);
    CHECK(afterStop - lastProgress == RunningClock::kMaxStepNs);
    CHECK(afterStop - lastProgress < kWatchdogNs);
    // The next ordinary turn is counted again, and clears the skip.
    CHECK(c.advanceTo(t += 100 * kMs) == afterStop + 100 * kMs);
    CHECK(c.skippedNs() == 0);
}

TEST_CASE("running clock: a device call that keeps blocking still reaches the watchdog") {
    // Every turn blocks 3 s in the device: each counts one second, so a device that never takes
    // data is lost after BOOP_PLAYBACK_WATCHDOG_SECONDS + 1 such turns, not never.
    RunningClock c;
    c.resetAt(0);
    int64_t t = 0;
    int turns = 0;
    while (c.advanceTo(t += 3000 * kMs) <= kWatchdogNs) ++turns;
    CHECK(turns == BOOP_PLAYBACK_WATCHDOG_SECONDS);
}

TEST_CASE("running clock: by default it reads CLOCK_MONOTONIC") {
    CHECK((RunningClock().source() == &boop::monotonicNs));  // doctest prints no function pointer
}

TEST_CASE("running clock: on its source, a turn's time counts in full up to a second, the rest is skipped") {
    fakeNs = 7000 * kMs;
    RunningClock c(fakeNow);
    c.reset();
    CHECK(c.now() == 0);
    fakeNs += 250 * kMs;
    CHECK(c.now() == 250 * kMs);
    CHECK(c.skippedNs() == 0);
    // A thread that did not run for 1.5 s (stopped, or starved of CPU) has one second counted.
    fakeNs += 1500 * kMs;
    CHECK(c.now() == 1250 * kMs);
    CHECK(c.skippedNs() == 500 * kMs);
    fakeNs += 1;
    CHECK(c.now() == 1250 * kMs + 1);
    CHECK(c.skippedNs() == 0);
}
