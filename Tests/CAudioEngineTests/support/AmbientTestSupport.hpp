#pragma once
// Signal checks shared by the Ambient*Tests files.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>
#include "include/CAudioEngine.h"

namespace ambtest {

inline double rms(const float* x, size_t n) {
    double s = 0;
    for (size_t i = 0; i < n; ++i) s += double(x[i]) * x[i];
    return n ? std::sqrt(s / n) : 0.0;
}
inline double rms(const std::vector<float>& x) { return rms(x.data(), x.size()); }
inline double rms(const std::vector<float>& x, size_t begin, size_t end) { return rms(x.data() + begin, end - begin); }

inline double peak(const std::vector<float>& x) {
    double p = 0;
    for (float v : x) p = std::max(p, double(std::fabs(v)));
    return p;
}
inline size_t nonFinite(const std::vector<float>& x) {
    size_t n = 0;
    for (float v : x) n += std::isfinite(v) ? 0 : 1;
    return n;
}
inline size_t subnormals(const std::vector<float>& x) {
    size_t n = 0;
    for (float v : x) n += std::fpclassify(v) == FP_SUBNORMAL ? 1 : 0;
    return n;
}
inline bool sameBytes(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// Renders `frames` stereo frames from the C API in blocks following `blocks` cyclically.
inline std::vector<float> renderAmbient(boop_ambient* a, size_t frames, const std::vector<uint32_t>& blocks) {
    std::vector<float> out(frames * 2);
    size_t done = 0, k = 0;
    while (done < frames) {
        uint32_t n = blocks[k++ % blocks.size()];
        if (n > frames - done) n = static_cast<uint32_t>(frames - done);
        boop_ambient_render(a, out.data() + 2 * done, n);
        done += n;
    }
    return out;
}

struct Ambient {
    boop_ambient* a = nullptr;
    explicit Ambient(const boop_ambient_config& c) { boop_ambient_create(&c, &a); }
    ~Ambient() { boop_ambient_destroy(a); }
    Ambient(const Ambient&) = delete;
    Ambient& operator=(const Ambient&) = delete;
    operator boop_ambient*() const { return a; }
};

inline boop_ambient_config config(uint64_t seed, double rate = 44100.0) {
    boop_ambient_config c;
    boop_ambient_config_default(&c);
    c.seed = seed;
    c.sample_rate = rate;
    return c;
}

// Energy above ~3 kHz as a share of the total, from a first difference (a crude high-pass
// with +6 dB/octave): clicks show as spikes in it.
inline double maxDiff(const float* x, size_t n, size_t stride = 1) {
    double m = 0;
    for (size_t i = stride; i < n; i += stride) m = std::max(m, double(std::fabs(x[i] - x[i - stride])));
    return m;
}

}  // namespace ambtest
