#pragma once
#include <cstdint>
#include "dsp/Lowpass.hpp"
#include "rt/Realtime.hpp"

namespace boop {

// One synthesized drum hit for General MIDI keys 35 ... 81. Each kind is a tiny recipe of a
// swept sine and/or filtered noise with exponential decays (classic analogue drum-machine
// structure), so it costs a handful of operations per sample and needs no samples on disk.
struct DrumVoice {
    enum class Kind : uint8_t { Kick, Snare, Rim, Clap, Tom, ClosedHat, OpenHat, Cymbal };

    static Kind kindForKey(uint32_t key) noexcept;

    void prepare(double sampleRate) noexcept { sampleRate_ = sampleRate; }
    void reset() noexcept { active_ = false; }
    // seed makes the noise of each hit repeatable (same pattern, same bytes).
    void trigger(uint32_t key, float gain, uint32_t seed, uint64_t order) BOOP_RT;
    void fade(double seconds) BOOP_RT;
    bool isActive() const noexcept { return active_; }
    uint64_t order() const noexcept { return order_; }

    float process() BOOP_RT;

  private:
    float noise() BOOP_RT {
        rng_ ^= rng_ << 13;
        rng_ ^= rng_ >> 17;
        rng_ ^= rng_ << 5;
        return static_cast<float>(static_cast<int32_t>(rng_)) * (1.0f / 2147483648.0f);
    }
    double decayFactor(double seconds) const noexcept;

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
    uint32_t clapSamples_ = 0, clapPeriod_ = 0, age_ = 0;
    Lowpass noiseFilter_;  // coefficients chosen per kind (band/high-pass through lowpass complement)
    bool noiseHighpass_ = false;
};

}  // namespace boop
