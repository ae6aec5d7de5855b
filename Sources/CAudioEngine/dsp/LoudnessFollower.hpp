#pragma once
#include <cmath>

#include "dsp/LoudnessMeter.hpp"
#include "dsp/Lowpass.hpp"
#include "dsp/OnePole.hpp"
#include "rt/Realtime.hpp"

namespace boop {
namespace dsp {

// Keeps a generative piece at a target loudness without squashing it: the K-weighted loudness of
// the signal (before this gain) is followed in 100 ms blocks by an exponential average with a
// long time constant (10 s), gated as BS.1770 gates (blocks under -70 LUFS or 10 LU under the
// running estimate are ignored, so pauses and quiet passages do not pull the gain up), and the
// gain that brings the estimate to the target glides there over seconds. The music breathes; its
// average sits at the target. Start it with an estimate measured ahead (`setEstimate`) so the
// first minute is already right.
class LoudnessFollower {
  public:
    void prepare(double sampleRate, double targetLufs, double timeConstantSeconds = 10.0,
                 double glideSeconds = 2.0) noexcept {
        target_ = targetLufs;
        block_ = static_cast<unsigned>(std::lround(sampleRate * 0.1));
        alpha_ = 0.1 / timeConstantSeconds;
        glide_ = static_cast<float>(onePoleCoef(glideSeconds, sampleRate));
        for (auto& k : weighting_) k.prepare(sampleRate);
        sum_ = 0;
        filled_ = 0;
    }

    // The loudness the unscaled signal is expected to have (LUFS); sets the gain at once.
    void setEstimate(double lufs) noexcept {
        if (!std::isfinite(lufs)) return;
        estimate_ = lufs;
        wanted_ = gainFor(estimate_);
        gain_ = wanted_;
    }

    // One stereo frame of the signal before the gain, in steady state (not fading or paused).
    void measure(float l, float r) BOOP_RT {
        const double a = weighting_[0].process(l), b = weighting_[1].process(r);
        sum_ += a * a + b * b;
        if (++filled_ >= block_) endBlock();
    }

    // n frames at once: for each frame, measure it (when `measuring`) and then take next() into
    // gain[i] — the same values, in the same order, as the calls frame by frame. Both channels'
    // filters run side by side as the two lanes of one vector; the state stays in registers.
    void run(const float* l, const float* r, float* gain, int n, bool measuring) BOOP_RT {
        if (!measuring) {
            for (int i = 0; i < n; ++i) gain[i] = next();
            return;
        }
        typedef double d2 __attribute__((vector_size(16)));
        // Both channels' filters have the same coefficients.
        const KWeighting::Biquad &s = weighting_[0].shelf, &h = weighting_[0].highpass;
        d2 s1 = {weighting_[0].shelf.z1, weighting_[1].shelf.z1};
        d2 s2 = {weighting_[0].shelf.z2, weighting_[1].shelf.z2};
        d2 h1 = {weighting_[0].highpass.z1, weighting_[1].highpass.z1};
        d2 h2 = {weighting_[0].highpass.z2, weighting_[1].highpass.z2};
        float g = gain_, wanted = wanted_;
        const float glide = glide_;
        for (int i = 0; i < n; ++i) {
            const d2 x = {static_cast<double>(l[i]), static_cast<double>(r[i])};
            const d2 u = biquadStep(s, x, s1, s2);
            const d2 y = biquadStep(h, u, h1, h2);
            sum_ += y[0] * y[0] + y[1] * y[1];
            if (++filled_ >= block_) {
                endBlock();
                wanted = wanted_;
            }
            gain[i] = onePole(g, wanted, glide);
        }
        gain_ = g;
        weighting_[0].shelf.z1 = s1[0];
        weighting_[1].shelf.z1 = s1[1];
        weighting_[0].shelf.z2 = s2[0];
        weighting_[1].shelf.z2 = s2[1];
        weighting_[0].highpass.z1 = h1[0];
        weighting_[1].highpass.z1 = h1[1];
        weighting_[0].highpass.z2 = h2[0];
        weighting_[1].highpass.z2 = h2[1];
    }

    // The gain for the next frame.
    float next() BOOP_RT { return onePole(gain_, wanted_, glide_); }

    double estimate() const noexcept { return estimate_; }
    float gain() const noexcept { return gain_; }

  private:
    // A 100 ms block is complete: fold its loudness into the estimate.
    void endBlock() BOOP_RT {
        const double lufs = LoudnessMeter::loudnessOf(sum_ / block_);
        sum_ = 0;
        filled_ = 0;
        if (!std::isfinite(lufs) || lufs < -70.0) return;
        if (!std::isfinite(estimate_)) {
            estimate_ = lufs;
        } else {
            if (lufs < estimate_ - 10.0) return;
            // Average in power, as loudness is.
            const double e = std::pow(10.0, estimate_ / 10.0) * (1.0 - alpha_) + std::pow(10.0, lufs / 10.0) * alpha_;
            estimate_ = 10.0 * std::log10(e);
        }
        wanted_ = gainFor(estimate_);
    }

    float gainFor(double lufs) const BOOP_RT {
        // At most 24 dB down or 12 dB up: a near-silent passage is never blown up into noise.
        const double db = std::fmin(12.0, std::fmax(-24.0, target_ - lufs));
        return static_cast<float>(std::pow(10.0, db / 20.0));
    }

    double target_ = -18.0;
    unsigned block_ = 4410;
    double alpha_ = 0.005;
    float glide_ = 1e-5f;
    KWeighting weighting_[2];
    double sum_ = 0;
    unsigned filled_ = 0;
    double estimate_ = -HUGE_VAL;
    float wanted_ = 1.0f, gain_ = 1.0f;
};

}  // namespace dsp
}  // namespace boop
