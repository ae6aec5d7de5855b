#pragma once
#include <cmath>

#include "rt/Realtime.hpp"

namespace boop {
namespace dsp {

// Equal temperament with A4 = 440 Hz at MIDI key 69: the one mapping from a key (or a fractional
// key, as a bend makes) to a frequency, for the MIDI synth, the editor's keyboard and the ambient
// composer alike.
inline double midiKeyHz(double key) BOOP_RT { return 440.0 * std::exp2((key - 69.0) / 12.0); }

}  // namespace dsp
}  // namespace boop
