// The engine's mix stage (Engine.hpp): each slice's partial and direct sums folded into the
// centred mix, the stereo pair of the song instruments and kits added, the soft clipper, the
// output's channels. Kernels in baseline and AVX2 builds that give the same samples.
#include <algorithm>
#include <cmath>
#include <cstring>
#include "dsp/SoftClipper.hpp"
#include "engine/Engine.hpp"

namespace boop {

namespace {

// Eight frames at a time: eight vectors of partial sums become one vector of eight samples
// (simd::laneTrees), plus the direct sums, times the master gain. Returns how many frames it
// folded (a multiple of eight).
BOOP_SIMD_INLINE uint32_t foldEights(const dsp::simd::f8* sums, const float* direct, float* mono, uint32_t frames,
                                     dsp::simd::f8& loudest) noexcept {
    using dsp::simd::f8;
    uint32_t n = 0;
    for (; n + 8 <= frames; n += 8) {
        const f8 y = (dsp::simd::laneTrees(sums + n) + *reinterpret_cast<const dsp::simd::f8u*>(direct + n)) *
                     Engine::kMasterGain;
        loudest = dsp::simd::max(loudest, dsp::simd::abs(y));
        std::memcpy(mono + n, &y, sizeof y);
    }
    return n;
}

uint32_t foldEightsBaseline(const dsp::simd::f8* s, const float* d, float* m, uint32_t f, dsp::simd::f8& l) BOOP_RT {
    return foldEights(s, d, m, f, l);
}
// Frames [0, 8 x (frames / 8)) of the direct sums alone (no partial sums) times the master gain.
BOOP_SIMD_INLINE uint32_t scaleEights(const float* direct, float* mono, uint32_t frames,
                                      dsp::simd::f8& loudest) noexcept {
    using dsp::simd::f8;
    uint32_t n = 0;
    for (; n + 8 <= frames; n += 8) {
        const f8 y = *reinterpret_cast<const dsp::simd::f8u*>(direct + n) * Engine::kMasterGain;
        loudest = dsp::simd::max(loudest, dsp::simd::abs(y));
        std::memcpy(mono + n, &y, sizeof y);
    }
    return n;
}

uint32_t scaleEightsBaseline(const float* d, float* m, uint32_t f, dsp::simd::f8& l) BOOP_RT {
    return scaleEights(d, m, f, l);
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define BOOP_HAVE_AVX2_FOLD 1
// A multiply, an absolute value and a maximum: nothing to fuse, so AVX2 gives the same samples.
__attribute__((target("avx2"))) uint32_t scaleEightsAvx2(const float* d, float* m, uint32_t f,
                                                         dsp::simd::f8& l) BOOP_RT {
    return scaleEights(d, m, f, l);
}
// With AVX2 each vector is one register instead of two: the fold was a tenth of a render.
__attribute__((target("avx2,fma"))) uint32_t foldEightsAvx2(const dsp::simd::f8* s, const float* d, float* m,
                                                            uint32_t f, dsp::simd::f8& l) BOOP_RT {
    return foldEights(s, d, m, f, l);
}
#endif

}  // namespace

Engine::FoldKernel Engine::chooseFold() noexcept {
#if defined(BOOP_HAVE_AVX2_FOLD)
    if (dsp::simd::useAvx2()) return foldEightsAvx2;
#endif
    return foldEightsBaseline;
}

// Folds each frame's eight partial sums into one sample, applies the master gain and, only when
// something reaches the knee, the soft clipper; then writes every channel. Returns the peak.
float Engine::mixDown(float* out, uint32_t frames) BOOP_RT {
    using dsp::simd::f8;
    const uint32_t channels = config_.channels;
    // Nothing in the centre: it is +0 throughout, as the fold below would make it.
    if (stereoUsed_ && !sumsUsed_ && !directUsed_) return mixStereo(out, frames, silence_.get());
    // A mono output without instruments is the mix itself: written in place, no copy after.
    float* mono = channels == 1 && !stereoUsed_ ? out : mono_.get();
    const f8* sums = partialSums_.get();
    f8 loudest = dsp::simd::splat(0.0f);
    uint32_t n = 0;
    if (sumsUsed_) {
        n = foldEights_(sums, direct_.get(), mono, frames, loudest);
    } else {
        // Nothing in the partial sums: they add exactly +0 (the fold's result, to the bit).
#if defined(BOOP_HAVE_AVX2_FOLD)
        n = wide_ ? scaleEightsAvx2(direct_.get(), mono, frames, loudest)
                  : scaleEightsBaseline(direct_.get(), mono, frames, loudest);
#else
        n = scaleEightsBaseline(direct_.get(), mono, frames, loudest);
#endif
    }
    if (stereoUsed_) {
        // Instruments sound: the centred mix (folded above, not yet clipped) plus the stereo pair.
        for (; n < frames; ++n) mono[n] = (dsp::simd::laneTree(sums[n]) + direct_[n]) * kMasterGain;
        return mixStereo(out, frames, mono_.get());
    }
    float peak = 0.0f;
    for (int k = 0; k < 8; ++k) peak = std::max(peak, loudest[k]);
    // The frames after the last whole eight, lanes added in the same tree as above: a frame's
    // bits must not depend on whether a block's end left it in the tail.
    for (; n < frames; ++n) {
        mono[n] = (dsp::simd::laneTree(sums[n]) + direct_[n]) * kMasterGain;
        peak = std::max(peak, std::fabs(mono[n]));
    }
    if (peak > dsp::SoftClipper::kKnee) {
        for (n = 0; n < frames; ++n) mono[n] = dsp::SoftClipper::process(mono[n]);
        peak = dsp::SoftClipper::process(peak);  // the clipper is monotonic
    }
    if (channels > 1) {
        for (n = 0; n < frames; ++n)
            for (uint32_t ch = 0; ch < channels; ++ch) out[n * channels + ch] = mono[n];
    }
    return peak;
}

namespace {

// The lanes of l and r interleaved into out: left and right of each frame in turn.
BOOP_SIMD_INLINE void interleave(dsp::simd::f4 l, dsp::simd::f4 r, float* out) noexcept {
    const dsp::simd::f4 low = __builtin_shufflevector(l, r, 0, 4, 1, 5),
                        high = __builtin_shufflevector(l, r, 2, 6, 3, 7);
    std::memcpy(out, &low, sizeof low);
    std::memcpy(out + 4, &high, sizeof high);
}
BOOP_SIMD_INLINE void interleave(dsp::simd::f8 l, dsp::simd::f8 r, float* out) noexcept {
    const dsp::simd::f8 low = __builtin_shufflevector(l, r, 0, 8, 1, 9, 2, 10, 3, 11);
    const dsp::simd::f8 high = __builtin_shufflevector(l, r, 4, 12, 5, 13, 6, 14, 7, 15);
    std::memcpy(out, &low, sizeof low);
    std::memcpy(out + 8, &high, sizeof high);
}

// Frames [0, W x (frames / W)) of a stereo output, W frames at a time (the lanes of F: four on
// the baseline, eight with AVX2, the same operations on each frame and no FMA, so the same
// samples): each side is the centred mix plus its side times the master gain; peak takes the
// loudest. Returns how many frames it wrote.
template <class F>
BOOP_SIMD_INLINE uint32_t stereoGroups(const float* mono, const float* left, const float* right, float* out,
                                       uint32_t frames, float& peak) noexcept {
    constexpr uint32_t kWidth = sizeof(F) / sizeof(float);
    F loudest{};
    uint32_t n = 0;
    for (; n + kWidth <= frames; n += kWidth) {
        F m, l, r;
        std::memcpy(&m, mono + n, sizeof m);
        std::memcpy(&l, left + n, sizeof l);
        std::memcpy(&r, right + n, sizeof r);
        l = m + l * Engine::kMasterGain;
        r = m + r * Engine::kMasterGain;
        loudest = dsp::simd::max(loudest, dsp::simd::max(dsp::simd::abs(l), dsp::simd::abs(r)));
        interleave(l, r, out + 2 * n);
    }
    for (uint32_t k = 0; k < kWidth; ++k) peak = std::max(peak, loudest[k]);
    return n;
}

uint32_t stereoFours(const float* mono, const float* left, const float* right, float* out, uint32_t frames,
                     float& peak) noexcept {
    return stereoGroups<dsp::simd::f4>(mono, left, right, out, frames, peak);
}

#if defined(BOOP_HAVE_AVX2_FOLD)
__attribute__((target("avx2"))) uint32_t stereoEightsAvx2(const float* mono, const float* left, const float* right,
                                                          float* out, uint32_t frames, float& peak) noexcept {
    return stereoGroups<dsp::simd::f8>(mono, left, right, out, frames, peak);
}
#endif

}  // namespace

// The slice with instrument voices or kits sounding: each channel is the centred mix plus its
// side of the stereo pair (a mono output takes their mean) through the soft clipper. Returns the
// peak.
float Engine::mixStereo(float* out, uint32_t frames, const float* centre) BOOP_RT {
    const float* mono = centre;
    const float* left = left_.get();
    const float* right = right_.get();
    const uint32_t channels = config_.channels;
    float peak = 0.0f;
    if (channels == 1) {
        for (uint32_t n = 0; n < frames; ++n) {
            out[n] = mono[n] + 0.5f * (left[n] + right[n]) * kMasterGain;
            peak = std::max(peak, std::fabs(out[n]));
        }
    } else if (channels == 2) {
        // The usual stereo output four frames at a time, then the rest frame by frame: the same
        // operations per frame as the general loop below, so the same bits.
#if defined(BOOP_HAVE_AVX2_FOLD)
        uint32_t n = wide_ ? stereoEightsAvx2(mono, left, right, out, frames, peak)
                           : stereoFours(mono, left, right, out, frames, peak);
#else
        uint32_t n = stereoFours(mono, left, right, out, frames, peak);
#endif
        for (; n < frames; ++n) {
            const float l = mono[n] + left[n] * kMasterGain;
            const float r = mono[n] + right[n] * kMasterGain;
            peak = std::max(peak, std::max(std::fabs(l), std::fabs(r)));
            out[2 * n] = l;
            out[2 * n + 1] = r;
        }
    } else {
        for (uint32_t n = 0; n < frames; ++n) {
            const float l = mono[n] + left[n] * kMasterGain;
            const float r = mono[n] + right[n] * kMasterGain;
            peak = std::max(peak, std::max(std::fabs(l), std::fabs(r)));
            out[n * channels] = l;
            out[n * channels + 1] = r;
            for (uint32_t ch = 2; ch < channels; ++ch) out[n * channels + ch] = 0.5f * (l + r);
        }
    }
    // The clipper only when something reaches its knee (below it, it is the identity).
    if (peak > dsp::SoftClipper::kKnee) {
        for (uint32_t i = 0; i < frames * channels; ++i) out[i] = dsp::SoftClipper::process(out[i]);
        peak = dsp::SoftClipper::process(peak);
    }
    return peak;
}

}  // namespace boop
