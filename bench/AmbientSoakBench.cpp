// One-hour offline soak of the generative ambient engine: renders an hour (or --minutes N) at
// 48 kHz in fixed blocks and reports render speed, non-finite samples, the peak, RMS per
// 10-minute segment (level creep) and CPU time per block at the start and at the end (a
// leak, a growing structure or denormals would make it climb).
//
//   AmbientSoakBench [--minutes 60] [--rate 48000] [--block 256] [--seed 7] [--preset N]
//
// --preset selects one of a few built-in configurations (0 = engine defaults, 1 = bright and
// busy, 2 = dark with the longest reverb and feedback), so the soak covers the heavy corners.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>
#include "include/CAudioEngine.h"

namespace {

double threadCpuSeconds() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<size_t>(p * (v.size() - 1)))];
}

void preset(boop_ambient_config& c, int which) {
    if (which == 1) {
        c.tempo_bpm = 140;
        c.lead_pulses = 11;
        c.lead_steps = 16;
        c.lead_probability = 1.0f;
        c.grain_density = 60.0f;
        c.grain_seconds = 0.3f;
        c.grain_pitch_spread = 1.0f;
        c.chord_seconds = 4.0;
        c.modulation_chance = 1.0f;
        c.filter_max_hz = 9000.0f;
        c.filter_resonance = 0.8f;
    } else if (which == 2) {
        c.scale = BOOP_AMBIENT_SCALE_PHRYGIAN;
        c.reverb_decay_seconds = 60.0f;
        c.reverb_size = 1.0f;
        c.reverb_mix = 1.0f;
        c.reverb_damping = 0.0f;
        c.delay_feedback = 0.95f;
        c.delay_mix = 1.0f;
        c.pad_release_seconds = 30.0f;
        c.ocean_level = 1.0f;
        c.master_gain = 2.0f;
        c.drift_amount = 1.0f;
    }
}

struct Options {
    double minutes = 60.0, rate = 48000.0;
    unsigned block = 256, which = 0;
    unsigned long long seed = 7;
};

// False (after the usage line) on an unknown option.
bool parse(int argc, char** argv, Options& o) {
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--minutes")
            o.minutes = std::atof(argv[i + 1]);
        else if (a == "--rate")
            o.rate = std::atof(argv[i + 1]);
        else if (a == "--block")
            o.block = static_cast<unsigned>(std::atoi(argv[i + 1]));
        else if (a == "--seed")
            o.seed = std::strtoull(argv[i + 1], nullptr, 10);
        else if (a == "--preset")
            o.which = static_cast<unsigned>(std::atoi(argv[i + 1]));
        else {
            std::fprintf(stderr, "usage: %s [--minutes M] [--rate HZ] [--block N] [--seed S] [--preset 0|1|2]\n",
                         argv[0]);
            return false;
        }
    }
    return true;
}

// What the soak measured.
struct Soak {
    unsigned long long total = 0, nonFinite = 0, overOne = 0;
    double peak = 0, wall = 0, cpu = 0;
    std::vector<double> segRms, startCpu, endCpu;  // CPU seconds per block, first and last minute
};

// A block's samples into the counts, the peak and the current segment's sum of squares.
void scan(const float* x, unsigned count, Soak& r, double& segSum) {
    for (unsigned i = 0; i < count; ++i) {
        if (!std::isfinite(x[i])) {
            ++r.nonFinite;
            continue;
        }
        const double ax = std::fabs(x[i]);
        if (ax > 1.0) ++r.overOne;
        r.peak = std::max(r.peak, ax);
        segSum += double(x[i]) * x[i];
    }
}

Soak run(boop_ambient* a, const Options& o) {
    Soak r;
    r.total = static_cast<unsigned long long>(o.minutes * 60.0 * o.rate);
    const unsigned long long segFrames = static_cast<unsigned long long>(600.0 * o.rate);  // 10 minutes
    const size_t timedBlocks = static_cast<size_t>(60.0 * o.rate / o.block);               // first/last minute
    const unsigned long long minute = static_cast<unsigned long long>(60.0 * o.rate);
    const unsigned long long endStart = r.total > minute ? r.total - minute : 0;
    std::vector<float> buf(static_cast<size_t>(o.block) * 2);
    unsigned long long done = 0, segCount = 0;
    double segSum = 0;
    const auto wall0 = std::chrono::steady_clock::now();
    const double cpu0 = threadCpuSeconds();
    while (done < r.total) {
        const unsigned n = static_cast<unsigned>(std::min<unsigned long long>(o.block, r.total - done));
        const double t0 = threadCpuSeconds();
        boop_ambient_render(a, buf.data(), n);
        const double dt = threadCpuSeconds() - t0;
        if (r.startCpu.size() < timedBlocks)
            r.startCpu.push_back(dt);
        else if (done >= endStart && r.endCpu.size() < timedBlocks)
            r.endCpu.push_back(dt);
        scan(buf.data(), 2 * n, r, segSum);
        segCount += 2ull * n;
        done += n;
        if (done % segFrames == 0 || done == r.total) {
            r.segRms.push_back(std::sqrt(segSum / std::max<unsigned long long>(segCount, 1)));
            segSum = 0;
            segCount = 0;
        }
    }
    r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    r.cpu = threadCpuSeconds() - cpu0;
    return r;
}

void report(const Options& o, const Soak& r, const boop_ambient_status& s) {
    const double audio = r.total / o.rate;
    std::printf("ambient soak: %.1f min at %.0f Hz, %u-frame blocks, seed %llu, config %u\n", o.minutes, o.rate,
                o.block, o.seed, o.which);
    std::printf("render: %.1f s wall, %.1f s CPU -> %.1fx real time (wall), %.1fx (CPU)\n", r.wall, r.cpu,
                audio / r.wall, audio / r.cpu);
    std::printf("samples: %llu non-finite, %llu above 1.0, peak %.6f\n", r.nonFinite, r.overOne, r.peak);
    std::printf("RMS per 10-minute segment:");
    for (double v : r.segRms) std::printf(" %.4f", v);
    double lo = 1e9, hi = 0;
    for (double v : r.segRms) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    std::printf("  (max/min %.2f dB)\n", r.segRms.empty() ? 0.0 : 20.0 * std::log10(hi / std::max(lo, 1e-12)));
    const double budget = o.block / o.rate * 1e6;
    std::printf(
        "CPU per block (us, budget %.0f): first minute median %.2f p99 %.2f | last minute median %.2f p99 %.2f | ratio "
        "%.2f\n",
        budget, percentile(r.startCpu, 0.5) * 1e6, percentile(r.startCpu, 0.99) * 1e6, percentile(r.endCpu, 0.5) * 1e6,
        percentile(r.endCpu, 0.99) * 1e6, percentile(r.endCpu, 0.5) / std::max(percentile(r.startCpu, 0.5), 1e-12));
    std::printf("composition: %llu chords, key %s at the end, chord %s, non-finite resets %llu\n",
                static_cast<unsigned long long>(s.chords), boop_ambient_key_name(s.key), s.chord_name,
                static_cast<unsigned long long>(s.nonfinite_resets));
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    if (!parse(argc, argv, o)) return 64;
    boop_ambient_config c;
    boop_ambient_config_default(&c);
    c.sample_rate = o.rate;
    c.seed = o.seed;
    c.max_block_frames = o.block;
    preset(c, static_cast<int>(o.which));
    boop_ambient* a = nullptr;
    const boop_status st = boop_ambient_create(&c, &a);
    if (st != BOOP_OK) {
        std::fprintf(stderr, "create failed: %s\n", boop_status_string(st));
        return 1;
    }
    const Soak r = run(a, o);
    boop_ambient_status s;
    boop_ambient_get_status(a, &s);
    boop_ambient_destroy(a);
    report(o, r, s);
    const bool ok = r.nonFinite == 0 && r.overOne == 0 && s.nonfinite_resets == 0;
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
