#pragma once
#include <cstdint>
#include "dsp/GroupSvf.hpp"
#include "dsp/SimdTypes.hpp"
#include "engine/Palette.hpp"
#include "rt/Realtime.hpp"

namespace boop {

// One voice's sound before its envelope: the oscillator (or Karplus-Strong string) through the
// track's lowpass. It depends only on the note's start and the track's settings, never on an
// event inside a note, so it is made ahead, in groups of eight frames counted from the note's
// start, with the frames as the eight lanes of a vector: no frame-to-frame recursion is left
// but the one from group to group (the filter, the string's allpass and the FM decay are
// carried across a group in closed form). The envelope multiplies it frame by frame afterwards.
struct ToneState {
    uint32_t phase = 0, increment = 0;    // the fundamental, in 2^-32 turns
    uint32_t phase2 = 0, increment2 = 0;  // FM's modulator, the pad's octave
    float dt = 0.0f, invDt = 0.0f;        // the increment in turns and its inverse (polyBLEP)
    float dt2 = 0.0f, invDt2 = 0.0f;
    float modIndex = 0.0f;       // FM: the modulation depth in turns at the group's first frame
    float s1 = 0.0f, s2 = 0.0f;  // the lowpass's state before the group
    // Karplus-Strong: the string's delay line, its length and place, and the loop filters.
    float* line = nullptr;
    int length = 0, pos = 0;
    float last = 0.0f, apIn = 0.0f, apOut = 0.0f, apCoeff = 0.0f;
};

// The track's numbers every voice's group uses, computed in double when a setting changes.
struct alignas(32) ToneShared {
    dsp::GroupSvf filter;   // the track's lowpass over a group of eight frames
    dsp::simd::f8 fmPow{};  // fmDecay^k
    float fmPow8 = 1.0f;
    uint32_t widthShift = 0x80000000u;  // the pulse width as a phase offset

    void setFilter(const dsp::SvfStateSpace& m) BOOP_RT { filter.set(m); }
    void setFmDecay(double perFrame) BOOP_RT;
};

// Frames a kernel call makes: four groups of eight, so that the call and the envelope's
// bookkeeping are paid once per 32 frames.
constexpr int kToneAhead = 32;

// Writes the voice's next kToneAhead frames into out and advances its state.
using ToneKernel = void (*)(ToneState&, const ToneShared&, float* out) BOOP_RT;
// The kernel for a voice and filter setting: the AVX2 + FMA build when wide, else the baseline.
ToneKernel chooseToneKernel(boop_instrument_voice voice, bool filtered, bool wide) BOOP_RT;

}  // namespace boop
