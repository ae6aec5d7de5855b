#pragma once
#include <cmath>
#include <cstdlib>
#include <vector>
#include "dsp/OnePole.hpp"
#include "dsp/SimdTypes.hpp"
#include "rt/Realtime.hpp"

namespace boop {
namespace dsp {

// Feedback-delay-network reverb: 8 delay lines mixed through a Householder matrix
// (A = I - 2/N * 1 1^T, orthogonal, so the loop is lossless before the per-line gains).
// Each line's gain g_i = 10^(-3 L_i / (T60 fs)) makes every recirculation path lose 60 dB in
// T60 seconds whatever its length, so the set decay time holds; a one-pole lowpass inside each
// loop (damping) shortens the high-frequency decay, as air and soft walls do.
// Two short allpasses per input channel diffuse onsets before they enter the network.
class FdnReverb {
  public:
    static constexpr int kLines = 8;

    // Allocates every line for the largest size.
    void prepare(double sampleRate) {
        sampleRate_ = sampleRate;
        int total = 0;
        for (int i = 0; i < kLines; ++i) {
            maxLen_[i] = static_cast<int>(std::ceil(kBaseMs[i] * 0.001 * kMaxScale * sampleRate)) + 2;
            offset_[i] = total;
            total += maxLen_[i];
        }
        // Padding: the last line's final group of eight may read up to 7 samples past its end.
        lines_.assign(static_cast<size_t>(total) + 8, 0.0f);
        int apTotal = 0;
        for (int i = 0; i < kAllpasses; ++i) {
            apLen_[i] = static_cast<int>(std::lround(kAllpassMs[i] * 0.001 * sampleRate));
            if (apLen_[i] < 1) apLen_[i] = 1;
            apOffset_[i] = apTotal;
            apTotal += apLen_[i];
        }
        allpass_.assign(static_cast<size_t>(apTotal), 0.0f);
        setSize(size_);
        reset();
    }

    void reset() BOOP_RT {
        for (auto& x : lines_) x = 0.0f;
        for (auto& x : allpass_) x = 0.0f;
        for (int i = 0; i < kLines; ++i) {
            pos_[i] = 0;
            damp_[i] = 0.0f;
        }
        for (int i = 0; i < kAllpasses; ++i) apPos_[i] = 0;
    }

    // size 0 ... 1 scales the line lengths 0.35x ... 2x (small room ... hall). Changes the
    // lengths immediately: set it before rendering, not while sound is in the lines.
    void setSize(float size) BOOP_RT {
        size_ = size < 0.0f ? 0.0f : (size > 1.0f ? 1.0f : size);
        const double scale = 0.35 + (kMaxScale - 0.35) * static_cast<double>(size_);
        for (int i = 0; i < kLines; ++i) {
            int len = static_cast<int>(std::lround(kBaseMs[i] * 0.001 * scale * sampleRate_));
            if (len < 2) len = 2;
            if (len > maxLen_[i] - 1) len = maxLen_[i] - 1;
            len_[i] = len;
            if (pos_[i] >= len) pos_[i] = 0;
        }
        updateGains();
    }
    void setDecay(double t60Seconds) BOOP_RT {
        decay_ = t60Seconds < 0.05 ? 0.05 : (t60Seconds > 100.0 ? 100.0 : t60Seconds);
        updateGains();
    }
    // 0 = no high-frequency loss, 1 = very dark tail.
    void setDamping(float d) BOOP_RT {
        d = d < 0.0f ? 0.0f : (d > 1.0f ? 1.0f : d);
        dampCoef_ = 1.0f - 0.9f * d;
    }
    int lineLength(int i) const BOOP_RT { return len_[i]; }

    // Stereo in, stereo wet out (overwrites outL/outR; in and out may not alias).
    //
    // Rendered in stretches where no line and no allpass wraps (at most kBlock frames). Every
    // delay is longer than such a stretch, so everything a stretch reads was written before it:
    // the allpasses run as plain loops along time, each line's samples are copied into a tile of
    // one vector per frame (the eight lines as lanes), and only the damping one-poles are a
    // recursion — one vector per frame. The sums across lines (the Householder feedback and the two
    // outputs) are taken for eight frames at once, each frame's the same tree whatever the split.
    // Compiled for the baseline and, where the CPU has them, for AVX2 + FMA (one register per
    // vector of lines), chosen at construction.
    void process(const float* inL, const float* inR, float* outL, float* outR, int n) BOOP_RT {
        kernel_(*this, inL, inR, outL, outR, n);
    }

  private:
    using Kernel = void (*)(FdnReverb&, const float*, const float*, float*, float*, int) BOOP_RT;
    static void renderBaseline(FdnReverb& rv, const float* inL, const float* inR, float* outL, float* outR,
                               int n) BOOP_RT {
        rv.render(inL, inR, outL, outR, n);
    }
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    __attribute__((target("avx2,fma"))) static void renderAvx2(FdnReverb& rv, const float* inL, const float* inR,
                                                               float* outL, float* outR, int n) BOOP_RT {
        rv.render(inL, inR, outL, outR, n);
    }
#endif
    static Kernel chooseKernel() noexcept {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
        if (simd::useAvx2()) return renderAvx2;
#endif
        return renderBaseline;
    }

    BOOP_SIMD_INLINE void render(const float* inL, const float* inR, float* outL, float* outR, int n) noexcept {
        using simd::f8;
        float* const lines = lines_.data();
        f8 damp = *reinterpret_cast<const f8*>(damp_);
        const f8 gain = *reinterpret_cast<const f8*>(gain_);
        const float coef = dampCoef_;
        const f8 inSignL = {kInSign[0], 0, kInSign[2], 0, kInSign[4], 0, kInSign[6], 0};
        const f8 inSignR = {0, kInSign[1], 0, kInSign[3], 0, kInSign[5], 0, kInSign[7]};
        // The outputs' 0.5 is folded into the signs (a power of two: the same bits).
        const f8 outSignL = {0.5f * kOutSign[0], 0, 0.5f * kOutSign[2], 0,
                             0.5f * kOutSign[4], 0, 0.5f * kOutSign[6], 0};
        const f8 outSignR = {0, 0.5f * kOutSign[1], 0, 0.5f * kOutSign[3],
                             0, 0.5f * kOutSign[5], 0, 0.5f * kOutSign[7]};
        float dl[kBlock + 8], dr[kBlock + 8];
        for (int done = 0; done < n;) {
            const int m = stretch(n - done);
            diffuseStretch(inL + done, inR + done, dl, dr, m);

            float* at[kLines];
            for (int i = 0; i < kLines; ++i) at[i] = lines + offset_[i] + pos_[i];
            for (int g = 0; g < m; g += 8) {
                // Eight frames of each line (past the stretch's end only into the lines' padding
                // or the next samples, which are read and never written), turned into one vector
                // of the eight lines per frame. Lanes of frames beyond the stretch are not used.
                const int k = m - g < 8 ? m - g : 8;
                f8 o[8], y[8], l[8], r[8];
                for (int i = 0; i < kLines; ++i) o[i] = *reinterpret_cast<const simd::f8u*>(at[i] + g);
                simd::transpose8(o);
                for (int f = 0; f < k; ++f) y[f] = onePole(damp, o[f], coef) * gain;
                for (int f = k; f < 8; ++f) y[f] = f8{};
                for (int f = 0; f < 8; ++f) {
                    l[f] = o[f] * outSignL;
                    r[f] = o[f] * outSignR;
                }
                const f8 h = simd::laneTrees(y) * (2.0f / kLines);
                const f8 oL = simd::laneTrees(l), oR = simd::laneTrees(r);
                for (int f = 0; f < 8; ++f) y[f] = (y[f] - h[f]) + inSignL * dl[g + f] + inSignR * dr[g + f];
                simd::transpose8(y);
                storeGroup(at, g, k, y, oL, oR, outL + done + g, outR + done + g);
            }
            for (int i = 0; i < kLines; ++i) {
                pos_[i] += m;
                if (pos_[i] >= len_[i]) pos_[i] = 0;
            }
            done += m;
        }
        *reinterpret_cast<f8*>(damp_) = damp;
    }

    static constexpr int kAllpasses = 4;
    static constexpr double kMaxScale = 2.0;
    static constexpr double kBaseMs[kLines] = {31.7, 37.3, 41.9, 46.7, 53.1, 59.3, 67.1, 73.9};
    static constexpr double kAllpassMs[kAllpasses] = {4.7, 3.7, 5.3, 3.1};
    static constexpr float kInSign[kLines] = {1, 1, -1, 1, 1, -1, -1, -1};
    static constexpr float kOutSign[kLines] = {1, -1, 1, 1, -1, 1, 1, -1};

    static constexpr int kBlock = 32;

    // The k frames of a group: the outputs, and each line's new samples (y[i], line i's frames).
    BOOP_SIMD_INLINE static void storeGroup(float* const* at, int g, int k, const simd::f8* y, simd::f8 oL, simd::f8 oR,
                                            float* outL, float* outR) noexcept {
        if (k == 8) {
            *reinterpret_cast<simd::f8u*>(outL) = oL;
            *reinterpret_cast<simd::f8u*>(outR) = oR;
            for (int i = 0; i < kLines; ++i) *reinterpret_cast<simd::f8u*>(at[i] + g) = y[i];
        } else {
            for (int f = 0; f < k; ++f) {
                outL[f] = oL[f];
                outR[f] = oR[f];
            }
            for (int i = 0; i < kLines; ++i)
                for (int f = 0; f < k; ++f) at[i][g + f] = y[i][f];
        }
    }

    // The frames until the next wrap of a line or an allpass: at most `left` and kBlock.
    BOOP_SIMD_INLINE int stretch(int left) const noexcept {
        int m = left < kBlock ? left : kBlock;
        for (int i = 0; i < kLines; ++i) m = len_[i] - pos_[i] < m ? len_[i] - pos_[i] : m;
        for (int k = 0; k < kAllpasses; ++k) m = apLen_[k] - apPos_[k] < m ? apLen_[k] - apPos_[k] : m;
        return m;
    }

    // A stretch of m frames of each input channel through its two allpasses, into dl and dr.
    BOOP_SIMD_INLINE void diffuseStretch(const float* inL, const float* inR, float* dl, float* dr, int m) noexcept {
        float* const ap = allpass_.data();
        diffuse(ap + apOffset_[0] + apPos_[0], inL, dl, m);
        diffuse(ap + apOffset_[1] + apPos_[1], dl, dl, m);
        diffuse(ap + apOffset_[2] + apPos_[2], inR, dr, m);
        diffuse(ap + apOffset_[3] + apPos_[3], dr, dr, m);
        for (int k = 0; k < kAllpasses; ++k) {
            apPos_[k] += m;
            if (apPos_[k] >= apLen_[k]) apPos_[k] = 0;
        }
    }

    // An allpass over m frames that do not wrap its line (m <= its length: each slot is read
    // before it is written). x and y may be the same array.
    BOOP_SIMD_INLINE static void diffuse(float* line, const float* x, float* y, int m) noexcept {
        constexpr float g = 0.6f;
        for (int s = 0; s < m; ++s) {
            const float d = line[s];
            const float v = x[s] + g * d;
            line[s] = v;
            y[s] = d - g * v;
        }
    }

    void updateGains() BOOP_RT {
        for (int i = 0; i < kLines; ++i)
            gain_[i] = static_cast<float>(std::pow(10.0, -3.0 * len_[i] / (decay_ * sampleRate_)));
    }

    double sampleRate_ = 48000.0;
    float size_ = 0.6f;
    double decay_ = 4.0;
    float dampCoef_ = 0.7f;
    std::vector<float> lines_, allpass_;
    int offset_[kLines] = {}, maxLen_[kLines] = {}, len_[kLines] = {}, pos_[kLines] = {};
    alignas(32) float gain_[kLines] = {};
    alignas(32) float damp_[kLines] = {};
    int apOffset_[kAllpasses] = {}, apLen_[kAllpasses] = {}, apPos_[kAllpasses] = {};
    Kernel kernel_ = chooseKernel();
};

}  // namespace dsp
}  // namespace boop
