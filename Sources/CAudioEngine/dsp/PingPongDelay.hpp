#pragma once
#include <cmath>
#include <vector>
#include "dsp/OnePole.hpp"
#include "rt/Realtime.hpp"

namespace boop {
namespace dsp {

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
        // The state lives in locals: written through members, every store to a line would make
        // the compiler reload it (the lines could alias the object), a round trip through memory
        // on the loop's critical path.
        float* const left = left_.data();
        float* const right = right_.data();
        const int size = size_;
        const float sizeF = static_cast<float>(size);
        const float target = target_, glide = glideCoef_, fb = feedback_, damp = dampCoef_;
        float current = current_, dl = dampL_, dr = dampR_;
        int write = write_;
        for (int i = 0; i < n; ++i) {
            onePole(current, target, glide);
            float pos = static_cast<float>(write) - current;
            pos = pos < 0.0f ? pos + sizeF : pos;
            int i0 = static_cast<int>(pos);
            const float frac = pos - static_cast<float>(i0);
            i0 = i0 >= size ? i0 - size : i0;
            const int i1 = i0 + 1 >= size ? 0 : i0 + 1;
            const float yl = left[i0] + (left[i1] - left[i0]) * frac;
            const float yr = right[i0] + (right[i1] - right[i0]) * frac;
            onePole(dl, yl, damp);
            onePole(dr, yr, damp);
            left[write] = in[i] + fb * dr;
            right[write] = fb * dl;
            write = write + 1 >= size ? 0 : write + 1;
            outL[i] = yl;
            outR[i] = yr;
        }
        current_ = current;
        dampL_ = dl;
        dampR_ = dr;
        write_ = write;
    }

  private:
    double sampleRate_ = 48000.0;
    double timeSeconds_ = 0.375;
    std::vector<float> left_, right_;
    int size_ = 0, write_ = 0;
    float target_ = 1.0f, current_ = 1.0f, glideCoef_ = 0.0f;
    float feedback_ = 0.4f, dampCoef_ = 0.7f, dampL_ = 0.0f, dampR_ = 0.0f;
};

}  // namespace dsp
}  // namespace boop
