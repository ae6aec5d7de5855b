#pragma once

namespace boop {

enum class Waveform { Sine, Triangle, Saw };

// Everything that distinguishes one track's voice from another. Values live in Timbre.cpp,
// where each is explained; the README documents them for users.
struct TimbreSpec {
    Waveform waveform;
    bool filtered;  // through a per-voice 2-pole lowpass
    double cutoffHz;
    double q;
    double attackSeconds;        // linear
    double releaseGateFraction;  // release = min(gate * fraction, releaseMaxSeconds)
    double releaseMaxSeconds;
    bool raisedCosineEdges;  // smoothstep the envelope: zero slope at both ends, no click
    float level;             // balance between tracks, before velocity and master gain
};

// Indexed by boop_timbre.
const TimbreSpec& timbreSpec(int timbre) noexcept;

}  // namespace boop
