#pragma once
#include <cstdint>
#include "rt/Realtime.hpp"

namespace boop {
namespace dsp {

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

}  // namespace dsp
}  // namespace boop
