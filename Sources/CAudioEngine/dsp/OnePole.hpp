#pragma once
#include "dsp/SimdTypes.hpp"

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

}  // namespace dsp
}  // namespace boop
