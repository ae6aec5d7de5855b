// The voice pitch tracker (dsp/PitchTracker, or plain dsp/Yin with --plain) over a file of mono
// 32-bit float samples, for bench/pitch-bench.py: one line "time_s frequency_hz" per hop, the
// time being the window's centre; an unvoiced frame prints its best guess negated (mir_eval's
// convention; 0 = no guess). stderr: the CPU seconds spent per second of audio.
//   PitchTrackBench RATE WINDOW HOP LAG FILE.f32 [--plain]
// For tuning, BOOP_BETA_B, BOOP_JUMP and BOOP_LOWPASS override the tracker's threshold shape,
// jump cost and lowpass cutoff (PitchTracker's setters).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#include "dsp/PitchTracker.hpp"
#include "dsp/Yin.hpp"

namespace {

std::vector<float> readFloats(const char* path) {
    std::vector<float> v;
    FILE* f = std::fopen(path, "rb");
    if (f == nullptr) return v;
    float buf[4096];
    size_t n;
    while ((n = std::fread(buf, sizeof(float), 4096, f)) > 0) v.insert(v.end(), buf, buf + n);
    std::fclose(f);
    return v;
}

double cpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 6) {
        std::fprintf(stderr, "usage: PitchTrackBench RATE WINDOW HOP LAG FILE.f32 [--plain]\n");
        return 64;
    }
    const double rate = std::atof(argv[1]);
    const uint32_t window = uint32_t(std::atoi(argv[2]));
    const uint32_t hop = uint32_t(std::atoi(argv[3]));
    const uint32_t lag = uint32_t(std::atoi(argv[4]));
    const bool plain = argc > 6 && std::strcmp(argv[6], "--plain") == 0;
    std::vector<float> x = readFloats(argv[5]);
    if (x.empty() || window < 64 || hop == 0) {
        std::fprintf(stderr, "PitchTrackBench: %s: expected mono float32 samples\n", argv[5]);
        return 66;
    }
    const size_t audio = x.size();
    // Frame k's window is centred on sample k·hop.
    std::vector<float> padded(window / 2, 0.0f);
    padded.insert(padded.end(), x.begin(), x.end());
    padded.insert(padded.end(), window / 2, 0.0f);
    const size_t frames = audio / hop;
    std::vector<double> out(frames, 0.0);

    boop::dsp::PitchTracker tracker;
    boop::dsp::Yin yin;
    tracker.prepare(rate, window, lag);
    yin.prepare(rate, window);
    tracker.setRange(50.0, 1400.0);
    if (const char* b = std::getenv("BOOP_BETA_B")) tracker.setThresholdShape(std::atof(b));
    if (const char* j = std::getenv("BOOP_JUMP")) tracker.setJumpCost(std::atof(j));
    if (const char* l = std::getenv("BOOP_LOWPASS")) tracker.setLowpass(std::atof(l));
    yin.setRange(50.0, 1400.0);
    const double start = cpuSeconds();
    boop::dsp::PitchFrame frame;
    for (size_t k = 0; k < frames; ++k) {
        const float* w = padded.data() + k * hop;
        if (plain) {
            out[k] = yin.process(w, window).frequency;
        } else if (tracker.push(w, window, frame)) {
            out[frame.index] = frame.frequency > 0 ? frame.frequency : -frame.guess;
        }
    }
    if (!plain) {
        boop::dsp::PitchFrame rest[64];
        uint32_t n;
        while ((n = tracker.flush(rest, 64)) > 0)
            for (uint32_t i = 0; i < n; ++i)
                out[rest[i].index] = rest[i].frequency > 0 ? rest[i].frequency : -rest[i].guess;
    }
    const double cpu = cpuSeconds() - start;
    for (size_t k = 0; k < frames; ++k) std::printf("%.5f %.4f\n", double(k * hop) / rate, out[k]);
    std::fprintf(stderr, "cpu_per_audio_second %.6f\n", cpu / (double(audio) / rate));
    return 0;
}
