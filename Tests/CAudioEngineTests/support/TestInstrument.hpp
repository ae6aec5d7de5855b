#pragma once
// A plain instrument for the tests: the song file's defaults (width 0.5, a 5 ms attack, no decay,
// full sustain, 0.1 s release, the filter open, centred), on the voice given.
#include "include/CAudioEngine.h"

inline boop_instrument plainInstrument(boop_instrument_voice voice = BOOP_VOICE_SINE) {
    boop_instrument i{};
    i.voice = voice;
    i.width = 0.5;
    i.attack = 0.005;
    i.decay = 0.0;
    i.sustain = 1.0;
    i.release = 0.1;
    i.cutoff = 20000.0;
    i.resonance = 0.7071;
    i.pan = 0.0;
    return i;
}
