// Live tests of the ALSA backends against a real clocked server: a private PulseAudio with a
// null sink, reached through ALSA's `pulse` PCM. Label `live` (the file name starts with Live).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <thread>

#include "AlsaTestSupport.hpp"
#include "CAudioEngine.h"

using namespace boop_test;

namespace {

void sleepSeconds(double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); }

}  // namespace

TEST_CASE("playback: a device that does not exist is DEVICE_UNAVAILABLE") {
    boop_playback_config cfg;
    boop_playback_config_default(&cfg);
    cfg.device = "hw:9,0";
    boop_playback* pb = reinterpret_cast<boop_playback*>(0x1);
    CHECK(boop_playback_open(&cfg, 44100, 2, &pb) == BOOP_ERROR_DEVICE_UNAVAILABLE);
    CHECK(pb == nullptr);
    cfg.device = "no_such_pcm_name";
    CHECK(boop_playback_open(&cfg, 44100, 2, &pb) == BOOP_ERROR_DEVICE_UNAVAILABLE);
}

TEST_CASE("playback: paced by the server, zero xruns over 10 s at the defaults") {
    PulseServer server("pace");
    REQUIRE_MESSAGE(server.ok(), server.log());

    boop_playback_config cfg;
    boop_playback_config_default(&cfg);
    cfg.device = "pulse";
    boop_playback* pb = nullptr;
    REQUIRE(boop_playback_open(&cfg, 44100, 2, &pb) == BOOP_OK);
    const boop_playback_info info = boop_playback_get_info(pb);
    MESSAGE("negotiated: " << std::string(info.format) << " " << info.sample_rate << " Hz, period " << info.period_frames
                           << ", buffer " << info.buffer_frames << " ("
                           << 1000.0 * info.buffer_frames / info.sample_rate << " ms)");
    CHECK(info.sample_rate == doctest::Approx(44100));
    CHECK(std::string(info.format) == "FLOAT_LE");

    SineSource sine;
    sine.rate = info.sample_rate;
    REQUIRE(boop_playback_start(pb, sine.source()) == BOOP_OK);
    MESSAGE("realtime scheduling: " << boop_playback_get_info(pb).realtime_scheduling);
    const double t0 = nowSeconds();
    double maxLatencyMs = 0;
    int64_t samples = 0;
    double latencySum = 0;
    uint64_t lastXruns = 0;
    while (nowSeconds() - t0 < 10.0) {
        sleepSeconds(0.05);
        boop_playback_stats s = boop_playback_get_stats(pb);
        if (s.running != 1) MESSAGE("stopped: error " << s.error << " xruns " << s.xruns << " written " << s.frames_written << " after " << nowSeconds() - t0);
        REQUIRE(s.running == 1);
        if (s.xruns != lastXruns) {
            MESSAGE("xrun at " << nowSeconds() - t0 << " s (total " << s.xruns << ")");
            lastXruns = s.xruns;
        }
        const double ms = 1000.0 * double(s.delay_frames) / info.sample_rate;
        maxLatencyMs = std::max(maxLatencyMs, ms);
        latencySum += ms;
        ++samples;
    }
    const double wall = nowSeconds() - t0;
    boop_playback_stats s = boop_playback_get_stats(pb);
    const double audible = double(int64_t(s.frames_written) - s.delay_frames) / info.sample_rate;
    MESSAGE("wall " << wall << " s, audible " << audible << " s, xruns " << s.xruns << ", delay mean "
                    << latencySum / double(samples) << " ms, max " << maxLatencyMs << " ms");
    CHECK(s.xruns == 0);
    CHECK(s.suspends == 0);
    CHECK(s.error == BOOP_OK);
    // Paced: the audible frame tracks the wall clock (the server's clock), within 2 %.
    CHECK(audible == doctest::Approx(wall).epsilon(0.02));

    const double ts = nowSeconds();
    boop_playback_stop(pb, 0);
    CHECK(nowSeconds() - ts < 0.2);
    s = boop_playback_get_stats(pb);
    CHECK(s.running == 0);
    CHECK(s.error == BOOP_OK);
    boop_playback_destroy(pb);
}

TEST_CASE("playback: drain plays out what the device holds, and returns promptly") {
    PulseServer server("drain");
    REQUIRE_MESSAGE(server.ok(), server.log());
    boop_playback_config cfg;
    boop_playback_config_default(&cfg);
    cfg.device = "pulse";
    cfg.period_frames = 1024;
    cfg.periods = 4;
    boop_playback* pb = nullptr;
    REQUIRE(boop_playback_open(&cfg, 48000, 1, &pb) == BOOP_OK);
    SineSource sine;
    sine.channels = 1;
    sine.rate = boop_playback_get_info(pb).sample_rate;
    REQUIRE(boop_playback_start(pb, sine.source(64)) == BOOP_OK);
    sleepSeconds(0.5);
    const double ts = nowSeconds();
    boop_playback_stop(pb, 1);
    const double took = nowSeconds() - ts;
    MESSAGE("drain took " << took * 1000 << " ms");
    CHECK(took < 1.0);
    CHECK(boop_playback_get_stats(pb).error == BOOP_OK);
    boop_playback_destroy(pb);
}

TEST_CASE("playback: the server killed mid-play ends the thread with DEVICE_LOST within a second") {
    PulseServer server("kill");
    REQUIRE_MESSAGE(server.ok(), server.log());
    boop_playback_config cfg;
    boop_playback_config_default(&cfg);
    cfg.device = "pulse";
    boop_playback* pb = nullptr;
    REQUIRE(boop_playback_open(&cfg, 44100, 2, &pb) == BOOP_OK);
    SineSource sine;
    REQUIRE(boop_playback_start(pb, sine.source()) == BOOP_OK);
    sleepSeconds(0.5);
    REQUIRE(boop_playback_get_stats(pb).running == 1);
    server.kill9();
    const double t0 = nowSeconds();
    boop_playback_stats s{};
    do {
        sleepSeconds(0.01);
        s = boop_playback_get_stats(pb);
    } while (s.running == 1 && nowSeconds() - t0 < 3.0);
    const double took = nowSeconds() - t0;
    MESSAGE("noticed after " << took * 1000 << " ms, xruns " << s.xruns);
    CHECK(s.running == 0);
    CHECK(s.error == BOOP_ERROR_DEVICE_LOST);
    CHECK(took < 1.0);
    const double ts = nowSeconds();
    boop_playback_destroy(pb);
    CHECK(nowSeconds() - ts < 0.5);
}
