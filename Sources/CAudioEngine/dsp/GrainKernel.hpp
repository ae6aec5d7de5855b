#pragma once
#include <cstdint>
#include "dsp/SimdTypes.hpp"
#include "rt/Realtime.hpp"
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#endif

namespace boop {
namespace dsp {

// What one grain reads while it sounds (Granulator::render).
struct GrainGroup {
    const float* buffer;
    const float* window;  // kWindowSize + 1 entries
    int size, len;
    double ratio;
    float invLen, amp, panL, panR;
};

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
namespace grain {

// table[idx[k]] for the eight lanes. Where the indices rise by at most seven from the first and
// eight entries from it are in the table (a grain's window, its samples at the original pitch),
// one load and a lane permutation; elsewhere a gather. The same values either way.
__attribute__((target("avx2"))) inline __m256 lookup(const float* table, __m256i idx, int entries) noexcept {
    const int first = _mm256_cvtsi256_si32(idx);
    const int span = _mm256_extract_epi32(idx, 7) - first;
    if (span >= 0 && span <= 7 && first >= 0 && first + 8 <= entries)
        return _mm256_permutevar8x32_ps(_mm256_loadu_ps(table + first),
                                        _mm256_sub_epi32(idx, _mm256_set1_epi32(first)));
    return _mm256_i32gather_ps(table, idx, 4);
}

// The read positions of eight frames, as the frame-by-frame loop steps them: one double addition
// a frame, wrapping at the buffer's end. When the eight steps neither wrap nor cross a power of
// two, every one is exact (the step is a multiple of 1/2, the position's last bit no coarser), so
// pos + k * ratio, one addition, is that same value.
__attribute__((target("avx2"))) inline void positions(double& pos, double ratio, double size, __m256d& a,
                                                      __m256d& b) noexcept {
    const double end = pos + 8.0 * ratio;
    std::uint64_t bits;
    __builtin_memcpy(&bits, &pos, sizeof bits);
    bits &= 0xfff0000000000000ull;  // 2^floor(log2 pos)
    double binade;
    __builtin_memcpy(&binade, &bits, sizeof binade);
    if (pos >= 1.0 && end < size && end < 2.0 * binade) {
        const __m256d p = _mm256_set1_pd(pos), r = _mm256_set1_pd(ratio);
        a = _mm256_add_pd(p, _mm256_mul_pd(r, _mm256_setr_pd(0, 1, 2, 3)));
        b = _mm256_add_pd(p, _mm256_mul_pd(r, _mm256_setr_pd(4, 5, 6, 7)));
        pos = end;
        return;
    }
    double p[8];
    for (int k = 0; k < 8; ++k) {
        p[k] = pos;
        pos += ratio;
        if (pos >= size) pos -= size;
    }
    a = _mm256_setr_pd(p[0], p[1], p[2], p[3]);
    b = _mm256_setr_pd(p[4], p[5], p[6], p[7]);
}

typedef double d8 __attribute__((vector_size(64)));
typedef double d4 __attribute__((vector_size(32)));

// The read positions p of a group of frames, one a lane, as Granulator::render reads them: the
// whole part (truncated) wrapped into the buffer, the sample after it wrapped, and the fraction
// between them (a double subtraction, then rounded to float). Written once for the eight lanes of
// AVX2 (F = f8, D = d8) and the four of the baseline (f4, d4).
template <class F, class D>
BOOP_SIMD_INLINE void readIndices(const D& p, int size, simd::IntOf<F>& i0, simd::IntOf<F>& i1, F& frac) noexcept {
    using I = simd::IntOf<F>;
    const I whole = __builtin_convertvector(p, I), sizes = I{} + size;
    frac = __builtin_convertvector(p - __builtin_convertvector(whole, D), F);
    i0 = whole - (sizes & (whole >= sizes));
    i1 = i0 + 1;
    i1 &= i1 != sizes;
}

}  // namespace grain

// A grain's frames in groups of eight, for as many whole groups as fit in the m frames and in
// the grain's length, added into l and r; returns the frames done (pos and age advanced). Each
// lane computes what Granulator::render's frame-by-frame loop computes, in the same order and
// without fused multiply-adds (AVX2 alone, not FMA), so the sums are the same to the bit. The
// caller leaves out grains whose reads may reach the samples the stretch just wrote.
__attribute__((target("avx2"))) inline int renderGrainGroups(const GrainGroup& g, double& pos, int& age, int m,
                                                             float* l, float* r) BOOP_RT {
    constexpr int kWindowSize = 1024;
    const __m256 invLen = _mm256_set1_ps(g.invLen), amp = _mm256_set1_ps(g.amp);
    const __m256 panL = _mm256_set1_ps(g.panL), panR = _mm256_set1_ps(g.panR);
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), lastWindow = _mm256_set1_epi32(kWindowSize - 1);
    const double sizeD = static_cast<double>(g.size);
    int t = 0;
    for (; t + 8 <= m && age + 8 <= g.len; t += 8, age += 8) {
        __m256d pa, pb;
        grain::positions(pos, g.ratio, sizeD, pa, pb);
        // The Hann window, interpolated in its table; zero past its end.
        const __m256 x =
            _mm256_mul_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_set1_epi32(age), lane)), invLen),
                          _mm256_set1_ps(static_cast<float>(kWindowSize)));
        const __m256i wi = _mm256_cvttps_epi32(x);
        const __m256 wf = _mm256_sub_ps(x, _mm256_cvtepi32_ps(wi));
        const __m256i inside = _mm256_cmpgt_epi32(_mm256_set1_epi32(kWindowSize), wi);
        const __m256i wic = _mm256_min_epi32(wi, lastWindow);
        const __m256 w0 = grain::lookup(g.window, wic, kWindowSize + 1);
        const __m256 w1 = grain::lookup(g.window + 1, wic, kWindowSize);
        const __m256 w =
            _mm256_and_ps(_mm256_add_ps(w0, _mm256_mul_ps(_mm256_sub_ps(w1, w0), wf)), _mm256_castsi256_ps(inside));
        simd::i8 i0, i1;
        simd::f8 frac;
        grain::readIndices(grain::d8(__builtin_shufflevector(pa, pb, 0, 1, 2, 3, 4, 5, 6, 7)), g.size, i0, i1, frac);
        const __m256 s0 = grain::lookup(g.buffer, __m256i(i0), g.size);
        const __m256 s1 = grain::lookup(g.buffer, __m256i(i1), g.size);
        const __m256 s =
            _mm256_mul_ps(_mm256_mul_ps(_mm256_add_ps(s0, _mm256_mul_ps(_mm256_sub_ps(s1, s0), __m256(frac))), w), amp);
        _mm256_storeu_ps(l + t, _mm256_add_ps(_mm256_loadu_ps(l + t), _mm256_mul_ps(s, panL)));
        _mm256_storeu_ps(r + t, _mm256_add_ps(_mm256_loadu_ps(r + t), _mm256_mul_ps(s, panR)));
    }
    return t;
}

#if defined(__SSE4_1__)
// The Hann window of frames age ... age + 3, interpolated in its table; zero past its end.
inline __m128 windowQuad(const float* win, int age, __m128 invLen) BOOP_RT {
    constexpr int kWindowSize = 1024;
    const __m128i lane = _mm_setr_epi32(0, 1, 2, 3), lastWindow = _mm_set1_epi32(kWindowSize - 1);
    const __m128 x = _mm_mul_ps(_mm_mul_ps(_mm_cvtepi32_ps(_mm_add_epi32(_mm_set1_epi32(age), lane)), invLen),
                                _mm_set1_ps(static_cast<float>(kWindowSize)));
    const __m128i wi = _mm_cvttps_epi32(x);
    const __m128 wf = _mm_sub_ps(x, _mm_cvtepi32_ps(wi));
    const __m128i inside = _mm_cmpgt_epi32(_mm_set1_epi32(kWindowSize), wi);
    alignas(16) int wix[4];
    _mm_store_si128(reinterpret_cast<__m128i*>(wix), _mm_min_epi32(wi, lastWindow));
    // A grain's window moves by well under one entry a frame: most often the four frames read one.
    const bool oneEntry = wix[0] == wix[3];
    const __m128 w0 =
        oneEntry ? _mm_set1_ps(win[wix[0]]) : _mm_setr_ps(win[wix[0]], win[wix[1]], win[wix[2]], win[wix[3]]);
    const __m128 w1 = oneEntry ? _mm_set1_ps(win[wix[0] + 1])
                               : _mm_setr_ps(win[wix[0] + 1], win[wix[1] + 1], win[wix[2] + 1], win[wix[3] + 1]);
    return _mm_and_ps(_mm_add_ps(w0, _mm_mul_ps(_mm_sub_ps(w1, w0), wf)), _mm_castsi128_ps(inside));
}

// renderGrainGroups for the baseline (x86-64-v2): four frames at a time, each lane the arithmetic
// of Granulator::render's loop in the same order (SSE has no fused multiply-add), so the sums are
// the same to the bit; the reads, which SSE cannot gather, are loaded one by one.
inline int renderGrainQuads(const GrainGroup& g, double& pos, int& age, int m, float* l, float* r) BOOP_RT {
    const __m128 invLen = _mm_set1_ps(g.invLen), amp = _mm_set1_ps(g.amp);
    const __m128 panL = _mm_set1_ps(g.panL), panR = _mm_set1_ps(g.panR);
    const double sizeD = static_cast<double>(g.size);
    const float* buf = g.buffer;
    int t = 0;
    for (; t + 4 <= m && age + 4 <= g.len; t += 4, age += 4) {
        double p[4];
        for (int k = 0; k < 4; ++k) {
            p[k] = pos;
            pos += g.ratio;
            if (pos >= sizeD) pos -= sizeD;
        }
        const __m128 w = windowQuad(g.window, age, invLen);
        simd::i4 i0, i1;
        simd::f4 frac;
        grain::readIndices(grain::d4{p[0], p[1], p[2], p[3]}, g.size, i0, i1, frac);
        alignas(16) int a[4], b[4];
        _mm_store_si128(reinterpret_cast<__m128i*>(a), __m128i(i0));
        _mm_store_si128(reinterpret_cast<__m128i*>(b), __m128i(i1));
        // At the original pitch the four reads are contiguous (and, short of the buffer's end, so are
        // the samples after them): two loads.
        const bool contiguous = a[1] == a[0] + 1 && a[2] == a[0] + 2 && a[3] == a[0] + 3 && a[3] + 1 < g.size;
        const __m128 s0 =
            contiguous ? _mm_loadu_ps(buf + a[0]) : _mm_setr_ps(buf[a[0]], buf[a[1]], buf[a[2]], buf[a[3]]);
        const __m128 s1 =
            contiguous ? _mm_loadu_ps(buf + a[0] + 1) : _mm_setr_ps(buf[b[0]], buf[b[1]], buf[b[2]], buf[b[3]]);
        const __m128 s = _mm_mul_ps(_mm_mul_ps(_mm_add_ps(s0, _mm_mul_ps(_mm_sub_ps(s1, s0), __m128(frac))), w), amp);
        _mm_storeu_ps(l + t, _mm_add_ps(_mm_loadu_ps(l + t), _mm_mul_ps(s, panL)));
        _mm_storeu_ps(r + t, _mm_add_ps(_mm_loadu_ps(r + t), _mm_mul_ps(s, panR)));
    }
    return t;
}
#endif

// What PingPongDelay::readAhead reads from.
struct PingPongReads {
    const float *left, *right;
    int size, write;
    float sizeF, current;
};

// The reads of frames write ... write + m - 1 of a ping-pong delay whose read offset stands
// still, eight frames at a time, each lane the arithmetic of PingPongDelay::step (no fused
// multiply-adds): the same values.
__attribute__((target("avx2"))) inline void readFrames(const PingPongReads& d, int m, float* yl, float* yr) BOOP_RT {
    const __m256i size = _mm256_set1_epi32(d.size), one = _mm256_set1_epi32(1);
    const __m256 sizeF = _mm256_set1_ps(d.sizeF), current = _mm256_set1_ps(d.current), zero = _mm256_setzero_ps();
    alignas(32) float l[72], r[72];
    for (int g = 0; g < m; g += 8) {
        __m256i w = _mm256_add_epi32(_mm256_set1_epi32(d.write + g), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        w = _mm256_sub_epi32(w, _mm256_andnot_si256(_mm256_cmpgt_epi32(size, w), size));  // the write index wraps
        __m256 pos = _mm256_sub_ps(_mm256_cvtepi32_ps(w), current);
        pos = _mm256_blendv_ps(pos, _mm256_add_ps(pos, sizeF), _mm256_cmp_ps(pos, zero, _CMP_LT_OQ));
        __m256i i0 = _mm256_cvttps_epi32(pos);
        const __m256 frac = _mm256_sub_ps(pos, _mm256_cvtepi32_ps(i0));
        i0 = _mm256_sub_epi32(i0, _mm256_andnot_si256(_mm256_cmpgt_epi32(size, i0), size));
        __m256i i1 = _mm256_add_epi32(i0, one);
        i1 = _mm256_andnot_si256(_mm256_cmpgt_epi32(i1, _mm256_sub_epi32(size, one)), i1);
        const __m256 l0 = grain::lookup(d.left, i0, d.size), l1 = grain::lookup(d.left, i1, d.size);
        const __m256 r0 = grain::lookup(d.right, i0, d.size), r1 = grain::lookup(d.right, i1, d.size);
        _mm256_store_ps(l + g, _mm256_add_ps(l0, _mm256_mul_ps(_mm256_sub_ps(l1, l0), frac)));
        _mm256_store_ps(r + g, _mm256_add_ps(r0, _mm256_mul_ps(_mm256_sub_ps(r1, r0), frac)));
    }
    for (int i = 0; i < m; ++i) {
        yl[i] = l[i];
        yr[i] = r[i];
    }
}
#else
struct PingPongReads {
    const float *left, *right;
    int size, write;
    float sizeF, current;
};
inline void readFrames(const PingPongReads&, int, float*, float*) BOOP_RT {}
inline int renderGrainGroups(const GrainGroup&, double&, int&, int, float*, float*) BOOP_RT { return 0; }
#endif

}  // namespace dsp
}  // namespace boop
