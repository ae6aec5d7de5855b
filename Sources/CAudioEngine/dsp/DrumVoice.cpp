#include "dsp/DrumVoice.hpp"
#include <algorithm>
#include <cmath>

namespace boop {

DrumRecipe::Kind DrumRecipe::kindForKey(uint32_t key) BOOP_RT {
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

DrumRecipe DrumRecipe::forKey(uint32_t key, double rate) BOOP_RT {
    // Amplitude falls by 1/e every `seconds`.
    auto decay = [rate](double seconds) { return std::exp(-1.0 / (seconds * rate)); };
    DrumRecipe r;
    r.kind = kindForKey(key);
    r.rampInFrames = static_cast<uint32_t>(0.001 * rate) + 1;
    switch (r.kind) {
        case Kind::Kick:
            r.baseHz = 48.0;
            r.sweepHz = 110.0;
            r.sweepDecay = decay(0.030);
            r.toneAmp = 1.0f;
            r.toneDecay = float(decay(0.28));
            r.noiseAmp = 0.08f;
            r.noiseDecay = float(decay(0.004));
            r.noiseCutoffHz = 3000.0;
            break;
        case Kind::Snare:
            r.baseHz = 185.0;
            r.sweepHz = 40.0;
            r.sweepDecay = decay(0.020);
            r.toneAmp = 0.45f;
            r.toneDecay = float(decay(0.06));
            r.noiseAmp = 0.6f;
            r.noiseDecay = float(decay(0.11));
            r.noiseCutoffHz = 1500.0;
            r.noiseHighpass = true;
            break;
        case Kind::Rim:
            r.baseHz = 820.0;
            r.toneAmp = 0.5f;
            r.toneDecay = float(decay(0.012));
            r.noiseAmp = 0.3f;
            r.noiseDecay = float(decay(0.008));
            r.noiseCutoffHz = 2500.0;
            r.noiseHighpass = true;
            break;
        case Kind::Clap:
            r.noiseAmp = 0.7f;
            r.noiseDecay = float(decay(0.09));
            r.clapPeriod = static_cast<uint32_t>(0.011 * rate);
            r.noiseCutoffHz = 1200.0;
            r.noiseHighpass = true;
            break;
        case Kind::Tom: {
            // Low tom 41 at ~80 Hz up to high tom 50 at ~190 Hz.
            const double lowKey = 41.0;
            r.baseHz = 80.0 * std::pow(2.0, (static_cast<double>(key) - lowKey) / 10.5);
            r.sweepHz = r.baseHz * 0.6;
            r.sweepDecay = decay(0.04);
            r.toneAmp = 0.85f;
            r.toneDecay = float(decay(0.22));
            break;
        }
        case Kind::ClosedHat:
            r.noiseAmp = 0.4f;
            r.noiseDecay = float(decay(0.035));
            r.noiseCutoffHz = std::min(7000.0, rate * 0.4);
            r.noiseHighpass = true;
            break;
        case Kind::OpenHat:
            r.noiseAmp = 0.35f;
            r.noiseDecay = float(decay(0.22));
            r.noiseCutoffHz = std::min(7000.0, rate * 0.4);
            r.noiseHighpass = true;
            break;
        case Kind::Cymbal:
            r.noiseAmp = 0.3f;
            r.noiseDecay = float(decay(0.7));
            r.noiseCutoffHz = std::min(5000.0, rate * 0.4);
            r.noiseHighpass = true;
            break;
    }
    return r;
}

void DrumVoice::trigger(uint32_t key, float gain, uint32_t seed, uint64_t order) BOOP_RT {
    const DrumRecipe r = DrumRecipe::forKey(key, sampleRate_);
    kind_ = r.kind;
    active_ = true;
    order_ = order;
    rng_ = seed * 2654435761u + 0x9e3779b9u;
    if (rng_ == 0) rng_ = 1;
    phase_ = 0.0;
    gain_ = gain;
    fadeGain_ = 1.0f;
    fadeStep_ = 0.0f;
    age_ = 0;
    rampIn_ = r.rampInFrames;
    clapSamples_ = 0;
    clapPeriod_ = r.clapPeriod;
    baseHz_ = r.baseHz;
    sweepHz_ = sweep_ = r.sweepHz;
    sweepDecay_ = r.sweepDecay;
    toneAmp_ = r.toneAmp;
    toneDecay_ = r.toneDecay;
    noiseAmp_ = r.noiseAmp;
    noiseDecay_ = r.noiseDecay;
    noiseHighpass_ = r.noiseHighpass;
    noiseFilter_.prepare(sampleRate_, r.noiseCutoffHz);
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
    if (age_ < rampIn_) out *= static_cast<float>(age_) / static_cast<float>(rampIn_);
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
