#include "dsp/DrumVoice.hpp"
#include <algorithm>
#include <cmath>

namespace boop {

DrumVoice::Kind DrumVoice::kindForKey(uint32_t key) noexcept {
    switch (key) {
        case 35:
        case 36:
            return Kind::Kick;
        case 37:
            return Kind::Rim;
        case 38:
        case 40:
            return Kind::Snare;
        case 39:
            return Kind::Clap;
        case 41:
        case 43:
        case 45:
        case 47:
        case 48:
        case 50:
            return Kind::Tom;
        case 42:
        case 44:
            return Kind::ClosedHat;
        case 46:
            return Kind::OpenHat;
        default:
            return key < 35 ? Kind::Kick : Kind::Cymbal;  // 49, 51 ... 81: crash/ride family
    }
}

double DrumVoice::decayFactor(double seconds) const noexcept {
    // Amplitude falls by 1/e every `seconds`.
    return std::exp(-1.0 / (seconds * sampleRate_));
}

void DrumVoice::trigger(uint32_t key, float gain, uint32_t seed, uint64_t order) BOOP_RT {
    kind_ = kindForKey(key);
    active_ = true;
    order_ = order;
    rng_ = seed * 2654435761u + 0x9e3779b9u;
    if (rng_ == 0) rng_ = 1;
    phase_ = 0.0;
    gain_ = gain;
    fadeGain_ = 1.0f;
    fadeStep_ = 0.0f;
    age_ = 0;
    clapSamples_ = 0;
    clapPeriod_ = 0;
    toneAmp_ = noiseAmp_ = 0.0f;
    sweepHz_ = sweep_ = 0.0;
    sweepDecay_ = 1.0;
    noiseHighpass_ = false;
    noiseFilter_.reset();
    switch (kind_) {
        case Kind::Kick:
            baseHz_ = 48.0;
            sweepHz_ = 110.0;
            sweepDecay_ = decayFactor(0.030);
            toneAmp_ = 1.0f;
            toneDecay_ = float(decayFactor(0.28));
            noiseAmp_ = 0.08f;
            noiseDecay_ = float(decayFactor(0.004));
            noiseFilter_.prepare(sampleRate_, 3000.0);
            break;
        case Kind::Snare:
            baseHz_ = 185.0;
            sweepHz_ = 40.0;
            sweepDecay_ = decayFactor(0.020);
            toneAmp_ = 0.45f;
            toneDecay_ = float(decayFactor(0.06));
            noiseAmp_ = 0.6f;
            noiseDecay_ = float(decayFactor(0.11));
            noiseFilter_.prepare(sampleRate_, 1500.0);
            noiseHighpass_ = true;
            break;
        case Kind::Rim:
            baseHz_ = 820.0;
            toneAmp_ = 0.5f;
            toneDecay_ = float(decayFactor(0.012));
            noiseAmp_ = 0.3f;
            noiseDecay_ = float(decayFactor(0.008));
            noiseFilter_.prepare(sampleRate_, 2500.0);
            noiseHighpass_ = true;
            break;
        case Kind::Clap:
            noiseAmp_ = 0.7f;
            noiseDecay_ = float(decayFactor(0.09));
            clapPeriod_ = static_cast<uint32_t>(0.011 * sampleRate_);
            noiseFilter_.prepare(sampleRate_, 1200.0);
            noiseHighpass_ = true;
            break;
        case Kind::Tom: {
            // Low tom 41 at ~80 Hz up to high tom 50 at ~190 Hz.
            const double lowKey = 41.0;
            baseHz_ = 80.0 * std::pow(2.0, (static_cast<double>(key) - lowKey) / 10.5);
            sweepHz_ = baseHz_ * 0.6;
            sweepDecay_ = decayFactor(0.04);
            toneAmp_ = 0.85f;
            toneDecay_ = float(decayFactor(0.22));
            break;
        }
        case Kind::ClosedHat:
            noiseAmp_ = 0.4f;
            noiseDecay_ = float(decayFactor(0.035));
            noiseFilter_.prepare(sampleRate_, std::min(7000.0, sampleRate_ * 0.4));
            noiseHighpass_ = true;
            break;
        case Kind::OpenHat:
            noiseAmp_ = 0.35f;
            noiseDecay_ = float(decayFactor(0.22));
            noiseFilter_.prepare(sampleRate_, std::min(7000.0, sampleRate_ * 0.4));
            noiseHighpass_ = true;
            break;
        case Kind::Cymbal:
            noiseAmp_ = 0.3f;
            noiseDecay_ = float(decayFactor(0.7));
            noiseFilter_.prepare(sampleRate_, std::min(5000.0, sampleRate_ * 0.4));
            noiseHighpass_ = true;
            break;
    }
    sweep_ = sweepHz_;
}

void DrumVoice::fade(double seconds) BOOP_RT {
    if (!active_) return;
    const float step = 1.0f / static_cast<float>(std::max(1.0, seconds * sampleRate_));
    if (step > fadeStep_) fadeStep_ = step;
}

float DrumVoice::process() BOOP_RT {
    if (!active_) return 0.0f;
    float out = 0.0f;
    if (toneAmp_ > 0.0f) {
        out += toneAmp_ * static_cast<float>(std::sin(6.283185307179586 * phase_));
        phase_ += (baseHz_ + sweep_) / sampleRate_;
        if (phase_ >= 1.0) phase_ -= 1.0;
        sweep_ *= sweepDecay_;
        toneAmp_ *= toneDecay_;
    }
    if (noiseAmp_ > 0.0f) {
        float n = noise();
        const float low = noiseFilter_.process(n);
        n = noiseHighpass_ ? n - low : low;  // complement of a lowpass: a gentle highpass
        float amp = noiseAmp_;
        if (clapPeriod_ != 0 && clapSamples_ < 3 * clapPeriod_) {
            // Three quick re-strikes before the tail: the smeared attack of several hands.
            amp *= 1.0f - static_cast<float>(clapSamples_ % clapPeriod_) / static_cast<float>(clapPeriod_);
            ++clapSamples_;
        }
        out += amp * n;
        noiseAmp_ *= noiseDecay_;
    }
    // A 1 ms ramp-in keeps the very first sample from stepping (the hit still reads as a hit).
    const uint32_t rampIn = static_cast<uint32_t>(0.001 * sampleRate_) + 1;
    if (age_ < rampIn) out *= static_cast<float>(age_) / static_cast<float>(rampIn);
    ++age_;
    if (fadeStep_ > 0.0f) {
        fadeGain_ -= fadeStep_;
        if (fadeGain_ <= 0.0f) {
            fadeGain_ = 0.0f;
            active_ = false;
        }
        out *= fadeGain_;
    }
    if (toneAmp_ < 1e-4f && noiseAmp_ < 1e-4f) active_ = false;  // -80 dB: inaudible, done
    return out * gain_;
}

}  // namespace boop
