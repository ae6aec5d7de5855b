// Live tests of the ALSA backends against a real clocked server: a private PulseAudio with a
// null sink, reached through ALSA's `pulse` PCM. Label `live` (the file name starts with Live).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

#include "AlsaTestSupport.hpp"
#include "include/CAudioEngine.h"

using namespace boop_test;

namespace {

void sleepSeconds(double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); }

// How long to wait for a server to take or deliver its first audio: a limit, not a delay (each
// wait ends as soon as the audio is there), generous for a sanitizer build on a loaded machine.
constexpr double kFirstAudioLimit = 60.0;

// An idle PulseAudio sink starts a new stream at its next wake-up, up to 2 s later, as on a
// desktop whose sink was idle: waits for the device to take audio (more than one buffer).
void waitForFirstAudio(boop_playback* pb) {
    const double opened = nowSeconds();
    while (boop_playback_get_stats(pb).frames_written <= boop_playback_get_info(pb).buffer_frames &&
           boop_playback_get_stats(pb).running == 1 && nowSeconds() - opened < kFirstAudioLimit)
        sleepSeconds(0.01);
    REQUIRE(boop_playback_get_stats(pb).running == 1);
    REQUIRE_MESSAGE(boop_playback_get_stats(pb).frames_written > boop_playback_get_info(pb).buffer_frames,
                    "the device took no audio within " << kFirstAudioLimit << " s");
    MESSAGE("the device took its first audio after " << nowSeconds() - opened << " s");
}

struct DelayWatch {
    double meanMs = 0;
    double maxMs = 0;
};

// Samples the stream's delay every 50 ms for 10 s of wall time; the stream must keep running.
DelayWatch watchFor10Seconds(boop_playback* pb, double rate) {
    DelayWatch w;
    int64_t samples = 0;
    uint64_t lastXruns = 0;
    const double t0 = nowSeconds();
    while (nowSeconds() - t0 < 10.0) {
        sleepSeconds(0.05);
        const boop_playback_stats s = boop_playback_get_stats(pb);
        if (s.running != 1)
            MESSAGE("stopped: error " << s.error << " xruns " << s.xruns << " written " << s.frames_written << " after "
                                      << nowSeconds() - t0);
        REQUIRE(s.running == 1);
        if (s.xruns != lastXruns) {
            MESSAGE("xrun at " << nowSeconds() - t0 << " s (total " << s.xruns << ")");
            lastXruns = s.xruns;
        }
        const double ms = 1000.0 * double(s.delay_frames) / rate;
        w.maxMs = std::max(w.maxMs, ms);
        w.meanMs += ms;
        ++samples;
    }
    if (samples > 0) w.meanMs /= double(samples);
    return w;
}

struct Heard {
    std::vector<double> freqs;
    float peak = 0;
};

// Reads the capture in 2048-frame buffers until 8 are voiced (or the first-audio limit passes).
Heard listen(boop_capture* cap, boop_pitch_detector* det) {
    Heard h;
    std::vector<float> buf(2048);
    const double t0 = nowSeconds();
    while (h.freqs.size() < 8 && nowSeconds() - t0 < kFirstAudioLimit) {
        if (boop_capture_wait(cap, 2048, 500) < 2048) continue;
        uint32_t got = 0;
        uint64_t first = 0;
        REQUIRE(boop_capture_read(cap, buf.data(), 2048, &got, &first) == BOOP_OK);
        REQUIRE(got == 2048);
        for (float v : buf) h.peak = std::max(h.peak, std::fabs(v));
        const boop_pitch_result r = boop_pitch_detector_process(det, buf.data(), got);
        if (r.frequency_hz > 0) h.freqs.push_back(r.frequency_hz);
    }
    return h;
}

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
    // And why, in ALSA's words, cut to the room given and always terminated.
    char why[64];
    std::memset(why, 'x', sizeof why);
    CHECK(boop_playback_open_why(&cfg, 44100, 2, &pb, why, sizeof why) == BOOP_ERROR_DEVICE_UNAVAILABLE);
    CHECK(std::string(why) == "No such file or directory");
    cfg.device = "hw:9,0";
    CHECK(boop_playback_open_why(&cfg, 44100, 2, &pb, why, 8) == BOOP_ERROR_DEVICE_UNAVAILABLE);
    CHECK(std::string(why) == "No such");
    CHECK(boop_playback_open_why(&cfg, 44100, 2, &pb, nullptr, 0) == BOOP_ERROR_DEVICE_UNAVAILABLE);
    CHECK(boop_playback_open_why(&cfg, 0, 2, &pb, why, sizeof why) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(std::string(why).empty());
}

TEST_CASE("playback: paced by an idle server's clock over 10 s at the defaults, xruns absorbed by adaptive buffering") {
    PulseServer server("pace");
    REQUIRE_MESSAGE(server.ok(), server.log());

    boop_playback_config cfg;
    boop_playback_config_default(&cfg);
    cfg.device = "pulse";
    boop_playback* pb = nullptr;
    REQUIRE(boop_playback_open(&cfg, 44100, 2, &pb) == BOOP_OK);
    const boop_playback_info info = boop_playback_get_info(pb);
    MESSAGE("negotiated: " << std::string(info.format) << " " << info.sample_rate << " Hz, period "
                           << info.period_frames << ", buffer " << info.buffer_frames << " ("
                           << 1000.0 * info.buffer_frames / info.sample_rate << " ms)");
    CHECK(info.sample_rate == doctest::Approx(44100));
    CHECK(std::string(info.format) == "FLOAT_LE");

    SineSource sine;
    sine.rate = info.sample_rate;
    REQUIRE(boop_playback_start(pb, sine.source()) == BOOP_OK);
    MESSAGE("realtime scheduling: " << boop_playback_get_info(pb).realtime_scheduling);
    waitForFirstAudio(pb);
    const double t0 = nowSeconds();
    const boop_playback_stats first = boop_playback_get_stats(pb);
    const double audible0 = double(int64_t(first.frames_written) - first.delay_frames) / info.sample_rate;
    const DelayWatch delay = watchFor10Seconds(pb, info.sample_rate);
    const double wall = nowSeconds() - t0;
    boop_playback_stats s = boop_playback_get_stats(pb);
    const double audible = double(int64_t(s.frames_written) - s.delay_frames) / info.sample_rate - audible0;
    MESSAGE("wall " << wall << " s, audible " << audible << " s, xruns " << s.xruns << ", stalls " << s.stalls
                    << ", latency " << s.latency_frames << " frames (grown " << s.latency_growths
                    << " times), delay mean " << delay.meanMs << " ms, max " << delay.maxMs << " ms");
    // A busy machine may cause an xrun or two; adaptive buffering grows the buffer on a burst, so
    // they stay few. Each costs an idle sink's restart (up to 2 s), hence the pace allows for them.
    CHECK(s.xruns <= 2);
    CHECK(s.suspends == 0);
    CHECK(s.error == BOOP_OK);
    // Paced: the audible frame tracks the wall clock (the server's clock), within 2 %.
    if (s.xruns == 0) CHECK(audible == doctest::Approx(wall).epsilon(0.02));

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

TEST_CASE("capture: a device that does not exist is DEVICE_UNAVAILABLE") {
    boop_capture_config cfg;
    boop_capture_config_default(&cfg);
    cfg.device = "hw:9,0";
    boop_capture* cap = reinterpret_cast<boop_capture*>(0x1);
    CHECK(boop_capture_open(&cfg, &cap) == BOOP_ERROR_DEVICE_UNAVAILABLE);
    CHECK(cap == nullptr);
    char why[64] = "x";
    cfg.device = "no_such_pcm_name";
    CHECK(boop_capture_open_why(&cfg, &cap, why, sizeof why) == BOOP_ERROR_DEVICE_UNAVAILABLE);
    CHECK(std::string(why) == "No such file or directory");
    CHECK(boop_capture_open_why(&cfg, nullptr, why, sizeof why) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(std::string(why).empty());
}

TEST_CASE("capture: the null sink's monitor hears the sine played into the sink") {
    PulseServer server("loop");
    REQUIRE_MESSAGE(server.ok(), server.log());

    boop_playback_config pcfg;
    boop_playback_config_default(&pcfg);
    pcfg.device = "pulse";
    boop_playback* pb = nullptr;
    REQUIRE(boop_playback_open(&pcfg, 44100, 2, &pb) == BOOP_OK);
    SineSource sine;
    sine.frequency = 440.0;
    sine.gain = 0.3f;
    REQUIRE(boop_playback_start(pb, sine.source()) == BOOP_OK);

    // The script makes the monitor the default source, so `pulse` records what the sink plays;
    // `pulse:boop_null.monitor` names it explicitly. Record stereo to exercise the mono mix.
    boop_capture_config ccfg;
    boop_capture_config_default(&ccfg);
    ccfg.device = "pulse:boop_null.monitor";
    ccfg.channels = 2;
    boop_capture* cap = nullptr;
    REQUIRE(boop_capture_open(&ccfg, &cap) == BOOP_OK);
    const boop_capture_info info = boop_capture_get_info(cap);
    MESSAGE("capture: " << std::string(info.format) << " " << info.sample_rate << " Hz x" << info.channels
                        << ", period " << info.period_frames << ", buffer " << info.buffer_frames);
    CHECK(info.sample_rate == doctest::Approx(16000));
    REQUIRE(boop_capture_start(cap) == BOOP_OK);
    CHECK(boop_capture_start(cap) == BOOP_ERROR_ALREADY_RUNNING);

    boop_pitch_detector* det = nullptr;
    REQUIRE(boop_pitch_detector_create(info.sample_rate, 2048, 0, 0, &det) == BOOP_OK);
    const Heard heard = listen(cap, det);
    const std::vector<double>& freqs = heard.freqs;
    const float peak = heard.peak;
    const boop_capture_stats cs = boop_capture_get_stats(cap);
    MESSAGE("heard " << freqs.size() << " voiced buffers, median " << median(freqs) << " Hz, peak " << peak
                     << ", captured " << cs.frames_captured << ", overruns " << cs.overruns);
    REQUIRE(freqs.size() >= 4);
    CHECK(std::fabs(cents(median(freqs), 440.0)) < 3.0);
    CHECK(peak == doctest::Approx(0.3).epsilon(0.1));
    CHECK(peak <= 1.0f);
    CHECK(cs.running == 1);
    CHECK(cs.error == BOOP_OK);

    const double ts = nowSeconds();
    boop_capture_stop(cap);
    CHECK(nowSeconds() - ts < 0.2);
    CHECK(boop_capture_get_stats(cap).running == 0);
    CHECK(boop_capture_start(cap) == BOOP_ERROR_NOT_RUNNING);
    boop_capture_destroy(cap);
    boop_pitch_detector_destroy(det);
    boop_playback_destroy(pb);
}

// The loudest sample of the next `seconds` of the capture (after dropping what is queued).
static float capturedPeak(boop_capture* cap, double seconds) {
    std::vector<float> buf(2048);
    uint32_t got = 0;
    while (boop_capture_read(cap, buf.data(), 2048, &got, nullptr) == BOOP_OK && got > 0) {}
    float peak = 0;
    size_t frames = 0;
    const double rate = boop_capture_get_info(cap).sample_rate;
    const double t0 = nowSeconds();
    while (frames < size_t(seconds * rate) && nowSeconds() - t0 < kFirstAudioLimit) {
        if (boop_capture_wait(cap, 2048, 500) < 2048) continue;
        REQUIRE(boop_capture_read(cap, buf.data(), 2048, &got, nullptr) == BOOP_OK);
        for (uint32_t i = 0; i < got; ++i) peak = std::max(peak, std::fabs(buf[i]));
        frames += got;
    }
    return peak;
}

// Played and recorded at the sink's own rate: no resampler between what boop wrote and what the
// monitor gives back (a resampler's filter, around a discontinuity such as the server's underflow,
// can overshoot the samples it was given), so the monitor's peak is the peak boop wrote. The
// server's underflows in each measurement (the pulse PCM's xruns) are said beside it.
TEST_CASE("playback: its output stage applies the config's gain, changes it while playing, and limits") {
    PulseServer server("stage");
    REQUIRE_MESSAGE(server.ok(), server.log());
    const double rate = server.sinkRate();
    REQUIRE_MESSAGE(rate >= 8000, "the null sink's rate could not be read");
    boop_playback_config pcfg;
    boop_playback_config_default(&pcfg);
    pcfg.device = "pulse";
    pcfg.output.gain_db = -6.0;
    boop_playback* pb = nullptr;
    REQUIRE(boop_playback_open(&pcfg, rate, 2, &pb) == BOOP_OK);
    REQUIRE(boop_playback_get_info(pb).sample_rate == rate);
    SineSource sine;
    sine.rate = rate;
    sine.frequency = 440.0;
    sine.gain = 0.3f;
    REQUIRE(boop_playback_start(pb, sine.source()) == BOOP_OK);
    CHECK(boop_playback_start(pb, sine.source()) == BOOP_ERROR_ALREADY_RUNNING);

    boop_capture_config ccfg;
    boop_capture_config_default(&ccfg);
    ccfg.device = "pulse:boop_null.monitor";
    ccfg.sample_rate = rate;
    ccfg.ring_frames = uint32_t(4 * rate);
    boop_capture* cap = nullptr;
    REQUIRE(boop_capture_open(&ccfg, &cap) == BOOP_OK);
    MESSAGE("the null sink runs at " << rate << " Hz; boop plays and the monitor records at "
                                     << boop_capture_get_info(cap).sample_rate << " Hz");
    REQUIRE(boop_capture_get_info(cap).sample_rate == rate);
    REQUIRE(boop_capture_start(cap) == BOOP_OK);
    uint64_t xruns = boop_playback_get_stats(pb).xruns;
    const float quiet = capturedPeak(cap, 1.0);
    MESSAGE("at -6 dB the monitor peaks at "
            << quiet << " (server underflows meanwhile: " << boop_playback_get_stats(pb).xruns - xruns << ")");
    CHECK(quiet == doctest::Approx(0.3 * std::pow(10.0, -6.0 / 20)).epsilon(0.1));
    CHECK(boop_playback_take_reduction_db(pb) == 0.0f);

    // +12 dB takes the sine to 1.19: the limiter holds it under -1 dBTP (0.89), about 2.7 dB down.
    REQUIRE(boop_playback_set_gain_db(pb, BOOP_GAIN_DB_MAX) == BOOP_OK);
    CHECK(boop_playback_set_gain_db(pb, BOOP_GAIN_DB_MAX + 1) == BOOP_ERROR_INVALID_ARGUMENT);
    boop_playback_take_reduction_db(pb);
    xruns = boop_playback_get_stats(pb).xruns;
    const float loud = capturedPeak(cap, 1.0);
    const float reduction = boop_playback_take_reduction_db(pb);
    MESSAGE("at +12 dB the monitor peaks at "
            << loud << ", the limiter reduced by " << reduction
            << " dB (server underflows meanwhile: " << boop_playback_get_stats(pb).xruns - xruns << ")");
    CHECK(loud <= std::pow(10.0f, BOOP_CEILING_DBTP / 20) * 1.02f);
    CHECK(loud > 0.75f);
    CHECK(reduction < -2.0f);
    CHECK(boop_playback_get_stats(pb).error == BOOP_OK);
    boop_capture_destroy(cap);
    boop_playback_destroy(pb);
}

TEST_CASE("capture: the server killed mid-capture ends the thread with DEVICE_LOST within a second") {
    PulseServer server("capkill");
    REQUIRE_MESSAGE(server.ok(), server.log());
    boop_capture_config ccfg;
    boop_capture_config_default(&ccfg);
    ccfg.device = "pulse";
    boop_capture* cap = nullptr;
    REQUIRE(boop_capture_open(&ccfg, &cap) == BOOP_OK);
    REQUIRE(boop_capture_start(cap) == BOOP_OK);
    sleepSeconds(0.5);
    REQUIRE(boop_capture_get_stats(cap).running == 1);
    server.kill9();
    const double t0 = nowSeconds();
    boop_capture_stats s{};
    do {
        sleepSeconds(0.01);
        s = boop_capture_get_stats(cap);
    } while (s.running == 1 && nowSeconds() - t0 < 3.0);
    const double took = nowSeconds() - t0;
    MESSAGE("capture noticed the loss after " << took * 1000 << " ms");
    CHECK(s.running == 0);
    CHECK(s.error == BOOP_ERROR_DEVICE_LOST);
    CHECK(took < 1.0);
    // A reader waiting for more returns as soon as the thread has stopped.
    const double tw = nowSeconds();
    boop_capture_wait(cap, 1u << 20, 2000);
    CHECK(nowSeconds() - tw < 0.2);
    boop_capture_destroy(cap);
}

TEST_CASE("devices: the PCM hints list default (first) and pulse with descriptions") {
    PulseServer server("devices");
    REQUIRE_MESSAGE(server.ok(), server.log());
    boop_device_list* list = nullptr;
    REQUIRE(boop_device_list_create(&list) == BOOP_OK);
    bool sawDefault = false, sawPulse = false;
    for (size_t i = 0; i < boop_device_list_count(list); ++i) {
        const boop_device_info d = boop_device_list_get(list, i);
        const std::string name = d.name;
        if (name == "default") {
            sawDefault = true;
            CHECK(i == 0);
            CHECK(d.is_default == 1);
        } else {
            CHECK(d.is_default == 0);
        }
        if (name == "pulse") {
            sawPulse = true;
            CHECK(std::string(d.description).find("PulseAudio") != std::string::npos);
            CHECK(d.playback == 1);
            CHECK(d.capture == 1);
        }
        CHECK(std::string(d.description).find('\n') == std::string::npos);
    }
    CHECK(sawDefault);
    CHECK(sawPulse);
    CHECK(std::string(boop_device_list_get(list, 100000).name).empty());
    boop_device_list_destroy(list);
}
