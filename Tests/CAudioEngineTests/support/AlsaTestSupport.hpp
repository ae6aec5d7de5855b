#pragma once
// Helpers for the ALSA/YIN tests: a private PulseAudio null-sink server, a sine source for the
// playback backend, and small signal utilities. Header-only; test code, so it may allocate freely.
#include <signal.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "include/CAudioEngine.h"

namespace boop_test {

inline double nowSeconds() {
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

inline std::string runAndCapture(const std::string& cmd, int* status = nullptr) {
    std::string out;
    FILE* p = popen(cmd.c_str(), "r");
    if (p == nullptr) return out;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    int st = pclose(p);
    if (status != nullptr) *status = st;
    return out;
}

// A private PulseAudio server with a null sink (scripts/pulse-null-sink.sh) in its own directory,
// pointed to by PULSE_SERVER for this process. Each instance is independent, so a test may kill
// its own server without disturbing others. It never outlives the test: the destructor stops it
// (a failed REQUIRE throws through it), and BOOP_PULSE_OWNER has the script kill it once this
// process is gone, whatever ended it. The script waits for the server to answer (up to 60 s).
class PulseServer {
  public:
    explicit PulseServer(const std::string& tag) {
        dir_ = "/tmp/boop-pulse-test-" + std::to_string(getpid()) + "-" + tag;
        const std::string script = std::string(BOOP_SOURCE_DIR) + "/scripts/pulse-null-sink.sh";
        int st = 0;
        std::string env = runAndCapture(
            "BOOP_PULSE_OWNER=" + std::to_string(getpid()) + " '" + script + "' start '" + dir_ + "' 2>&1", &st);
        ok_ = (st == 0);
        log_ = env;
        std::ifstream pidFile(dir_ + "/pid");
        pidFile >> pid_;
        socket_ = "unix:" + dir_ + "/run/pulse/native";
        if (ok_) setenv("PULSE_SERVER", socket_.c_str(), 1);
    }
    ~PulseServer() { stop(); }
    PulseServer(const PulseServer&) = delete;
    PulseServer& operator=(const PulseServer&) = delete;

    bool ok() const { return ok_; }
    pid_t pid() const { return pid_; }

    // The null sink's own sample rate (pactl's "s16le 2ch 44100Hz"), 0 if it cannot be read. A
    // stream at this rate reaches the sink, and its monitor records it, with no resampler between.
    double sinkRate() const {
        const std::string out = runAndCapture("PULSE_SERVER='" + socket_ + "' pactl list short sinks 2>/dev/null");
        const size_t hz = out.find("Hz");
        if (hz == std::string::npos) return 0;
        size_t from = hz;
        while (from > 0 && out[from - 1] >= '0' && out[from - 1] <= '9') --from;
        return from < hz ? std::stod(out.substr(from, hz - from)) : 0;
    }
    const std::string& log() const { return log_; }

    // Kills the server the hard way, as a crash would.
    void kill9() {
        if (pid_ > 0) ::kill(pid_, SIGKILL);
    }

    void stop() {
        if (stopped_) return;
        stopped_ = true;
        const std::string script = std::string(BOOP_SOURCE_DIR) + "/scripts/pulse-null-sink.sh";
        runAndCapture("'" + script + "' stop '" + dir_ + "' >/dev/null 2>&1; rm -rf '" + dir_ + "'");
    }

  private:
    std::string dir_, socket_, log_;
    pid_t pid_ = 0;
    bool ok_ = false;
    bool stopped_ = false;
};

// A sine (same on every channel) as a boop_source.
struct SineSource {
    double rate = 44100;
    double frequency = 440;
    float gain = 0.25f;
    uint32_t channels = 2;
    double phase = 0;

    static boop_status render(void* ctx, float* out, uint32_t frames) {
        auto* s = static_cast<SineSource*>(ctx);
        const double inc = 2.0 * M_PI * s->frequency / s->rate;
        for (uint32_t i = 0; i < frames; ++i) {
            const float v = s->gain * static_cast<float>(std::sin(s->phase));
            s->phase += inc;
            if (s->phase > 2.0 * M_PI) s->phase -= 2.0 * M_PI;
            for (uint32_t c = 0; c < s->channels; ++c) out[i * s->channels + c] = v;
        }
        return BOOP_OK;
    }

    boop_source source(uint32_t maxBlock = 512) {
        boop_source src{};
        src.render = &SineSource::render;
        src.context = this;
        src.channels = channels;
        src.max_block_frames = maxBlock;
        src.sample_rate = rate;
        return src;
    }
};

inline std::vector<float> sine(double rate, double freq, double seconds, float amp = 0.5f, double phase = 0.0) {
    std::vector<float> v(static_cast<size_t>(rate * seconds));
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = amp * static_cast<float>(std::sin(phase + 2.0 * M_PI * freq * double(i) / rate));
    return v;
}

inline double cents(double f, double ref) { return 1200.0 * std::log2(f / ref); }

inline double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace boop_test
