#pragma once
#include <cmath>
#include "dsp/SimdTypes.hpp"
#include "dsp/Svf.hpp"
#include "rt/Realtime.hpp"

namespace boop::ambient {

// A two-operator FM (phase-modulation) voice: a sine modulator at ratio x f drives a sine carrier
// at f. One percussive envelope (linear attack, exponential decay) shapes both the level and the
// modulation index, so notes start bright and mellow as they fade: the bell/pluck of the lead.
// Monophonic; a new note starts from the current level so retriggers never click.
class FmLead {
  public:
    void prepare(double sampleRate) noexcept {
        sampleRate_ = sampleRate;
        // A gentle lowpass takes the glassy edge (and any fold-over) off the top sidebands.
        toneCoeffs_.set(sampleRate, 7000.0, 0.6);
        setEnvelope(attackSeconds_, decaySeconds_);
        reset();
    }
    void reset() BOOP_RT {
        carrierPhase_ = modPhase_ = 0.0;
        env_ = 0.0f;
        peak_ = 0.0f;
        attacking_ = false;
        active_ = false;
        tone_.reset();
    }

    void setRatio(double ratio) BOOP_RT {
        ratio_ = ratio < 0.0 ? 0.0 : ratio;
        updateIncrements();
    }
    void setIndex(float index) BOOP_RT {
        index_ = index < 0.0f ? 0.0f : (index > 20.0f ? 20.0f : index);
        updateIncrements();
    }
    // decaySeconds: time to fall 60 dB after the attack.
    void setEnvelope(double attackSeconds, double decaySeconds) BOOP_RT {
        attackSeconds_ = attackSeconds < 0.0005 ? 0.0005 : attackSeconds;
        decaySeconds_ = decaySeconds < 0.01 ? 0.01 : decaySeconds;
        attackFrames_ = static_cast<float>(attackSeconds_ * sampleRate_);
        decayCoef_ = static_cast<float>(std::exp(std::log(0.001) / (decaySeconds_ * sampleRate_)));
    }

    void noteOn(double frequencyHz, float velocity) BOOP_RT {
        const double nyq = 0.45 * sampleRate_;
        frequency_ = frequencyHz < 1.0 ? 1.0 : (frequencyHz > nyq ? nyq : frequencyHz);
        updateIncrements();
        peak_ = velocity < 0.0f ? 0.0f : (velocity > 1.0f ? 1.0f : velocity);
        attackStep_ = (peak_ - env_) / attackFrames_;
        if (attackStep_ < 0.0f) attackStep_ = 0.0f;
        attacking_ = attackStep_ > 0.0f;
        active_ = true;
    }

    bool active() const BOOP_RT { return active_; }
    float level() const BOOP_RT { return env_; }

    void process(float* out, int n) BOOP_RT {
        if (!active_) {
            for (int i = 0; i < n; ++i) out[i] = 0.0f;
            return;
        }
        constexpr double kTwoPi = 6.283185307179586476925;
        for (int i = 0; i < n; ++i) {
            if (attacking_) {
                env_ += attackStep_;
                if (env_ >= peak_) {
                    env_ = peak_;
                    attacking_ = false;
                }
            } else {
                env_ *= decayCoef_;
            }
            const float mod = sine(modPhase_);
            const float idx = indexTracked_ * (0.25f + 0.75f * env_);
            const float raw = env_ * sine(carrierPhase_ + static_cast<double>(idx * mod) * (1.0 / kTwoPi));
            out[i] = tone_.lowpass(toneCoeffs_, raw);
            carrierPhase_ += carrierInc_;
            if (carrierPhase_ >= 1.0) carrierPhase_ -= 1.0;
            modPhase_ += modInc_;
            if (modPhase_ >= 1.0) modPhase_ -= static_cast<double>(static_cast<long>(modPhase_));
            // Per sample, not per call, so the output never depends on block sizes.
            if (!attacking_ && env_ < 1e-5f) {
                env_ = 0.0f;
                active_ = false;
                for (int j = i + 1; j < n; ++j) out[j] = 0.0f;
                break;
            }
        }
    }

  private:
    // sin(2 pi turns) through the engine's polynomial (error 5e-8): two std::sin calls a sample
    // were a seventh of an ambient render. The phase is reduced in double, where it lives.
    static float sine(double turns) BOOP_RT {
        const double reduced = turns - std::floor(turns + 0.5);  // [-0.5, 0.5)
        simd::f4 x = {static_cast<float>(reduced), 0.0f, 0.0f, 0.0f};
        return simd::sinTurns(x)[0];
    }

    void updateIncrements() BOOP_RT {
        // Key tracking: high notes get a smaller index, as acoustic bells and pianos get duller
        // relative to their pitch; it also keeps the upper sidebands below Nyquist.
        double track = std::sqrt(400.0 / (frequency_ > 1.0 ? frequency_ : 1.0));
        if (track > 1.0) track = 1.0;
        if (track < 0.2) track = 0.2;
        indexTracked_ = index_ * static_cast<float>(track);
        carrierInc_ = frequency_ / sampleRate_;
        double m = frequency_ * ratio_ / sampleRate_;
        if (m > 0.45) m = 0.45;  // keep the modulator below Nyquist at any ratio
        modInc_ = m;
    }

    double sampleRate_ = 48000.0;
    double frequency_ = 440.0, ratio_ = 2.0;
    double carrierPhase_ = 0.0, modPhase_ = 0.0, carrierInc_ = 0.0, modInc_ = 0.0;
    float index_ = 2.0f, indexTracked_ = 2.0f;
    double attackSeconds_ = 0.005, decaySeconds_ = 1.5;
    float attackFrames_ = 240.0f, attackStep_ = 0.0f, decayCoef_ = 0.999f;
    float env_ = 0.0f, peak_ = 0.0f;
    bool attacking_ = false, active_ = false;
    SvfCoeffs toneCoeffs_;
    SvfState tone_;
};

}  // namespace boop::ambient
