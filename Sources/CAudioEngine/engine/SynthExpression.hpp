#pragma once
// What the live synth's expression controllers mean, in one place for both kinds of melodic
// voice: the palette's (SynthPalette, which owns a lowpass and a pitch ratio per channel) and the
// version-1 timbres an MPE member plays (the engine's voice banks, which share one filter per
// timbre and so take a member's CC 74 as the gain the palette's lowpass would give its note).
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "dsp/Svf.hpp"
#include "rt/Realtime.hpp"

namespace boop {

// The vibrato of CC 1 and pressure: a sine of pitch, kHz, +-kCents at full depth.
struct Vibrato {
    static constexpr double kHz = 5.5;
    static constexpr double kCents = 50.0;
    double depth = 0.0;  // 0 ... 1
    double phase = 0.0;  // in turns

    // The larger of modulation and pressure counts (0 ... 127 each).
    static double depthOf(uint8_t modulation, uint8_t pressure) BOOP_RT {
        return std::max(modulation, pressure) / 127.0;
    }
    // The pitch ratio at the current phase.
    double ratio() const BOOP_RT {
        const double cents = kCents * depth * std::sin(2.0 * 3.14159265358979323846 * phase);
        return std::exp2(cents / 1200.0);
    }
    void advance(int frames, double sampleRate) BOOP_RT {
        phase += kHz * frames / sampleRate;
        phase -= std::floor(phase);
    }
};

// CC 74: 20 x 1000^(value/127) Hz, 127 the top of the range (CAudioEngineSynth.h).
inline double cc74Cutoff(uint8_t value) BOOP_RT {
    return value == 127 ? 20000.0 : 20.0 * std::pow(1000.0, value / 127.0);
}

// The palette voice's default lowpass Q (InstrumentParams::resonance): Butterworth.
constexpr double kExpressionQ = 0.70710678118654752;

// The magnitude at `hz` of the palette's lowpass (dsp::SvfCoeffs, its clamps and the bypass at
// 0.45 x the rate that InstrumentBank applies): the TPT filter is the bilinear transform of
// 1 / (s^2 + k s + 1) with its cutoff prewarped, so at w = tan(pi hz / rate) / g it is
// 1 / sqrt((1 - w^2)^2 + (k w)^2).
inline double lowpassGain(double sampleRate, double cutoffHz, double q, double hz) BOOP_RT {
    if (!(cutoffHz < 0.45 * sampleRate) || !(hz > 0.0)) return 1.0;
    dsp::SvfCoeffs c;
    c.set(sampleRate, cutoffHz, q);
    const double w = std::tan(3.14159265358979323846 * std::min(hz, 0.49 * sampleRate) / sampleRate) / c.g;
    const double kw = static_cast<double>(c.k) * w;
    return 1.0 / std::sqrt((1.0 - w * w) * (1.0 - w * w) + kw * kw);
}

}  // namespace boop
