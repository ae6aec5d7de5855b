#pragma once
#include <cmath>
#include <vector>
#include "rt/Realtime.hpp"

namespace boop::ambient {

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
        lines_.assign(static_cast<size_t>(total), 0.0f);
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
    double decaySeconds() const BOOP_RT { return decay_; }
    int lineLength(int i) const BOOP_RT { return len_[i]; }

    // Stereo in, stereo wet out (overwrites outL/outR; in and out may not alias).
    void process(const float* inL, const float* inR, float* outL, float* outR, int n) BOOP_RT {
        float* lines = lines_.data();
        for (int s = 0; s < n; ++s) {
            const float dl = diffuse(diffuse(inL[s], 0), 1);
            const float dr = diffuse(diffuse(inR[s], 2), 3);
            float y[kLines];
            float sum = 0.0f;
            float oL = 0.0f, oR = 0.0f;
            for (int i = 0; i < kLines; ++i) {
                const float o = lines[offset_[i] + pos_[i]];
                damp_[i] += (o - damp_[i]) * dampCoef_;
                y[i] = damp_[i] * gain_[i];
                sum += y[i];
                if (i & 1)
                    oR += kOutSign[i] * o;
                else
                    oL += kOutSign[i] * o;
            }
            const float h = sum * (2.0f / kLines);
            for (int i = 0; i < kLines; ++i) {
                const float in = (i & 1) ? dr : dl;
                lines[offset_[i] + pos_[i]] = y[i] - h + kInSign[i] * in;
                if (++pos_[i] >= len_[i]) pos_[i] = 0;
            }
            outL[s] = oL * 0.5f;
            outR[s] = oR * 0.5f;
        }
    }

  private:
    static constexpr int kAllpasses = 4;
    static constexpr double kMaxScale = 2.0;
    static constexpr double kBaseMs[kLines] = {31.7, 37.3, 41.9, 46.7, 53.1, 59.3, 67.1, 73.9};
    static constexpr double kAllpassMs[kAllpasses] = {4.7, 3.7, 5.3, 3.1};
    static constexpr float kInSign[kLines] = {1, 1, -1, 1, 1, -1, -1, -1};
    static constexpr float kOutSign[kLines] = {1, -1, 1, 1, -1, 1, 1, -1};

    float diffuse(float x, int k) BOOP_RT {
        constexpr float g = 0.6f;
        float& slot = allpass_[static_cast<size_t>(apOffset_[k] + apPos_[k])];
        const float d = slot;
        const float v = x + g * d;
        slot = v;
        if (++apPos_[k] >= apLen_[k]) apPos_[k] = 0;
        return d - g * v;
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
    float gain_[kLines] = {}, damp_[kLines] = {};
    int apOffset_[kAllpasses] = {}, apLen_[kAllpasses] = {}, apPos_[kAllpasses] = {};
};

}  // namespace boop::ambient
