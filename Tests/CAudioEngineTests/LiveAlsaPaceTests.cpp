// The ALSA playback thread on the null PCM, a device with no clock of its own (it takes every
// write at once): the thread holds it to the system clock. That pace is the point, and the system
// clock is the only clock the device has, so it is judged against CLOCK_MONOTONIC here, in the live
// tests (label `live`: the file name starts with Live), not in the unit tests a loaded machine can
// slow; the pacing arithmetic (RealTimePace) is unit-tested on a clock moved by hand (AlsaPaceTests).
#include <doctest/doctest.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "AlsaTestSupport.hpp"
#include "backend/alsa/AlsaPace.hpp"
#include "include/CAudioEngine.h"

using boop::RealTimePace;

namespace {
constexpr double kRate = 48000;

double cpuSeconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

boop_status silence(void*, float* out, uint32_t frames) {
    std::fill(out, out + frames * 2, 0.0f);
    return BOOP_OK;
}
}  // namespace

TEST_CASE("ALSA's null PCM plays in real time at a fraction of a core, and stops at once") {
    boop_playback_config config;
    boop_playback_config_default(&config);
    config.device = "null";
    config.realtime_priority = 0;
    boop_playback* pb = nullptr;
    REQUIRE(boop_playback_open(&config, kRate, 2, &pb) == BOOP_OK);
    const double rate = boop_playback_get_info(pb).sample_rate;
    const double buffer = boop_playback_get_info(pb).buffer_frames;
    const double t0 = boop_test::nowSeconds();
    const double cpu0 = cpuSeconds();
    REQUIRE(boop_playback_start(pb, boop_source{silence, nullptr, 2, 512, rate}) == BOOP_OK);
    // Waits for a second of audio written (a limit for a loaded machine, not a delay).
    while (boop_playback_get_stats(pb).frames_written < uint64_t(rate) && boop_test::nowSeconds() - t0 < 60)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const double wall = boop_test::nowSeconds() - t0;
    const double cpu = cpuSeconds() - cpu0;
    const boop_playback_stats s = boop_playback_get_stats(pb);
    REQUIRE(s.running == 1);
    REQUIRE(s.frames_written >= uint64_t(rate));
    // A second of audio cannot be taken before the system clock allows it, less what may go at
    // once: the first write and the one after the last wait (a buffer each) and the slack (a
    // buffer and 0.1 s). Unpaced, it went in a few milliseconds.
    const double earliest =
        (double(s.frames_written) - 3 * buffer - 0.1 * rate) / (rate * (1 + RealTimePace::kTolerance));
    MESSAGE("1 s of audio on the null PCM took " << wall << " s of wall time and " << cpu << " s of CPU");
    CHECK(wall >= earliest - 0.01);
    CHECK(cpu < 0.5 * wall);
    const double stopping = boop_test::nowSeconds();
    boop_playback_stop(pb, 0);
    CHECK(boop_test::nowSeconds() - stopping < 1.0);
    boop_playback_destroy(pb);
}
