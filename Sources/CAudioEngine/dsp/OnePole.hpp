#pragma once
#include <cmath>

#include "dsp/SimdTypes.hpp"
#include "rt/Realtime.hpp"

namespace boop {
namespace dsp {

// The one-pole lowpass (a leaky integrator): the state moves the fraction `coef` of the way to
// the input each frame, and is the output. For one filter (T = float) or the lanes of a vector
// (T = simd::f8, one coefficient for all): the same expression, so the same bits. The reverb's
// and the echo's damping, and every glide toward a target.
template <class T>
BOOP_SIMD_INLINE T onePole(T& state, T x, float coef) noexcept {
    state += (x - state) * coef;
    return state;
}

// Every one-pole coefficient of the engine comes from these, so a time constant means the same
// everywhere. What remains of the distance to the target after one frame, when it shrinks by 1/e
// every `seconds`: the release of a peak follower, the decay of an envelope, a feedback.
inline double onePoleRetention(double seconds, double sampleRate) BOOP_RT {
    return std::exp(-1.0 / (seconds * sampleRate));
}

// The fraction of the way a glide with that time constant moves each frame: onePole's `coef`.
inline double onePoleCoef(double seconds, double sampleRate) BOOP_RT {
    return 1.0 - onePoleRetention(seconds, sampleRate);
}

// onePole's `coef` for a lowpass of cutoff `hz` (-3 dB there, for hz well under the rate).
inline double onePoleCoefForCutoff(double hz, double sampleRate) BOOP_RT {
    return 1.0 - std::exp(-2.0 * 3.14159265358979323846 * hz / sampleRate);
}

}  // namespace dsp
}  // namespace boop
