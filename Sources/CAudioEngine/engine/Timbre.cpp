#include "engine/Timbre.hpp"
#include "include/CAudioEngine.h"

namespace boop {

namespace {
const TimbreSpec kTimbres[BOOP_TIMBRE_COUNT] = {
    // Melody, exactly the original design: sine, 2 kHz Butterworth lowpass, 10 ms linear attack,
    // release min(gate * 0.3, 0.15 s), unit level so velocity gains are the spec's numbers.
    {Waveform::Sine, true, 2000.0, 0.70710678118654752, 0.010, 0.3, 0.15, false, 1.0f},
    // Chords: a soft triangle pad — odd harmonics falling at 12 dB/octave, dulled further by a
    // 2.5 kHz lowpass; slow 40 ms swell and a longer release so chords overlap smoothly. Lower
    // level because three or four notes sound together.
    {Waveform::Triangle, true, 2500.0, 0.70710678118654752, 0.040, 0.5, 0.30, false, 0.45f},
    // Bass: band-limited (polyBLEP) saw through a slightly resonant 900 Hz lowpass, quick
    // 5 ms attack for punch, short release.
    {Waveform::Saw, true, 900.0, 1.1, 0.005, 0.3, 0.10, false, 0.7f},
    // Tone (ear training): pure sine, no filter, 8 ms raised-cosine attack and release:
    // the shape has zero slope at both ends, so onsets and endings carry no click energy.
    {Waveform::Sine, false, 0.0, 0.0, 0.008, 1.0, 0.008, true, 1.0f},
};
}  // namespace

const TimbreSpec& timbreSpec(int timbre) noexcept { return kTimbres[timbre]; }

}  // namespace boop
