#pragma once
#include "dsp/SimdTypes.hpp"

// Eight consecutive frames as the eight lanes of one vector: the helpers that carry a
// frame-to-frame recursion across such a group in closed form (the song instruments and kits).
namespace boop {
namespace dsp {
namespace simd {

BOOP_SIMD_INLINE f8 load8(const float* p) noexcept {
    f8 v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}

// Lanes moved up by `by` frames, `first` filling the lanes left free (the frames before).
template <int By>
BOOP_SIMD_INLINE f8 shiftUp(f8 v, f8 first) noexcept {
    if constexpr (By == 1) return __builtin_shufflevector(first, v, 7, 8, 9, 10, 11, 12, 13, 14);
    if constexpr (By == 2) return __builtin_shufflevector(first, v, 6, 7, 8, 9, 10, 11, 12, 13);
    if constexpr (By == 4) return __builtin_shufflevector(first, v, 4, 5, 6, 7, 8, 9, 10, 11);
}

// y[k] = u[k] + r y[k - 1] over the eight lanes, y[-1] = before: three doubling steps
// (a prefix scan), so the recursion inside a group is three multiply-adds deep, not eight.
BOOP_SIMD_INLINE f8 firstOrderScan(f8 u, float r, float before) noexcept {
    const float r2 = r * r, r4 = r2 * r2;
    const f8 zero{};
    f8 y = u + r * shiftUp<1>(u, zero);
    y = y + r2 * shiftUp<2>(y, zero);
    y = y + r4 * shiftUp<4>(y, zero);
    const f8 powers = {r, r2, r2 * r, r4, r4 * r, r4 * r2, r4 * r2 * r, r4 * r4};
    return y + powers * before;
}

// Lanes of an integer vector moved up by `by` frames, zeros filling: for prefix sums.
template <int By>
BOOP_SIMD_INLINE u8 shiftUpU(u8 v) noexcept {
    const u8 zero{};
    if constexpr (By == 1) return __builtin_shufflevector(zero, v, 7, 8, 9, 10, 11, 12, 13, 14);
    if constexpr (By == 2) return __builtin_shufflevector(zero, v, 6, 7, 8, 9, 10, 11, 12, 13);
    if constexpr (By == 4) return __builtin_shufflevector(zero, v, 4, 5, 6, 7, 8, 9, 10, 11);
}

// before + v[0] + ... + v[k] in lane k (wrapping, as a phase does).
BOOP_SIMD_INLINE u8 prefixSum(u8 v, uint32_t before) noexcept {
    v += shiftUpU<1>(v);
    v += shiftUpU<2>(v);
    v += shiftUpU<4>(v);
    return v + before;
}

}  // namespace simd
}  // namespace dsp
}  // namespace boop
