#pragma once
#include <cmath>
#include <vector>
#include "rt/Realtime.hpp"

namespace boop::ambient {

// Stereo ping-pong delay: the left line feeds the right and the right feeds the left, so echoes
// alternate sides. A one-pole lowpass in the feedback path (damping) darkens each repeat like tape.
// The delay time glides (one-pole on the read offset) so changing it never jumps.
// Lines are allocated in prepare only.
class PingPongDelay {
  public:
    // Allocates: lines long enough for maxSeconds.
    void prepare(double sampleRate, double maxSeconds) {
        sampleRate_ = sampleRate;
        size_ = static_cast<int>(std::ceil(maxSeconds * sampleRate)) + 4;
        left_.assign(static_cast<size_t>(size_), 0.0f);
        right_.assign(static_cast<size_t>(size_), 0.0f);
        glideCoef_ = static_cast<float>(1.0 - std::exp(-1.0 / (0.25 * sampleRate)));
        setTime(timeSeconds_);
        reset();
    }
    void reset() BOOP_RT {
        for (auto& x : left_) x = 0.0f;
        for (auto& x : right_) x = 0.0f;
        write_ = 0;
        dampL_ = dampR_ = 0.0f;
        current_ = target_;
    }

    void setTime(double seconds) BOOP_RT {
        timeSeconds_ = seconds;
        float frames = static_cast<float>(seconds * sampleRate_);
        const float maxFrames = static_cast<float>(size_ - 3);
        if (frames < 1.0f) frames = 1.0f;
        if (frames > maxFrames) frames = maxFrames;
        target_ = frames;
    }
    void setFeedback(float fb) BOOP_RT { feedback_ = fb < 0.0f ? 0.0f : (fb > 0.98f ? 0.98f : fb); }
    // 0 = bright repeats, 1 = very dark.
    void setDamping(float d) BOOP_RT {
        d = d < 0.0f ? 0.0f : (d > 1.0f ? 1.0f : d);
        dampCoef_ = 1.0f - 0.95f * d;  // one-pole lowpass gain
    }

    // Mono in (already summed by the caller), stereo wet out (overwrites).
    void process(const float* in, float* outL, float* outR, int n) BOOP_RT {
        for (int i = 0; i < n; ++i) {
            current_ += (target_ - current_) * glideCoef_;
            const float yl = read(left_.data(), current_);
            const float yr = read(right_.data(), current_);
            dampL_ += (yl - dampL_) * dampCoef_;
            dampR_ += (yr - dampR_) * dampCoef_;
            left_[static_cast<size_t>(write_)] = in[i] + feedback_ * dampR_;
            right_[static_cast<size_t>(write_)] = feedback_ * dampL_;
            if (++write_ >= size_) write_ = 0;
            outL[i] = yl;
            outR[i] = yr;
        }
    }

  private:
    float read(const float* line, float delayFrames) const BOOP_RT {
        float pos = static_cast<float>(write_) - delayFrames;
        if (pos < 0.0f) pos += static_cast<float>(size_);
        int i0 = static_cast<int>(pos);
        const float frac = pos - static_cast<float>(i0);
        if (i0 >= size_) i0 -= size_;
        int i1 = i0 + 1;
        if (i1 >= size_) i1 = 0;
        return line[i0] + (line[i1] - line[i0]) * frac;
    }

    double sampleRate_ = 48000.0;
    double timeSeconds_ = 0.375;
    std::vector<float> left_, right_;
    int size_ = 0, write_ = 0;
    float target_ = 1.0f, current_ = 1.0f, glideCoef_ = 0.0f;
    float feedback_ = 0.4f, dampCoef_ = 0.7f, dampL_ = 0.0f, dampR_ = 0.0f;
};

}  // namespace boop::ambient
