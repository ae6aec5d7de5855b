#pragma once
#include "dsp/SimdTypes.hpp"
#include "rt/Realtime.hpp"

namespace boop {
namespace dsp {

// The RBJ lowpass (BiquadCoefficients::lowpass, whose numerator is b0 * (1, 2, 1); b0 is left to
// the caller, which folds it into its gain) over a group of eight frames at once. Frame by frame
// the recursion
//   y[n] = x[n] + 2 x[n-1] + x[n-2] - a1 y[n-1] - a2 y[n-2]
// is a chain of dependent multiply-adds, which bounds how fast a lone voice can go. A group's
// outputs instead are sums of products of its inputs x[0 ... 7] and two numbers carried over
// from the group before: s1 = 2 x[-1] + x[-2] - a1 y[-1] - a2 y[-2], what the past adds to
// output 0, and s2 = x[-1] - a2 y[-1], what it adds to output 1. Output k is
//   x[0] h[k] + ... + x[k] h[0] + s1 S1[k] + s2 S2[k]
// with h the impulse response and S1, S2 the responses to s1 and s2, always added in the same
// order (groupBiquadOutput). The outputs of a group do not depend on each other, so eight are one
// vector's work, and the chain is left only from one group to the next. The coefficients are
// computed in double and rounded once: the same filter to within float rounding.
//
// Two layouts of the same numbers: filters side by side as the lanes of a vector, one frame at a
// time (groupBiquadOutput, F = simd::f4 or simd::f8, or float for one filter), and one filter
// with the eight frames of a group as the lanes (groupBiquadFrames). The state is two plain
// numbers per filter (s1, s2), kept by the caller.
struct alignas(32) GroupBiquad {
    simd::f8 column[8];  // column[j][k] = h[k - j] (the impulse response), or 0 where k < j
    simd::f8 s1, s2;     // S1 and S2 for each k
    // The same numbers in every lane, for filters side by side: a multiply-add reads them from
    // memory as they are, where a scalar would first be broadcast.
    simd::f8 hLanes[8], s1Lanes[8], s2Lanes[8];
    float a1 = 0.0f, a2 = 0.0f;
    static GroupBiquad of(float a1, float a2) noexcept;
};

// Output k of a group, for the filters in the lanes of F: x[0 ... k] are the group's inputs, s1
// and s2 the state before the group. The one order of operations every layout uses: three chains
// of multiply-adds, the inputs 0-3, the inputs 4-7 and the state (s2's term, then s1's), summed as
// (first + second) + state. A term of a later input than k would have a zero coefficient, and an
// empty chain adds only zero: both are left out here.
template <class F>
BOOP_SIMD_INLINE F groupBiquadOutput(const F* x, int k, F s1, F s2, const GroupBiquad& g) noexcept {
    // A coefficient in every lane of F (the first lanes of its eight-lane copy).
    auto c = [](const simd::f8& v) -> const F& { return *reinterpret_cast<const F*>(&v); };
    F early = x[0] * c(g.hLanes[k]);
    for (int j = 1; j <= k && j < 4; ++j) early = early + x[j] * c(g.hLanes[k - j]);
    F state = s2 * c(g.s2Lanes[k]);
    state = state + s1 * c(g.s1Lanes[k]);
    if (k < 4) return early + state;
    F late = x[4] * c(g.hLanes[k - 4]);
    for (int j = 5; j <= k; ++j) late = late + x[j] * c(g.hLanes[k - j]);
    return (early + late) + state;
}

// The state after a group, from its last two inputs and outputs: what they add to the next
// group's first output (s1) and second (s2). For a lane vector or one filter, the same operations.
template <class F>
BOOP_SIMD_INLINE void groupBiquadState(F x6, F x7, F y6, F y7, const GroupBiquad& g, F& s1, F& s2) noexcept {
    // The last output's terms last: the chain from one group's end to the next group's outputs
    // is what bounds a lone voice.
    const F feedForward = x7 + x7 + x6;
    const F older = feedForward - y6 * g.a2;
    s1 = older - y7 * g.a1;
    s2 = x7 - y7 * g.a2;
}

// A whole group through the filters in the lanes of F: its eight outputs added into out[0],
// out[stride], ...; the state advanced to the next group's.
template <class F>
BOOP_SIMD_INLINE void groupBiquadAdd(const F* x, F* out, int stride, F& s1, F& s2, const GroupBiquad& g) noexcept {
    F y6 = x[0];
    BOOP_UNROLL8
    for (int f = 0; f < 8; ++f) {
        const F y = groupBiquadOutput<F>(x, f, s1, s2, g);
        out[f * stride] += y;
        if (f == 6) y6 = y;
        if (f == 7) groupBiquadState<F>(x[6], x[7], y6, y, g, s1, s2);
    }
}

// Input q of a group in every lane, picked out of its register: one shuffle of an SSE half on
// the baseline, one lane permute with AVX2. (A broadcast from memory instead, of the inputs
// stored for it, waits for the store: on the baseline a 16-byte load across the two halves'
// stores cannot be forwarded at all, and with AVX2 the loads were slower than the permutes.)
template <int Q>
BOOP_SIMD_INLINE simd::f8 broadcastLane(simd::f8 x) noexcept {
    return __builtin_shufflevector(x, x, Q, Q, Q, Q, Q, Q, Q, Q);
}

// One filter's group with its eight frames as the lanes of x: the outputs, the same sums in the
// same order as groupBiquadOutput. (Here the inputs after frame k are added too, times a zero
// coefficient: adding a zero changes no value, only, where the sum itself is zero, its sign.)
// The state is not advanced: groupBiquadState does that once the group is whole.
BOOP_SIMD_INLINE simd::f8 groupBiquadFrames(simd::f8 x, float s1, float s2, const GroupBiquad& g) noexcept {
    simd::f8 early = broadcastLane<0>(x) * g.column[0];
    early = early + broadcastLane<1>(x) * g.column[1];
    early = early + broadcastLane<2>(x) * g.column[2];
    early = early + broadcastLane<3>(x) * g.column[3];
    simd::f8 late = broadcastLane<4>(x) * g.column[4];
    late = late + broadcastLane<5>(x) * g.column[5];
    late = late + broadcastLane<6>(x) * g.column[6];
    late = late + broadcastLane<7>(x) * g.column[7];
    simd::f8 state = s2 * g.s2;
    state = state + s1 * g.s1;
    return (early + late) + state;
}

}  // namespace dsp
}  // namespace boop
