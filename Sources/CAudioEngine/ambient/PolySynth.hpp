#pragma once
#include <cmath>
#include <cstdint>
#include "dsp/Rng.hpp"
#include "dsp/Svf.hpp"
#include "rt/Realtime.hpp"

namespace boop::ambient {

// polyBLEP residual for a unit-height step at phase t (0..1) with increment dt: subtracting it
// from a naive saw rounds off the discontinuity, removing most of the aliasing for a few flops.
inline float polyBlep(float t, float dt) BOOP_RT {
    if (t < dt) {
        t /= dt;
        return t + t - t * t - 1.0f;
    }
    if (t > 1.0f - dt) {
        t = (t - 1.0f) / dt;
        return t * t + t + t + 1.0f;
    }
    return 0.0f;
}

// The pad: six voices, each three polyBLEP saws (centre, +detune panned right, -detune panned
// left) into a stereo TPT state-variable lowpass whose cutoff the composer moves slowly.
// Envelopes are linear attack / exponential release, slow by design (seconds).
class PolySynth {
  public:
    static constexpr int kVoices = 6;
    static constexpr int kOscs = 3;

    void prepare(double sampleRate, std::uint64_t seed) noexcept {
        sampleRate_ = sampleRate;
        seed_ = seed;
        setAttack(attackSeconds_);
        setRelease(releaseSeconds_);
        setFilter(cutoffHz_, q_);
        reset();
    }

    void reset() BOOP_RT {
        Rng rng(seed_, kStreamPad);
        for (auto& v : voices_) {
            v = Voice{};
            for (auto& p : v.phase) p = rng.uniform();
        }
        ageCounter_ = 0;
    }

    void setDetuneCents(float cents) BOOP_RT { detuneCents_ = cents < 0.0f ? 0.0f : (cents > 100.0f ? 100.0f : cents); }
    void setAttack(double seconds) BOOP_RT {
        attackSeconds_ = seconds < 0.001 ? 0.001 : seconds;
        attackStep_ = static_cast<float>(1.0 / (attackSeconds_ * sampleRate_));
    }
    // Time to fall by 60 dB.
    void setRelease(double seconds) BOOP_RT {
        releaseSeconds_ = seconds < 0.005 ? 0.005 : seconds;
        releaseCoef_ = static_cast<float>(std::exp(std::log(0.001) / (releaseSeconds_ * sampleRate_)));
    }
    // Control rate: shared by every voice.
    void setFilter(double cutoffHz, double q) BOOP_RT {
        cutoffHz_ = cutoffHz;
        q_ = q;
        coeffs_.set(sampleRate_, cutoffHz, q);
    }

    // Starts a note on the quietest released voice (or the quietest voice at all), keeping its
    // oscillator phases and current envelope level so a reused voice never clicks.
    int noteOn(double frequencyHz, float gain) BOOP_RT {
        int best = 0;
        float bestScore = 1e30f;
        for (int i = 0; i < kVoices; ++i) {
            const Voice& v = voices_[i];
            // Prefer released voices, then the quietest, then the oldest.
            const float score = (v.gate ? 10.0f : 0.0f) + v.env + static_cast<float>(v.age) * 1e-9f;
            if (score < bestScore) {
                bestScore = score;
                best = i;
            }
        }
        Voice& v = voices_[best];
        const double nyq = 0.45 * sampleRate_;
        if (frequencyHz > nyq) frequencyHz = nyq;
        if (frequencyHz < 1.0) frequencyHz = 1.0;
        v.frequency = frequencyHz;
        v.gate = true;
        v.active = true;
        v.gain = gain;
        v.age = ageCounter_++;
        updateIncrements(v);
        return best;
    }

    void releaseAll() BOOP_RT {
        for (auto& v : voices_) v.gate = false;
    }

    // Recomputes increments after a detune change (control rate).
    void refreshTuning() BOOP_RT {
        for (auto& v : voices_)
            if (v.active) updateIncrements(v);
    }

    int activeVoices() const BOOP_RT {
        int n = 0;
        for (const auto& v : voices_) n += v.active ? 1 : 0;
        return n;
    }

    // Writes n stereo samples (overwrites outL/outR).
    void process(float* outL, float* outR, int n) BOOP_RT {
        for (int i = 0; i < n; ++i) outL[i] = outR[i] = 0.0f;
        for (auto& v : voices_) {
            if (!v.active) continue;
            for (int i = 0; i < n; ++i) {
                if (v.gate) {
                    v.env += attackStep_;
                    if (v.env > 1.0f) v.env = 1.0f;
                } else {
                    v.env *= releaseCoef_;
                }
                float s[kOscs];
                for (int o = 0; o < kOscs; ++o) {
                    const float dt = v.inc[o];
                    float t = v.phase[o];
                    s[o] = 2.0f * t - 1.0f - polyBlep(t, dt);
                    t += dt;
                    if (t >= 1.0f) t -= 1.0f;
                    v.phase[o] = t;
                }
                const float a = v.env * v.gain;
                const float l = (0.6f * s[0] + 0.9f * s[2] + 0.3f * s[1]) * a;
                const float r = (0.6f * s[0] + 0.9f * s[1] + 0.3f * s[2]) * a;
                outL[i] += v.fl.lowpass(coeffs_, l);
                outR[i] += v.fr.lowpass(coeffs_, r);
                // Checked per sample, not per call, so the output never depends on block sizes.
                if (!v.gate && v.env < 1e-5f) {
                    v.active = false;
                    v.env = 0.0f;
                    v.fl.reset();
                    v.fr.reset();
                    break;
                }
            }
        }
    }

  private:
    struct Voice {
        float phase[kOscs] = {0.0f, 0.0f, 0.0f};
        float inc[kOscs] = {0.0f, 0.0f, 0.0f};
        double frequency = 0.0;
        float env = 0.0f;
        float gain = 0.0f;
        bool gate = false;
        bool active = false;
        std::uint64_t age = 0;
        SvfState fl, fr;
    };

    void updateIncrements(Voice& v) BOOP_RT {
        const double ratio = std::exp2(static_cast<double>(detuneCents_) / 1200.0);
        const double f[kOscs] = {v.frequency, v.frequency * ratio, v.frequency / ratio};
        for (int o = 0; o < kOscs; ++o) v.inc[o] = static_cast<float>(f[o] / sampleRate_);
    }

    double sampleRate_ = 48000.0;
    std::uint64_t seed_ = 0;
    double attackSeconds_ = 2.0, releaseSeconds_ = 4.0;
    float attackStep_ = 0.0f, releaseCoef_ = 0.999f;
    float detuneCents_ = 8.0f;
    double cutoffHz_ = 1200.0, q_ = 0.707;
    SvfCoeffs coeffs_;
    Voice voices_[kVoices];
    std::uint64_t ageCounter_ = 0;
};

}  // namespace boop::ambient
