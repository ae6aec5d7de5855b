#pragma once
#include <cstdint>
#include <cstdlib>

// GCC/Clang vector extensions: explicit 8-lane values the compiler maps to two SSE registers on
// the x86-64-v2 baseline, one AVX register with -march=native, two NEON registers on arm64 —
// the same source everywhere, no intrinsics.
// These helpers are always inlined, so the "AVX vector argument changes the ABI" warning about
// passing 32-byte vectors between functions never applies to a real call.
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpsabi"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"
// GCC drops a vector typedef's aligned(32) when the type is a template argument
// (std::unique_ptr<f8[]>, SvfStateOf<f8>) and says so; a 32-byte vector's own alignment is 32
// bytes anyway, so nothing changes.
#pragma GCC diagnostic ignored "-Wignored-attributes"
#endif
#define BOOP_SIMD_INLINE inline __attribute__((always_inline))
// Unrolls the eight-frame loop that follows it completely, in either compiler's words.
#if defined(__clang__)
#define BOOP_UNROLL8 _Pragma("clang loop unroll(full)")
#else
#define BOOP_UNROLL8 _Pragma("GCC unroll 8")
#endif

// Every DSP unit lives in boop::dsp. The namespace is inline so that code outside dsp/ that
// names a unit boop::X (the engine, the C API) keeps compiling until it spells boop::dsp::X.
namespace boop {
namespace dsp {
namespace simd {

// Whether to take the AVX2 + FMA build of a kernel: where the CPU has both, unless BOOP_NO_AVX2
// is set (to test or measure the baseline). For choosing a kernel, never on the audio thread.
inline bool useAvx2() noexcept {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && !std::getenv("BOOP_NO_AVX2");
#else
    return false;
#endif
}

constexpr int kLanes = 8;
typedef float f8 __attribute__((vector_size(32), aligned(32)));
typedef float f8u __attribute__((vector_size(32), aligned(4)));  // for unaligned loads
typedef int32_t i8 __attribute__((vector_size(32), aligned(32)));
typedef uint32_t u8 __attribute__((vector_size(32), aligned(32)));
// Half-width lanes for the SSE baseline: eight lanes of state would not fit in 16 xmm registers.
typedef float f4 __attribute__((vector_size(16), aligned(16)));
typedef int32_t i4 __attribute__((vector_size(16), aligned(16)));
typedef uint32_t u4 __attribute__((vector_size(16), aligned(16)));

// The signed-integer vector matching a float vector: what a lane comparison yields.
template <class F>
using IntOf = decltype(F{} < F{});

template <class F>
BOOP_SIMD_INLINE F splatT(float v) noexcept {
    return F{} + v;
}
BOOP_SIMD_INLINE f8 splat(float v) noexcept { return splatT<f8>(v); }

// Lane-wise choice. The vector ternary compiles to blend (SSE4.1/AVX) or and/andnot/or (SSE2).
template <class F>
BOOP_SIMD_INLINE F select(IntOf<F> mask, F ifTrue, F ifFalse) noexcept {
    return mask ? ifTrue : ifFalse;
}
template <class F>
BOOP_SIMD_INLINE F min(F a, F b) noexcept {
    return a < b ? a : b;
}  // minps
template <class F>
BOOP_SIMD_INLINE F max(F a, F b) noexcept {
    return a > b ? a : b;
}  // maxps
// A cast between two vector types of one size reinterprets the bits (GCC and Clang alike); a
// reference cast between float and integer vectors would break the aliasing rules, which GCC's
// optimiser relies on.
template <class F>
BOOP_SIMD_INLINE IntOf<F> bitsOf(F x) noexcept {
    return (IntOf<F>)x;
}
template <class F>
BOOP_SIMD_INLINE F fromBits(IntOf<F> bits) noexcept {
    return (F)bits;
}
template <class F>
BOOP_SIMD_INLINE F abs(F x) noexcept {
    return fromBits<F>(bitsOf(x) & 0x7fffffff);
}

// The eight lanes of p[0] ... p[7] summed, one frame per result lane: a tree of pairwise sums
// (the horizontal adds of AVX, written as shuffles), each frame's lanes added as
// ((0 + 1) + (2 + 3)) + ((4 + 5) + (6 + 7)), exactly as laneTree adds one frame's.
BOOP_SIMD_INLINE f8 pairSums(f8 a, f8 b) noexcept {
    return __builtin_shufflevector(a, b, 0, 2, 8, 10, 4, 6, 12, 14) +
           __builtin_shufflevector(a, b, 1, 3, 9, 11, 5, 7, 13, 15);
}
BOOP_SIMD_INLINE f8 laneTrees(const f8* p) noexcept {
    const f8 q0 = pairSums(pairSums(p[0], p[1]), pairSums(p[2], p[3]));
    const f8 q1 = pairSums(pairSums(p[4], p[5]), pairSums(p[6], p[7]));
    return __builtin_shufflevector(q0, q1, 0, 1, 2, 3, 8, 9, 10, 11) +
           __builtin_shufflevector(q0, q1, 4, 5, 6, 7, 12, 13, 14, 15);
}
BOOP_SIMD_INLINE float laneTree(f8 v) noexcept {
    return ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
}

BOOP_SIMD_INLINE float sum(f8 v) noexcept { return ((v[0] + v[4]) + (v[1] + v[5])) + ((v[2] + v[6]) + (v[3] + v[7])); }

// sin(2*pi*x) for x in [-0.5, 0.5) turns. With a = |x| and b = a - 1/4, sin(2*pi*a) = cos(2*pi*b)
// for b in [-1/4, 1/4], an even function: a degree-8 least-squares polynomial in b^2 (max error
// 4.7e-8, below float resolution: > 140 dB SNR). The sign of x is put back with one xor. No
// comparisons or blends: 14 vector operations per register of sines.
template <class F>
BOOP_SIMD_INLINE F sinTurns(F x) noexcept {
    using I = IntOf<F>;
    const I signBit = bitsOf(x) & static_cast<int32_t>(0x80000000u);
    const F b = abs(x) - 0.25f;
    const F b2 = b * b;
    F p = splatT<F>(56.24054044084265f);
    p = p * b2 - 85.24010035715763f;
    p = p * b2 + 64.93458164580115f;
    p = p * b2 - 19.739171322478587f;
    p = p * b2 + 0.9999999532476083f;
    return fromBits<F>(bitsOf(p) ^ signBit);
}

// True when any lane of a comparison mask is set. clang reduces in a few instructions; gcc (the
// C library's default build) has no __builtin_reduce_or, so it ORs the lanes: the same answer.
BOOP_SIMD_INLINE bool anyLane(i8 mask) noexcept {
#if defined(__clang__)
    return __builtin_reduce_or(mask) != 0;
#else
    int32_t any = 0;
    for (int k = 0; k < 8; ++k) any |= mask[k];
    return any != 0;
#endif
}

// 8 x 8 transpose in place: v[i][k] becomes v[k][i]. Shuffles within 128-bit halves, then of whole
// halves, so both the SSE and the AVX build do it in registers (no store and reload of the rows).
BOOP_SIMD_INLINE void transpose8(f8* v) noexcept {
    f8 t[8], u[8];
    for (int p = 0; p < 4; ++p) {
        t[2 * p] = __builtin_shufflevector(v[2 * p], v[2 * p + 1], 0, 8, 1, 9, 4, 12, 5, 13);
        t[2 * p + 1] = __builtin_shufflevector(v[2 * p], v[2 * p + 1], 2, 10, 3, 11, 6, 14, 7, 15);
    }
    for (int q = 0; q < 2; ++q) {
        const f8 a = t[4 * q], b = t[4 * q + 1], c = t[4 * q + 2], d = t[4 * q + 3];
        u[4 * q] = __builtin_shufflevector(a, c, 0, 1, 8, 9, 4, 5, 12, 13);
        u[4 * q + 1] = __builtin_shufflevector(a, c, 2, 3, 10, 11, 6, 7, 14, 15);
        u[4 * q + 2] = __builtin_shufflevector(b, d, 0, 1, 8, 9, 4, 5, 12, 13);
        u[4 * q + 3] = __builtin_shufflevector(b, d, 2, 3, 10, 11, 6, 7, 14, 15);
    }
    for (int f = 0; f < 4; ++f) {
        v[f] = __builtin_shufflevector(u[f], u[f + 4], 0, 1, 2, 3, 8, 9, 10, 11);
        v[f + 4] = __builtin_shufflevector(u[f], u[f + 4], 4, 5, 6, 7, 12, 13, 14, 15);
    }
}

}  // namespace simd
}  // namespace dsp
}  // namespace boop
