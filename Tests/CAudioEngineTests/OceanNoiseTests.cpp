#include <doctest/doctest.h>
#include <algorithm>
#include <cmath>
#include <vector>
#include "AmbientTestSupport.hpp"
#include "dsp/OceanNoise.hpp"
#include "rt/Denormals.hpp"

using boop::dsp::OceanNoise;

static void run(OceanNoise& o, size_t frames, std::vector<float>& l, std::vector<float>& r, int block = 64) {
    l.assign(frames, 0.0f);
    r.assign(frames, 0.0f);
    boop::DenormalGuard guard;
    for (size_t i = 0; i < frames; i += static_cast<size_t>(block)) {
        const int n = static_cast<int>(std::min<size_t>(static_cast<size_t>(block), frames - i));
        o.process(l.data() + i, r.data() + i, n);
    }
}

TEST_CASE("OceanNoise swells: the level rises and falls slowly") {
    OceanNoise o;
    o.prepare(44100.0, 1);
    o.setSwell(6.0);
    std::vector<float> l, r;
    run(o, 44100 * 40, l, r);
    CHECK(ambtest::nonFinite(l) == 0);
    double lo = 1e9, hi = 0;
    for (size_t w = 0; w + 22050 <= l.size(); w += 22050) {
        const double v = ambtest::rms(l, w, w + 22050);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    CHECK(lo > 0.0);
    CHECK(hi > 2.5 * lo);
    CHECK(ambtest::peak(l) < 2.0);
    // Left and right are different noise.
    CHECK_FALSE(ambtest::sameBytes(l, r));
}

TEST_CASE("OceanNoise is mostly low-frequency (filtered, not hiss)") {
    OceanNoise o;
    o.prepare(48000.0, 4);
    std::vector<float> l, r;
    run(o, 48000 * 10, l, r);
    double diff = 0, total = 0;
    for (size_t i = 1; i < l.size(); ++i) {
        diff += double(l[i] - l[i - 1]) * (l[i] - l[i - 1]);
        total += double(l[i]) * l[i];
    }
    // White noise would give diff/total = 2.
    CHECK(diff / total < 0.5);
}

TEST_CASE("OceanNoise: deterministic by seed, different across seeds, block-size independent, extremes") {
    auto make = [](std::uint64_t seed) {
        OceanNoise o;
        o.prepare(44100.0, seed);
        o.setSwell(100.0);  // clamped to 60
        return o;
    };
    OceanNoise a = make(7), b = make(7), c = make(8);
    std::vector<float> l1, r1, l2, r2, l3, r3;
    run(a, 44100 * 3, l1, r1, 64);
    run(b, 44100 * 3, l2, r2, 1);
    run(c, 44100 * 3, l3, r3, 64);
    CHECK(ambtest::sameBytes(l1, l2));
    CHECK(ambtest::sameBytes(r1, r2));
    CHECK_FALSE(ambtest::sameBytes(l1, l3));
    OceanNoise fast;
    fast.prepare(8000.0, 1);
    fast.setSwell(0.0);  // clamped to 2
    run(fast, 8000 * 20, l1, r1, 512);
    CHECK(ambtest::nonFinite(l1) == 0);
    CHECK(ambtest::subnormals(l1) == 0);
}

namespace {
namespace reference {
using boop::dsp::kStreamOcean;
using boop::dsp::Rng;
using boop::dsp::SvfCoeffs;
using boop::dsp::SvfState;
// The ocean as it is defined: the TPT filter frame by frame. OceanNoise runs the same filters in
// state-space form, which rounds differently and must sound the same.
// clang-format off
class ReferenceOcean {
  public:
    static constexpr int kControlFrames = 32;

    void prepare(double sampleRate, std::uint64_t seed) noexcept {
        sampleRate_ = sampleRate;
        seed_ = seed;
        reset();
    }
    void reset() BOOP_RT {
        rng_.seedWith(seed_, kStreamOcean);
        for (int c = 0; c < 2; ++c) {
            ch_[c] = Channel{};
            ch_[c].phase = c == 0 ? 0.0 : 0.35;
            newSwell(ch_[c]);
            updateFilter(ch_[c]);
        }
        counter_ = 0;
    }

    // Mean seconds per swell, 2 ... 60.
    void setSwell(double seconds) BOOP_RT { swellSeconds_ = seconds < 2.0 ? 2.0 : (seconds > 60.0 ? 60.0 : seconds); }

    void process(float* outL, float* outR, int n) BOOP_RT {
        float* outs[2] = {outL, outR};
        for (int i = 0; i < n; ++i) {
            if (counter_ == 0) {
                for (auto& c : ch_) advanceSwell(c);
            }
            if (++counter_ >= kControlFrames) counter_ = 0;
            for (int c = 0; c < 2; ++c) {
                Channel& s = ch_[c];
                const float white = rng_.bipolar();
                float band;
                const float low = s.svf.process(s.coeffs, white, band);
                // Lowpass body plus a little band for the hiss of breaking foam.
                outs[c][i] = (low + 0.5f * band) * s.level;
            }
        }
    }

  private:
    struct Channel {
        double phase = 0.0, inc = 0.0;
        float height = 0.5f, level = 0.0f;
        SvfState svf;
        SvfCoeffs coeffs;
    };

    void newSwell(Channel& c) BOOP_RT {
        const double seconds = swellSeconds_ * (0.7 + 0.6 * rng_.uniform());
        c.inc = kControlFrames / (seconds * sampleRate_);
        c.height = 0.4f + 0.6f * rng_.uniform();
    }
    void advanceSwell(Channel& c) BOOP_RT {
        c.phase += c.inc;
        if (c.phase >= 1.0) {
            c.phase -= 1.0;
            newSwell(c);
        }
        updateFilter(c);
    }
    void updateFilter(Channel& c) BOOP_RT {
        // A swell rises slowly and falls faster: a skewed raised cosine.
        const double p = c.phase < 0.65 ? c.phase / 0.65 * 0.5 : 0.5 + (c.phase - 0.65) / 0.35 * 0.5;
        const double shape = 0.5 - 0.5 * std::cos(6.283185307179586 * p);
        const float swell = static_cast<float>(shape) * c.height;
        c.level = 0.15f + 0.85f * swell;
        c.coeffs.set(sampleRate_, 250.0 + 2200.0 * swell * swell, 0.6);
    }

    double sampleRate_ = 48000.0;
    std::uint64_t seed_ = 0;
    double swellSeconds_ = 9.0;
    Rng rng_;
    Channel ch_[2];
    int counter_ = 0;
};
// clang-format on
}  // namespace reference
}  // namespace

TEST_CASE("OceanNoise: the state-space filters match the TPT definition") {
    for (double rate : {44100.0, 8000.0}) {
        OceanNoise o;
        reference::ReferenceOcean ref;
        o.prepare(rate, 4);
        ref.prepare(rate, 4);
        o.setSwell(3.0);
        ref.setSwell(3.0);
        const size_t frames = static_cast<size_t>(rate * 20);
        std::vector<float> l(frames), r(frames), wl(frames), wr(frames);
        for (size_t i = 0; i < frames; i += 37) {
            const int n = static_cast<int>(std::min<size_t>(37, frames - i));
            o.process(l.data() + i, r.data() + i, n);
            ref.process(wl.data() + i, wr.data() + i, n);
        }
        double worst = 0.0;
        for (size_t i = 0; i < frames; ++i)
            worst = std::max({worst, double(std::fabs(l[i] - wl[i])), double(std::fabs(r[i] - wr[i]))});
        INFO("rate " << rate << ", worst difference " << worst);
        CHECK(ambtest::rms(wl) > 0.05);
        CHECK(worst < 1e-4);
    }
}
