#pragma once
#include <cstdint>

// GCC/Clang vector extensions: explicit 8-lane values the compiler maps to two SSE registers on
// the x86-64-v2 baseline, one AVX register with -march=native, two NEON registers on arm64 —
// the same source everywhere, no intrinsics.
// These helpers are always inlined, so the "AVX vector argument changes the ABI" warning about
// passing 32-byte vectors between functions never applies to a real call.
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpsabi"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
#define BOOP_SIMD_INLINE inline __attribute__((always_inline))

namespace boop::simd {

constexpr int kLanes = 8;
typedef float f8 __attribute__((vector_size(32), aligned(32)));
typedef int32_t i8 __attribute__((vector_size(32), aligned(32)));
typedef uint32_t u8 __attribute__((vector_size(32), aligned(32)));

BOOP_SIMD_INLINE f8 splat(float v) noexcept { return f8{v, v, v, v, v, v, v, v}; }
BOOP_SIMD_INLINE u8 splatU(uint32_t v) noexcept { return u8{v, v, v, v, v, v, v, v}; }

BOOP_SIMD_INLINE f8 select(i8 mask, f8 ifTrue, f8 ifFalse) noexcept {
    const i8 t = reinterpret_cast<const i8&>(ifTrue), f = reinterpret_cast<const i8&>(ifFalse);
    const i8 r = (mask & t) | (~mask & f);
    return reinterpret_cast<const f8&>(r);
}
BOOP_SIMD_INLINE f8 abs(f8 x) noexcept {
    const i8 r = reinterpret_cast<const i8&>(x) & 0x7fffffff;
    return reinterpret_cast<const f8&>(r);
}
BOOP_SIMD_INLINE f8 min(f8 a, f8 b) noexcept { return select(a < b, a, b); }
BOOP_SIMD_INLINE f8 max(f8 a, f8 b) noexcept { return select(a > b, a, b); }

BOOP_SIMD_INLINE float sum(f8 v) noexcept {
    return ((v[0] + v[4]) + (v[1] + v[5])) + ((v[2] + v[6]) + (v[3] + v[7]));
}

// sin(2*pi*x) for x in [-0.5, 0.5): fold to [-0.25, 0.25] (sin is symmetric about +-0.25 turns),
// then an odd degree-9 least-squares polynomial. Max error 3.7e-9 before float rounding, so the
// float result is within a few ulps (> 130 dB SNR).
BOOP_SIMD_INLINE f8 sinTurns(f8 x) noexcept {
    const f8 half = select(x < 0.0f, splat(-0.5f), splat(0.5f));
    const f8 folded = select(abs(x) > 0.25f, half - x, x);
    const f8 x2 = folded * folded;
    f8 p = splat(39.57223222085593f);
    p = p * x2 - 76.55502808813885f;
    p = p * x2 + 81.60126762835502f;
    p = p * x2 - 41.341660126558686f;
    p = p * x2 + 6.283185189137469f;
    return folded * p;
}

}  // namespace boop::simd
