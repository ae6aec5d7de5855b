#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include "dsp/DrumNoise.hpp"
#include "dsp/DrumRecipe.hpp"
#include "dsp/Lowpass.hpp"
#include "dsp/Rng.hpp"
#include "rt/Realtime.hpp"

namespace boop::reference {

using dsp::DrumNoiseTables;
using dsp::DrumRecipe;
using dsp::Lowpass;
using dsp::Rng;

// One drum hit rendered plainly, one sample at a time, in double-precision phase: the reference
// definition of the drum sounds. The engine plays them through DrumBank, eight at a time in
// vector form, and the tests hold the two together.
struct DrumVoice {
    using Kind = DrumRecipe::Kind;
    static Kind kindForKey(uint32_t key) noexcept { return DrumRecipe::kindForKey(key); }

    void prepare(double sampleRate) noexcept { sampleRate_ = sampleRate; }
    void reset() noexcept { active_ = false; }
    // Noise read from the engine's prepared tables (see DrumNoiseTables) instead of generated and
    // filtered per hit: the same definition, with what the engine's DrumBank hears. nullptr
    // (the default) generates it.
    void useNoiseTables(const DrumNoiseTables* tables) noexcept { tables_ = tables; }
    // seed makes the noise of each hit repeatable (same pattern, same bytes).
    void trigger(uint32_t key, float gain, uint32_t seed, uint64_t order) BOOP_RT {
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
    void fade(double seconds) BOOP_RT {
        if (!active_) return;
        const float step = 1.0f / static_cast<float>(std::max(1.0, seconds * sampleRate_));
        if (step > fadeStep_) fadeStep_ = step;
    }
    bool isActive() const noexcept { return active_; }
    uint64_t order() const noexcept { return order_; }

    float process() BOOP_RT {
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

  private:
    float noise() BOOP_RT { return Rng::xorshift32(rng_); }
    double sampleRate_ = 44100.0;
    bool active_ = false;
    Kind kind_ = Kind::Kick;
    uint64_t order_ = 0;
    uint32_t rng_ = 1;
    double phase_ = 0.0;  // turns
    double baseHz_ = 50.0, sweepHz_ = 0.0, sweep_ = 0.0, sweepDecay_ = 0.0;
    float toneAmp_ = 0.0f, toneDecay_ = 0.0f;
    float noiseAmp_ = 0.0f, noiseDecay_ = 0.0f;
    float gain_ = 1.0f;
    float fadeGain_ = 1.0f, fadeStep_ = 0.0f;
    uint32_t clapSamples_ = 0, clapPeriod_ = 0, age_ = 0, rampIn_ = 1;
    Lowpass noiseFilter_;  // coefficients chosen per kind (band/high-pass through lowpass complement)
    bool noiseHighpass_ = false;
    const DrumNoiseTables* tables_ = nullptr;
    const float* noiseTable_ = nullptr;
    uint32_t noiseStart_ = 0, noiseMask_ = 0;
};

}  // namespace boop::reference
