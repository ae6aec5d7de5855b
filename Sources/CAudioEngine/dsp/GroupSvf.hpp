#pragma once
#include "dsp/SimdTypes.hpp"
#include "dsp/Svf.hpp"
#include "rt/Realtime.hpp"

namespace boop {
namespace dsp {

// The state-variable filter (SvfStateSpace: s' = A s + B x, y = C s + D x) over a group of eight
// frames at once, the frames as the eight lanes of a vector: no frame-to-frame recursion is left
// but the one from group to group, carried in closed form:
//   y[k] = sum_j x[j] column[j][k] + s1 p1[k] + s2 p2[k]
// with column[j][k] = h[k - j] (the impulse response, 0 where k < j) and p = C A^k, and the next
// state A^8 s + sum_j x[j] w[j] with w[j] = A^(7 - j) B. The numbers are computed in double when a
// setting changes and rounded once. The state is two plain floats (s1, s2), kept by the caller.
struct alignas(32) GroupSvf {
    simd::f8 column[8], p1, p2, w1, w2;
    float a8[4] = {1, 0, 0, 1};  // A^8

    void set(const SvfStateSpace& m) BOOP_RT;

    // The group's eight outputs from its inputs x; the state advanced past the group.
    BOOP_SIMD_INLINE simd::f8 process(simd::f8 x, float& s1, float& s2) const noexcept {
        simd::f8 y = s1 * p1 + s2 * p2;
        for (int j = 0; j < 8; ++j) y += x[j] * column[j];
        const float n1 = a8[0] * s1 + a8[1] * s2 + simd::laneTree(x * w1);
        s2 = a8[2] * s1 + a8[3] * s2 + simd::laneTree(x * w2);
        s1 = n1;
        return y;
    }
};

}  // namespace dsp
}  // namespace boop
