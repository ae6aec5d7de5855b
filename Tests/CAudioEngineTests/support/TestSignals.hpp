#pragma once
// Helpers to render through the public C API and to analyse what comes out.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>
#include "dsp/Rng.hpp"
#include "include/CAudioEngine.h"

namespace testsig {

inline double midiToHz(double midi, double cents = 0.0, double reference = 440.0) {
    return reference * std::pow(2.0, (midi - 69.0) / 12.0) * std::pow(2.0, cents / 1200.0);
}
inline double centsBetween(double measured, double expected) { return 1200.0 * std::log2(measured / expected); }

struct EngineHandle {
    boop_engine* e = nullptr;
    explicit EngineHandle(double rate = 44100.0, uint32_t voices = 8, uint32_t channels = 1, uint32_t block = 4096,
                          uint32_t queue = 1u << 16) {
        boop_engine_config c;
        boop_engine_config_default(&c);
        c.sample_rate = rate;
        c.voices = voices;
        c.channels = channels;
        c.max_block_frames = block;
        c.queue_capacity = queue;
        boop_engine_create(&c, &e);
    }
    ~EngineHandle() { boop_engine_destroy(e); }
    EngineHandle(const EngineHandle&) = delete;
    EngineHandle& operator=(const EngineHandle&) = delete;
    operator boop_engine*() const { return e; }

    // Renders `frames` mono frames in blocks of `block`.
    std::vector<float> render(size_t frames, uint32_t block = 512) {
        const uint32_t ch = boop_engine_channels(e);
        std::vector<float> out(frames * ch);
        size_t done = 0;
        while (done < frames) {
            const uint32_t n = static_cast<uint32_t>(std::min<size_t>(block, frames - done));
            boop_engine_render(e, out.data() + done * ch, n);
            done += n;
        }
        return out;
    }
};

// Frequency from upward zero crossings, each located by linear interpolation, over [begin, end).
// Counting whole cycles between the first and last crossing averages out the interpolation error.
inline double zeroCrossingFrequency(const std::vector<float>& x, double rate, size_t begin, size_t end) {
    double first = -1, last = -1;
    long cycles = -1;
    for (size_t i = begin + 1; i < end; ++i) {
        if (x[i - 1] < 0.0f && x[i] >= 0.0f) {
            const double t = (i - 1) + x[i - 1] / (x[i - 1] - x[i]);
            if (first < 0) first = t;
            last = t;
            ++cycles;
        }
    }
    if (cycles < 1) return 0.0;
    return cycles * rate / (last - first);
}

inline double peakAmplitude(const std::vector<float>& x, size_t begin, size_t end) {
    float p = 0;
    for (size_t i = begin; i < end; ++i) p = std::max(p, std::fabs(x[i]));
    return p;
}

inline double rms(const std::vector<float>& x, size_t begin, size_t end) {
    double s = 0;
    for (size_t i = begin; i < end; ++i) s += double(x[i]) * x[i];
    return std::sqrt(s / double(end - begin));
}

inline float maxStep(const std::vector<float>& x, size_t begin, size_t end) {
    float m = 0;
    for (size_t i = std::max<size_t>(begin, 1); i < end; ++i) m = std::max(m, std::fabs(x[i] - x[i - 1]));
    return m;
}

// First frame whose magnitude exceeds threshold.
inline long firstAbove(const std::vector<float>& x, float threshold, size_t from = 0) {
    for (size_t i = from; i < x.size(); ++i)
        if (std::fabs(x[i]) > threshold) return static_cast<long>(i);
    return -1;
}

// Energy above `cutoff` Hz relative to total, via a 4th-order highpass (two cascaded RBJ biquads):
// the "click" measure — a click is broadband energy where a filtered sine has almost none.
inline std::vector<float> highpass(const std::vector<float>& x, double rate, double cutoff) {
    std::vector<float> y(x.begin(), x.end());
    for (int stage = 0; stage < 2; ++stage) {
        const double w0 = 2 * M_PI * cutoff / rate, cw = std::cos(w0), alpha = std::sin(w0) / (2 * 0.7071);
        const double a0 = 1 + alpha;
        const double b0 = (1 + cw) / 2 / a0, b1 = -(1 + cw) / a0, b2 = b0, a1 = -2 * cw / a0, a2 = (1 - alpha) / a0;
        double z1 = 0, z2 = 0;
        for (float& v : y) {
            const double in = v, out = b0 * in + z1;
            z1 = b1 * in - a1 * out + z2;
            z2 = b2 * in - a2 * out;
            v = static_cast<float>(out);
        }
    }
    return y;
}

inline double dB(double x) { return 10 * std::log10(std::max(x, 1e-30)); }

inline double energy(const std::vector<float>& x) {
    double e = 0;
    for (float v : x) e += double(v) * v;
    return e;
}

// Energy above each octave edge from 63 Hz to 16 kHz, in dB relative to the whole signal: the
// spectral shape two noises are compared by.
inline std::vector<double> octaveProfile(const std::vector<float>& x, double rate) {
    std::vector<double> out;
    const double total = energy(x);
    for (double edge = 62.5; edge <= 16000; edge *= 2) out.push_back(dB(energy(highpass(x, rate, edge)) / total));
    return out;
}

// Noise in bursts, loud (0.3) then quiet enough to be gated (0.001), 30000 frames each, so an
// envelope or a loudness estimate both follows and releases.
inline std::vector<float> bursts(size_t frames, std::uint64_t seed) {
    boop::dsp::Rng rng(seed, 1);
    std::vector<float> x(frames);
    for (size_t i = 0; i < frames; ++i) x[i] = rng.bipolar() * ((i / 30000) % 3 == 2 ? 0.001f : 0.3f);
    return x;
}

}  // namespace testsig
