#include "dsp/DrumVoice.hpp"
#include <algorithm>
#include <cmath>
#include "dsp/DrumNoise.hpp"

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

namespace {

// Each kind's recipe, in seconds and hertz: decay times are 1/e times; 0 means "no such part".
struct KindRecipe {
    double baseHz, sweepHz, sweepSeconds;
    float toneAmp;
    double toneSeconds;
    float noiseAmp;
    double noiseSeconds, cutoffHz;
    bool highpass;
    double clapSeconds;  // between a clap's re-strikes
};

constexpr KindRecipe kKinds[] = {
    /* Kick      */ {48.0, 110.0, 0.030, 1.0f, 0.28, 0.08f, 0.004, 3000.0, false, 0.0},
    /* Snare     */ {185.0, 40.0, 0.020, 0.45f, 0.06, 0.6f, 0.11, 1500.0, true, 0.0},
    /* Rim       */ {820.0, 0.0, 0.0, 0.5f, 0.012, 0.3f, 0.008, 2500.0, true, 0.0},
    /* Clap      */ {50.0, 0.0, 0.0, 0.0f, 0.0, 0.7f, 0.09, 1200.0, true, 0.011},
    /* Tom       */ {80.0, 0.0, 0.04, 0.85f, 0.22, 0.0f, 0.0, 2000.0, false, 0.0},  // pitch set per key
    /* ClosedHat */ {50.0, 0.0, 0.0, 0.0f, 0.0, 0.4f, 0.035, 7000.0, true, 0.0},
    /* OpenHat   */ {50.0, 0.0, 0.0, 0.0f, 0.0, 0.35f, 0.22, 7000.0, true, 0.0},
    /* Cymbal    */ {50.0, 0.0, 0.0, 0.0f, 0.0, 0.3f, 0.7, 5000.0, true, 0.0},
};

}  // namespace

DrumRecipe DrumRecipe::forKey(uint32_t key, double rate) BOOP_RT {
    // Amplitude falls by 1/e every `seconds`.
    auto decay = [rate](double seconds) { return seconds > 0.0 ? std::exp(-1.0 / (seconds * rate)) : 1.0; };
    DrumRecipe r;
    r.kind = kindForKey(key);
    const KindRecipe& k = kKinds[static_cast<int>(r.kind)];
    r.rampInFrames = static_cast<uint32_t>(0.001 * rate) + 1;
    r.baseHz = k.baseHz;
    r.sweepHz = k.sweepHz;
    if (r.kind == Kind::Tom) {
        // Low tom 41 at ~80 Hz up to high tom 50 at ~190 Hz, each swept down from 1.6 times its pitch.
        r.baseHz = k.baseHz * std::pow(2.0, (static_cast<double>(key) - 41.0) / 10.5);
        r.sweepHz = r.baseHz * 0.6;
    }
    r.sweepDecay = decay(k.sweepSeconds);
    r.toneAmp = k.toneAmp;
    r.toneDecay = k.toneAmp > 0.0f ? float(decay(k.toneSeconds)) : 0.0f;
    r.noiseAmp = k.noiseAmp;
    r.noiseDecay = k.noiseAmp > 0.0f ? float(decay(k.noiseSeconds)) : 0.0f;
    // Kept under 0.4 of the rate, so the filter stays well-conditioned at low rates.
    r.noiseCutoffHz = std::min(k.cutoffHz, rate * 0.4);
    r.noiseHighpass = k.highpass;
    r.clapPeriod = static_cast<uint32_t>(k.clapSeconds * rate);
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
    noiseTable_ = tables_ != nullptr ? tables_->table(kind_) : nullptr;
    if (noiseTable_ != nullptr) {
        noiseStart_ = tables_->start(seed);
        noiseMask_ = tables_->mask();
    }
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
        float n;
        if (noiseTable_ != nullptr) {
            n = noiseTable_[(noiseStart_ + age_) & noiseMask_];
        } else {
            n = noise();
            const float low = noiseFilter_.process(n);
            n = noiseHighpass_ ? n - low : low;  // complement of a lowpass: a gentle highpass
        }
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
