#include <doctest/doctest.h>
#include <cmath>
#include <vector>
#include "AmbientTestSupport.hpp"
#include "dsp/Granulator.hpp"
#include "rt/Denormals.hpp"

using boop::dsp::Granulator;

namespace {
void run(Granulator& g, const std::vector<float>& in, std::vector<float>& l, std::vector<float>& r, int block = 64) {
    l.assign(in.size(), 0.0f);
    r.assign(in.size(), 0.0f);
    boop::DenormalGuard guard;
    for (size_t i = 0; i < in.size(); i += static_cast<size_t>(block)) {
        const int n = static_cast<int>(std::min<size_t>(static_cast<size_t>(block), in.size() - i));
        g.process(in.data() + i, l.data() + i, r.data() + i, n);
    }
}
std::vector<float> sine(double f, double rate, size_t n, float a = 0.5f) {
    std::vector<float> x(n);
    for (size_t i = 0; i < n; ++i) x[i] = a * static_cast<float>(std::sin(2.0 * M_PI * f * i / rate));
    return x;
}
// Power of x at frequency f (Goertzel), normalised by length.
double power(const std::vector<float>& x, size_t b, size_t e, double f, double rate) {
    const double w = 2.0 * M_PI * f / rate, c = 2.0 * std::cos(w);
    double s1 = 0, s2 = 0;
    for (size_t i = b; i < e; ++i) {
        const double s = x[i] + c * s1 - s2;
        s2 = s1;
        s1 = s;
    }
    return (s1 * s1 + s2 * s2 - c * s1 * s2) / double(e - b) / double(e - b);
}
}  // namespace

TEST_CASE("Granulator: silence in, silence out") {
    Granulator g;
    g.prepare(44100.0, 1);
    std::vector<float> in(44100 * 2, 0.0f), l, r;
    run(g, in, l, r);
    CHECK(ambtest::rms(l) == 0.0);
    CHECK(g.activeGrains() > 0);  // grains run; they just read silence
}

TEST_CASE("Granulator: an untransposed cloud keeps the input's pitch; pitch spread adds octaves") {
    const double rate = 44100.0;
    auto in = sine(440.0, rate, 44100 * 4);
    Granulator g;
    g.prepare(rate, 5);
    g.setGrain(0.08, 20.0);
    g.setPitchSpread(0.0f);
    std::vector<float> l, r;
    run(g, in, l, r);
    const size_t b = 44100 * 2, e = 44100 * 4;
    CHECK(ambtest::rms(l, b, e) > 0.05);
    CHECK(power(l, b, e, 440.0, rate) > 100.0 * power(l, b, e, 880.0, rate));

    Granulator h;
    h.prepare(rate, 5);
    h.setGrain(0.08, 20.0);
    h.setPitchSpread(1.0f);
    run(h, in, l, r);
    CHECK(power(l, b, e, 880.0, rate) > 0.05 * power(l, b, e, 440.0, rate));
}

TEST_CASE("Granulator: windowed grains do not click, output is bounded") {
    const double rate = 48000.0;
    auto in = sine(200.0, rate, 48000 * 3, 1.0f);
    Granulator g;
    g.prepare(rate, 2);
    g.setGrain(0.5, 80.0);  // maximum overlap
    g.setPitchSpread(1.0f);
    std::vector<float> l, r;
    run(g, in, l, r, 1);
    CHECK(ambtest::nonFinite(l) == 0);
    CHECK(ambtest::peak(l) < 4.0);
    CHECK(g.activeGrains() <= Granulator::kMaxGrains);
    Granulator s;
    s.prepare(rate, 2);
    s.setGrain(0.01, 0.2);  // sparse and short
    run(s, in, l, r);
    // A 200 Hz sine at 1.0 changes by 0.026 per sample; Hann edges keep grains smooth.
    CHECK(ambtest::maxDiff(l.data(), l.size()) < 0.2);
}

TEST_CASE("Granulator: deterministic by seed, different across seeds, block-size independent") {
    auto in = sine(330.0, 44100.0, 44100 * 3);
    auto make = [](std::uint64_t seed) {
        Granulator g;
        g.prepare(44100.0, seed);
        g.setGrain(0.1, 15.0);
        g.setPitchSpread(0.5f);
        return g;
    };
    std::vector<float> l1, r1, l2, r2, l3, r3;
    Granulator a = make(7), b = make(7), c = make(8);
    run(a, in, l1, r1, 64);
    run(b, in, l2, r2, 3);
    run(c, in, l3, r3, 64);
    CHECK(ambtest::sameBytes(l1, l2));
    CHECK(ambtest::sameBytes(r1, r2));
    CHECK_FALSE(ambtest::sameBytes(l1, l3));
    a.reset();
    std::vector<float> l4, r4;
    run(a, in, l4, r4);
    CHECK(ambtest::sameBytes(l1, l4));
}

namespace {
namespace reference {
using boop::dsp::kStreamGrain;
using boop::dsp::Rng;
// The granulator as it is defined, frame by frame with every grain visited each frame; Granulator
// renders grain by grain over stretches between spawns and must give the same bits.
// clang-format off
class ReferenceGranulator {
  public:
    static constexpr int kMaxGrains = 24;
    static constexpr int kWindowSize = 1024;

    // Allocates the circular buffer and the window table.
    void prepare(double sampleRate, std::uint64_t seed, double bufferSeconds = 3.0) {
        sampleRate_ = sampleRate;
        seed_ = seed;
        size_ = static_cast<int>(std::ceil(bufferSeconds * sampleRate));
        buffer_.assign(static_cast<size_t>(size_), 0.0f);
        window_.assign(kWindowSize + 1, 0.0f);
        for (int i = 0; i <= kWindowSize; ++i)
            window_[static_cast<size_t>(i)] =
                static_cast<float>(0.5 - 0.5 * std::cos(6.283185307179586 * i / kWindowSize));
        setGrain(grainSeconds_, density_);
        reset();
    }

    void reset() BOOP_RT {
        for (auto& x : buffer_) x = 0.0f;
        for (auto& g : grains_) g = Grain{};
        write_ = 0;
        written_ = 0;
        rng_.seedWith(seed_, kStreamGrain);
        untilNext_ = 0.0;
    }

    // grainSeconds 0.01 ... 0.5; density in grains per second 0.2 ... 80.
    void setGrain(double grainSeconds, double density) BOOP_RT {
        grainSeconds_ = grainSeconds < 0.01 ? 0.01 : (grainSeconds > 0.5 ? 0.5 : grainSeconds);
        density_ = density < 0.2 ? 0.2 : (density > 80.0 ? 80.0 : density);
        const double overlap = density_ * grainSeconds_;
        norm_ = static_cast<float>(1.0 / std::sqrt(overlap < 1.0 ? 1.0 : overlap));
    }
    // 0 = every grain at the original pitch; 1 = most grains transposed.
    void setPitchSpread(float p) BOOP_RT { pitchSpread_ = p < 0.0f ? 0.0f : (p > 1.0f ? 1.0f : p); }

    int activeGrains() const BOOP_RT {
        int n = 0;
        for (const auto& g : grains_) n += g.active ? 1 : 0;
        return n;
    }

    void process(const float* in, float* outL, float* outR, int n) BOOP_RT {
        const float* buf = buffer_.data();
        for (int i = 0; i < n; ++i) {
            buffer_[static_cast<size_t>(write_)] = in[i];
            if (++write_ >= size_) write_ = 0;
            if (written_ < size_) ++written_;
            untilNext_ -= 1.0;
            if (untilNext_ <= 0.0) {
                spawn();
                untilNext_ += sampleRate_ / density_ * (0.5 + rng_.uniform());
            }
            float l = 0.0f, r = 0.0f;
            for (auto& g : grains_) {
                if (!g.active) continue;
                const float w = windowAt(static_cast<float>(g.age) * g.invLen);
                int i0 = static_cast<int>(g.pos);
                const float frac = static_cast<float>(g.pos - i0);
                if (i0 >= size_) i0 -= size_;
                int i1 = i0 + 1;
                if (i1 >= size_) i1 = 0;
                const float s = (buf[i0] + (buf[i1] - buf[i0]) * frac) * w * g.amp;
                l += s * g.panL;
                r += s * g.panR;
                g.pos += g.ratio;
                if (g.pos >= size_) g.pos -= size_;
                if (++g.age >= g.len) g.active = false;
            }
            outL[i] = l * norm_;
            outR[i] = r * norm_;
        }
    }

  private:
    struct Grain {
        bool active = false;
        double pos = 0.0, ratio = 1.0;
        int age = 0, len = 1;
        float invLen = 1.0f, amp = 0.0f, panL = 0.0f, panR = 0.0f;
    };

    float windowAt(float t) const BOOP_RT {
        const float x = t * kWindowSize;
        int i = static_cast<int>(x);
        if (i >= kWindowSize) return 0.0f;
        const float f = x - static_cast<float>(i);
        return window_[static_cast<size_t>(i)] +
               (window_[static_cast<size_t>(i) + 1] - window_[static_cast<size_t>(i)]) * f;
    }

    void spawn() BOOP_RT {
        Grain* slot = nullptr;
        for (auto& g : grains_)
            if (!g.active) {
                slot = &g;
                break;
            }
        // Draw the same numbers whether or not a slot is free, so the stream never depends on
        // how many grains happen to be sounding.
        const float uLen = rng_.uniform(), uPitch = rng_.uniform(), uWhich = rng_.uniform();
        const float uBack = rng_.uniform(), uPan = rng_.uniform(), uAmp = rng_.uniform();
        if (!slot) return;
        double ratio = 1.0;
        if (uPitch < pitchSpread_) {
            ratio = uWhich < 0.45f ? 2.0 : (uWhich < 0.75f ? 0.5 : 1.5);
        }
        const int len = static_cast<int>(grainSeconds_ * sampleRate_ * (0.7 + 0.6 * uLen));
        // Start far enough back that a faster-than-input grain never overtakes the write head.
        const double need = len * (ratio > 1.0 ? ratio : 1.0) + 2.0;
        double back = need + uBack * 1.2 * sampleRate_;
        const double maxBack = static_cast<double>(written_) - 2.0;
        if (back > maxBack) back = maxBack;
        if (back < need) return;  // not enough history yet
        double pos = static_cast<double>(write_) - back;
        if (pos < 0.0) pos += size_;
        const float pan = uPan;
        *slot = Grain{true,
                      pos,
                      ratio,
                      0,
                      len < 1 ? 1 : len,
                      1.0f / static_cast<float>(len < 1 ? 1 : len),
                      0.6f + 0.4f * uAmp,
                      std::sqrt(1.0f - pan),
                      std::sqrt(pan)};
    }

    double sampleRate_ = 48000.0;
    std::uint64_t seed_ = 0;
    std::vector<float> buffer_, window_;
    int size_ = 1, write_ = 0, written_ = 0;
    Grain grains_[kMaxGrains];
    Rng rng_;
    double untilNext_ = 0.0;
    double grainSeconds_ = 0.12, density_ = 10.0;
    float pitchSpread_ = 0.3f, norm_ = 1.0f;
};
// clang-format on
}  // namespace reference
}  // namespace

// A buffer barely longer than the grains reach back makes grains read the oldest samples, which
// the stretch being rendered overwrites: the case where a grain must see what was there before.
TEST_CASE("Granulator: grain-by-grain rendering gives the frame-by-frame definition's bits") {
    for (double seconds : {3.0, 0.25}) {
        Granulator g;
        reference::ReferenceGranulator ref;
        g.prepare(44100.0, 9, seconds);
        ref.prepare(44100.0, 9, seconds);
        g.setGrain(0.08, 60.0);
        ref.setGrain(0.08, 60.0);
        g.setPitchSpread(1.0f);
        ref.setPitchSpread(1.0f);
        boop::dsp::Rng rng(3, 1);
        std::vector<float> in(44100 * 4);
        for (auto& x : in) x = 0.5f * rng.bipolar();
        std::vector<float> l, r, wl(in.size()), wr(in.size());
        run(g, in, l, r, 29);
        for (size_t i = 0; i < in.size(); ++i) ref.process(in.data() + i, wl.data() + i, wr.data() + i, 1);
        INFO("buffer " << seconds << " s");
        CHECK(ambtest::rms(l) > 0.05);
        CHECK(ambtest::sameBytes(l, wl));
        CHECK(ambtest::sameBytes(r, wr));
    }
}
