#pragma once
#include <cmath>
#include <cstdint>
#include "dsp/Rng.hpp"
#include "dsp/Svf.hpp"
#include "rt/Realtime.hpp"

namespace boop::dsp {

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
        rng_.seedWith(seed_, dsp::kStreamOcean);
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
    // state-space form (SvfStateSpace: the same filter as SvfState::process, rearranged), so a
    // frame's critical path is one multiply-add deep instead of the TPT form's chain of four.
    void process(float* outL, float* outR, int n) BOOP_RT {
        for (int i = 0; i < n;) {
            Run r;
            const int m = beginRun(n - i, r);
            for (int k = i; k < i + m; ++k) step(r, outL[k], outR[k]);
            endRun(r, m);
            i += m;
        }
    }

    // process() in parts, for a caller that steps the ocean frame by frame beside other work (so
    // the two recursions overlap): beginRun gives the frames up to the next control tick (at most
    // n) and the state in `r`, step makes one frame, endRun keeps the state. The same samples.
    struct Run {
        dsp::Rng rng;
        dsp::SvfStateSpace p, q;
        float l1, l2, r1, r2;
    };
    int beginRun(int n, Run& r) BOOP_RT {
        if (counter_ == 0) {
            for (auto& c : ch_) advanceSwell(c);
        }
        r.rng = rng_;
        r.p = ch_[0].m;
        r.q = ch_[1].m;
        r.l1 = ch_[0].ic1;
        r.l2 = ch_[0].ic2;
        r.r1 = ch_[1].ic1;
        r.r2 = ch_[1].ic2;
        return kControlFrames - counter_ < n ? kControlFrames - counter_ : n;
    }
    static BOOP_SIMD_INLINE void step(Run& r, float& left, float& right) noexcept {
        const float wl = r.rng.bipolar(), wr = r.rng.bipolar();
        left = r.p.process(r.l1, r.l2, wl);
        right = r.q.process(r.r1, r.r2, wr);
    }
    void endRun(const Run& r, int m) BOOP_RT {
        rng_ = r.rng;
        ch_[0].ic1 = r.l1;
        ch_[0].ic2 = r.l2;
        ch_[1].ic1 = r.r1;
        ch_[1].ic2 = r.r2;
        counter_ += m;
        if (counter_ >= kControlFrames) counter_ = 0;
    }

  private:
    struct Channel {
        double phase = 0.0, inc = 0.0;
        float height = 0.5f, level = 0.0f;
        float ic1 = 0.0f, ic2 = 0.0f;
        dsp::SvfStateSpace m;  // the lowpass, heard as (low + band / 2) x level
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
        dsp::SvfCoeffs k;
        k.set(sampleRate_, 250.0 + 2200.0 * swell * swell, 0.6);
        c.m = dsp::SvfStateSpace::of(k, 0.5f, c.level);
    }

    double sampleRate_ = 48000.0;
    std::uint64_t seed_ = 0;
    double swellSeconds_ = 9.0;
    dsp::Rng rng_;
    Channel ch_[2];
    int counter_ = 0;
};

}  // namespace boop::dsp
