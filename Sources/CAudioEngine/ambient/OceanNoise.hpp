#pragma once
#include <cmath>
#include <cstdint>
#include "dsp/Rng.hpp"
#include "dsp/Svf.hpp"
#include "rt/Realtime.hpp"

namespace boop::ambient {

// Ocean: white noise through a lowpass whose cutoff and level rise and fall with slow swells.
// Each swell lasts swellSeconds x (0.7 ... 1.3) with its own height; left and right run their
// own noise and are offset by part of a swell, so waves seem to wash across the stereo field.
class OceanNoise {
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

    // Stretches between control ticks, the state in locals. Each channel's filter runs in
    // state-space form: the two integrator states as linear functions of themselves and the input
    // (the same filter as SvfState::process, rearranged), so a frame's critical path is one
    // multiply-add deep instead of the TPT form's chain of four.
    void process(float* outL, float* outR, int n) BOOP_RT {
        for (int i = 0; i < n;) {
            if (counter_ == 0) {
                for (auto& c : ch_) advanceSwell(c);
            }
            const int m = kControlFrames - counter_ < n - i ? kControlFrames - counter_ : n - i;
            Rng rng = rng_;
            const Matrix p = ch_[0].m, q = ch_[1].m;
            float l1 = ch_[0].ic1, l2 = ch_[0].ic2, r1 = ch_[1].ic1, r2 = ch_[1].ic2;
            for (int k = i; k < i + m; ++k) {
                const float wl = rng.bipolar(), wr = rng.bipolar();
                outL[k] = p.c1 * l1 + p.c2 * l2 + p.d * wl;
                outR[k] = q.c1 * r1 + q.c2 * r2 + q.d * wr;
                const float nl1 = p.a11 * l1 + p.a12 * l2 + p.b1 * wl;
                const float nl2 = p.a21 * l1 + p.a22 * l2 + p.b2 * wl;
                const float nr1 = q.a11 * r1 + q.a12 * r2 + q.b1 * wr;
                const float nr2 = q.a21 * r1 + q.a22 * r2 + q.b2 * wr;
                l1 = nl1;
                l2 = nl2;
                r1 = nr1;
                r2 = nr2;
            }
            rng_ = rng;
            ch_[0].ic1 = l1;
            ch_[0].ic2 = l2;
            ch_[1].ic1 = r1;
            ch_[1].ic2 = r2;
            counter_ += m;
            if (counter_ >= kControlFrames) counter_ = 0;
            i += m;
        }
    }

  private:
    // The TPT state-variable filter (SvfCoeffs a1, a2, a3) with the output (low + band / 2) x
    // level, as state x' = A x + B in, out = C x + D in.
    struct Matrix {
        float a11 = 1, a12 = 0, a21 = 0, a22 = 1, b1 = 0, b2 = 0, c1 = 0, c2 = 0, d = 0;
    };
    struct Channel {
        double phase = 0.0, inc = 0.0;
        float height = 0.5f, level = 0.0f;
        float ic1 = 0.0f, ic2 = 0.0f;
        Matrix m;
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
        SvfCoeffs k;
        k.set(sampleRate_, 250.0 + 2200.0 * swell * swell, 0.6);
        // v1 (band) = a1 ic1 + a2 (in - ic2), v2 (low) = ic2 + a2 ic1 + a3 (in - ic2);
        // ic1' = 2 v1 - ic1, ic2' = 2 v2 - ic2.
        Matrix& m = c.m;
        m.a11 = 2.0f * k.a1 - 1.0f;
        m.a12 = -2.0f * k.a2;
        m.b1 = 2.0f * k.a2;
        m.a21 = 2.0f * k.a2;
        m.a22 = 1.0f - 2.0f * k.a3;
        m.b2 = 2.0f * k.a3;
        m.c1 = (k.a2 + 0.5f * k.a1) * c.level;
        m.c2 = (1.0f - k.a3 - 0.5f * k.a2) * c.level;
        m.d = (k.a3 + 0.5f * k.a2) * c.level;
    }

    double sampleRate_ = 48000.0;
    std::uint64_t seed_ = 0;
    double swellSeconds_ = 9.0;
    Rng rng_;
    Channel ch_[2];
    int counter_ = 0;
};

}  // namespace boop::ambient
