// Real-time pacing of the ALSA playback thread: a device without a clock (ALSA's null PCM takes
// every write at once) is fed at the system clock's pace instead of as fast as the CPU goes, and
// a device with a clock (one that starts late, stalls, or runs a little faster than the system
// clock) is never kept waiting.
#include <doctest/doctest.h>
#include <sys/resource.h>

#include <chrono>
#include <thread>

#include "AlsaTestSupport.hpp"
#include "backend/alsa/AlsaPace.hpp"
#include "include/CAudioEngine.h"

using boop::RealTimePace;

namespace {
constexpr int64_t kSecond = 1'000'000'000;
constexpr double kRate = 48000;
constexpr int64_t kBuffer = 384;
constexpr int64_t kSlack = kBuffer + 4800;

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

TEST_CASE("pace: a clockless device (every write taken at once) is held to real time after the slack") {
    RealTimePace pace;
    int64_t now = 5 * kSecond, consumed = 0, waited = 0;
    // Ten seconds of audio written a buffer at a time, with no time passing but the waits.
    while (consumed < int64_t(10 * kRate)) {
        consumed += kBuffer;
        const int64_t w = pace.waitNs(now, consumed, kRate, kSlack);
        CHECK(w <= kBuffer * kSecond / int64_t(kRate) + 1);
        now += w;
        waited += w;
    }
    const double expected =
        (double(consumed) - double(kBuffer) - double(kSlack)) / (kRate * (1 + RealTimePace::kTolerance));
    CHECK(double(waited) / 1e9 == doctest::Approx(expected).epsilon(0.001));
}

TEST_CASE("pace: a device that keeps time, or lags (a late start, a stall), is never made to wait") {
    RealTimePace pace;
    int64_t now = 0, consumed = 0;
    const int64_t period = 128 * kSecond / int64_t(kRate);
    for (int k = 0; k < 2000; ++k) {  // two seconds of a sink that takes nothing
        now += 1'000'000;
        CHECK(pace.waitNs(now, consumed, kRate, kSlack) == 0);
    }
    for (int k = 0; k < 100'000; ++k) {  // then exactly real time, period by period
        now += period;
        consumed += 128;
        CHECK(pace.waitNs(now, consumed, kRate, kSlack) == 0);
    }
}

TEST_CASE("pace: a device clock 1000 ppm fast (ten times a sound card's error) is never made to wait") {
    RealTimePace pace;
    int64_t now = 0, longest = 0;
    double consumed = 0;
    const int64_t period = 128 * kSecond / int64_t(kRate);
    for (int k = 0; k < 2'000'000; ++k) {  // about an hour and a half of periods
        const int64_t w = pace.waitNs(now, int64_t(consumed), kRate, kSlack);
        longest = std::max(longest, w);
        // The device keeps consuming at its own rate whatever the writer does.
        now += period + w;
        consumed += double(period + w) * 1e-9 * kRate * 1.001;
    }
    CHECK(longest == 0);
}

TEST_CASE("pace: after forget() the next measurement is a new reference, whatever went before") {
    RealTimePace pace;
    CHECK(pace.waitNs(0, 0, kRate, kSlack) == 0);
    CHECK(pace.waitNs(0, 2 * kSlack, kRate, kSlack) > 0);
    pace.forget();
    CHECK(pace.waitNs(0, 2 * kSlack, kRate, kSlack) == 0);
}

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
