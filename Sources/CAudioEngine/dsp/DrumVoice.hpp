#pragma once
#include <cstdint>
#include "dsp/Lowpass.hpp"
#include "rt/Realtime.hpp"

namespace boop {

// The sound of one General MIDI drum key (35 ... 81): a tiny recipe of a swept sine and/or
// filtered noise with exponential decays (classic analogue drum-machine structure), so a hit
// costs a handful of operations per sample and needs no samples on disk. Decays are per-sample
// factors at the given rate.
struct DrumRecipe {
    enum class Kind : uint8_t { Kick, Snare, Rim, Clap, Tom, ClosedHat, OpenHat, Cymbal };

    static Kind kindForKey(uint32_t key) BOOP_RT;
    static DrumRecipe forKey(uint32_t key, double sampleRate) BOOP_RT;

    Kind kind = Kind::Kick;
    double baseHz = 50.0;  // the tone's resting pitch
    double sweepHz = 0.0;  // added at the strike, decaying by sweepDecay per sample
    double sweepDecay = 1.0;
    float toneAmp = 0.0f, toneDecay = 0.0f;
    float noiseAmp = 0.0f, noiseDecay = 0.0f;
    double noiseCutoffHz = 2000.0;
    bool noiseHighpass = false;  // complement of the lowpass: a gentle highpass
    uint32_t clapPeriod = 0;     // samples between a clap's three re-strikes; 0 for other kinds
    uint32_t rampInFrames = 1;   // a 1 ms ramp-in keeps the first sample from stepping
};

// One drum hit rendered plainly, one sample at a time, in double-precision phase: the reference
// definition of the drum sounds. The engine plays them through DrumBank, eight at a time in
// vector form, and the tests hold the two together.
class DrumNoiseTables;

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

}  // namespace boop
