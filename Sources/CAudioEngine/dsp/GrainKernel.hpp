#pragma once
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
// A grain's frames in groups of eight, for as many whole groups as fit in the m frames and in
// the grain's length, added into l and r; returns the frames done (pos and age advanced). Each
// lane computes what Granulator::render's frame-by-frame loop computes, in the same order and
// without fused multiply-adds (AVX2 alone, not FMA), so the sums are the same to the bit: the
// read position still steps by one double addition a frame (a sum of several steps could round
// differently), the window and the two buffer samples come from gathers. The caller leaves out
// grains whose reads may reach the samples the stretch just wrote.
__attribute__((target("avx2"))) inline int renderGrainGroups(const GrainGroup& g, double& pos, int& age, int m,
                                                             float* l, float* r) BOOP_RT {
    constexpr int kWindowSize = 1024;
    const __m256 invLen = _mm256_set1_ps(g.invLen), amp = _mm256_set1_ps(g.amp);
    const __m256 panL = _mm256_set1_ps(g.panL), panR = _mm256_set1_ps(g.panR);
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), one = _mm256_set1_epi32(1);
    const __m256i size = _mm256_set1_epi32(g.size), lastWindow = _mm256_set1_epi32(kWindowSize - 1);
    const double sizeD = static_cast<double>(g.size);
    int t = 0;
    for (; t + 8 <= m && age + 8 <= g.len; t += 8, age += 8) {
        alignas(32) double p[8];
        for (int k = 0; k < 8; ++k) {
            p[k] = pos;
            pos += g.ratio;
            if (pos >= sizeD) pos -= sizeD;
        }
        // The Hann window, interpolated in its table; zero past its end.
        const __m256 x =
            _mm256_mul_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_set1_epi32(age), lane)), invLen),
                          _mm256_set1_ps(static_cast<float>(kWindowSize)));
        const __m256i wi = _mm256_cvttps_epi32(x);
        const __m256 wf = _mm256_sub_ps(x, _mm256_cvtepi32_ps(wi));
        const __m256i inside = _mm256_cmpgt_epi32(_mm256_set1_epi32(kWindowSize), wi);
        const __m256i wic = _mm256_min_epi32(wi, lastWindow);
        const __m256 w0 = _mm256_i32gather_ps(g.window, wic, 4), w1 = _mm256_i32gather_ps(g.window + 1, wic, 4);
        const __m256 w =
            _mm256_and_ps(_mm256_add_ps(w0, _mm256_mul_ps(_mm256_sub_ps(w1, w0), wf)), _mm256_castsi256_ps(inside));
        // The read position: its whole part and fraction, and the sample after it (wrapped).
        const __m256d pa = _mm256_load_pd(p), pb = _mm256_load_pd(p + 4);
        const __m128i ia = _mm256_cvttpd_epi32(pa), ib = _mm256_cvttpd_epi32(pb);
        const __m128 fa = _mm256_cvtpd_ps(_mm256_sub_pd(pa, _mm256_cvtepi32_pd(ia)));
        const __m128 fb = _mm256_cvtpd_ps(_mm256_sub_pd(pb, _mm256_cvtepi32_pd(ib)));
        const __m256 frac = _mm256_set_m128(fb, fa);
        __m256i i0 = _mm256_set_m128i(ib, ia);
        i0 = _mm256_sub_epi32(i0, _mm256_andnot_si256(_mm256_cmpgt_epi32(size, i0), size));
        __m256i i1 = _mm256_add_epi32(i0, one);
        i1 = _mm256_andnot_si256(_mm256_cmpeq_epi32(i1, size), i1);
        const __m256 s0 = _mm256_i32gather_ps(g.buffer, i0, 4), s1 = _mm256_i32gather_ps(g.buffer, i1, 4);
        const __m256 s =
            _mm256_mul_ps(_mm256_mul_ps(_mm256_add_ps(s0, _mm256_mul_ps(_mm256_sub_ps(s1, s0), frac)), w), amp);
        _mm256_storeu_ps(l + t, _mm256_add_ps(_mm256_loadu_ps(l + t), _mm256_mul_ps(s, panL)));
        _mm256_storeu_ps(r + t, _mm256_add_ps(_mm256_loadu_ps(r + t), _mm256_mul_ps(s, panR)));
    }
    return t;
}
#else
inline int renderGrainGroups(const GrainGroup&, double&, int&, int, float*, float*) BOOP_RT { return 0; }
#endif

}  // namespace dsp
}  // namespace boop
