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

}  // namespace boop::ambient
