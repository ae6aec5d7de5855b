// Real-time pacing of the ALSA playback thread: a device without a clock (ALSA's null PCM takes
// every write at once) is fed at the system clock's pace instead of as fast as the CPU goes, and
// a device with a clock (one that starts late, stalls, or runs a little faster than the system
// clock) is never kept waiting. Judged on a clock the test moves by hand; the null PCM itself,
// paced by the real clock, is in LiveAlsaPaceTests.
#include <doctest/doctest.h>

#include <algorithm>

#include "backend/alsa/AlsaPace.hpp"

using boop::RealTimePace;

namespace {
constexpr int64_t kSecond = 1'000'000'000;
constexpr double kRate = 48000;
constexpr int64_t kBuffer = 384;
constexpr int64_t kSlack = kBuffer + 4800;
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
