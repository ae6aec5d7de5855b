#pragma once
#include "dsp/SimdTypes.hpp"

namespace boop {
namespace dsp {

// A band-limited sawtooth: the naive ramp at phase t in [0, 1) turns minus the polyBLEP residual
// of a unit step at the wrap (dt the increment in turns, invDt = 1 / dt), which rounds off the
// discontinuity and removes most of the aliasing for a few flops. For the lanes of a vector (the
// pattern engine's bass and the ambient pad); always inlined, like every helper a vector kernel
// calls.
template <class F>
BOOP_SIMD_INLINE F polyBlepSaw(F t, F dt, F invDt) noexcept {
    const F u0 = t * invDt;
    const F u1 = (t - 1.0f) * invDt;
    const F afterWrap = u0 + u0 - u0 * u0 - 1.0f;
    const F beforeWrap = u1 * u1 + u1 + u1 + 1.0f;
    const F blep =
        simd::select<F>(t < dt, afterWrap, simd::select<F>(t > 1.0f - dt, beforeWrap, simd::splatT<F>(0.0f)));
    return (t + t - 1.0f) - blep;
}

}  // namespace dsp
}  // namespace boop
