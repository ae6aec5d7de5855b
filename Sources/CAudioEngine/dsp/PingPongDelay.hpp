#pragma once
#include <cmath>
#include <vector>
#include "dsp/GrainKernel.hpp"
#include "dsp/OnePole.hpp"
#include "dsp/SimdTypes.hpp"
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
        glideCoef_ = static_cast<float>(onePoleCoef(0.25, sampleRate));
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
        Run r = begin();
        for (int i = 0; i < n; ++i) step(r, in[i], outL[i], outR[i]);
        end(r);
    }

    // process() in parts, for a caller that steps the echo frame by frame beside other work (so
    // the recursions overlap): begin takes the state into `Run`, step makes one frame, end keeps
    // the state. The state lives in locals: written through members, every store to a line would
    // make the compiler reload it (the lines could alias the object), a round trip through memory
    // on the loop's critical path.
    struct Run {
        float* left;
        float* right;
        int size, write;
        float sizeF, target, glide, fb, damp, current, dl, dr;
    };
    Run begin() BOOP_RT {
        return Run{left_.data(), right_.data(), size_,     write_,    static_cast<float>(size_),
                   target_,      glideCoef_,    feedback_, dampCoef_, current_,
                   dampL_,       dampR_};
    }
    static BOOP_SIMD_INLINE void step(Run& r, float in, float& outL, float& outR) noexcept {
        onePole(r.current, r.target, r.glide);
        float pos = static_cast<float>(r.write) - r.current;
        pos = pos < 0.0f ? pos + r.sizeF : pos;
        int i0 = static_cast<int>(pos);
        const float frac = pos - static_cast<float>(i0);
        i0 = i0 >= r.size ? i0 - r.size : i0;
        const int i1 = i0 + 1 >= r.size ? 0 : i0 + 1;
        const float yl = r.left[i0] + (r.left[i1] - r.left[i0]) * frac;
        const float yr = r.right[i0] + (r.right[i1] - r.right[i0]) * frac;
        feed(r, in, yl, yr, outL, outR);
    }
    // step() for a frame whose reads (yl, yr) readAhead made.
    static BOOP_SIMD_INLINE void feed(Run& r, float in, float yl, float yr, float& outL, float& outR) noexcept {
        onePole(r.dl, yl, r.damp);
        onePole(r.dr, yr, r.damp);
        r.left[r.write] = in + r.fb * r.dr;
        r.right[r.write] = r.fb * r.dl;
        r.write = r.write + 1 >= r.size ? 0 : r.write + 1;
        outL = yl;
        outR = yr;
    }
    // The reads of the next m frames (at most 64), made before any of them: possible when the
    // delay time has arrived (its glide leaves it where it is) and is longer than m frames, so
    // no frame reads what an earlier one of them writes. Then yl, yr get what step() would read
    // and the frames are made with feed(); false otherwise (and on CPUs without AVX2).
    bool readAhead(int m, float* yl, float* yr) BOOP_RT {
        float next = current_;
        onePole(next, target_, glideCoef_);
        if (!avx2_ || next != current_ || !(current_ >= static_cast<float>(m) + 8.0f)) return false;
        const PingPongReads reads{left_.data(), right_.data(), size_, write_, static_cast<float>(size_), current_};
        readFrames(reads, m, yl, yr);
        return true;
    }
    void end(const Run& r) BOOP_RT {
        current_ = r.current;
        dampL_ = r.dl;
        dampR_ = r.dr;
        write_ = r.write;
    }

  private:
    double sampleRate_ = 48000.0;
    double timeSeconds_ = 0.375;
    std::vector<float> left_, right_;
    int size_ = 0, write_ = 0;
    float target_ = 1.0f, current_ = 1.0f, glideCoef_ = 0.0f;
    float feedback_ = 0.4f, dampCoef_ = 0.7f, dampL_ = 0.0f, dampR_ = 0.0f;
    bool avx2_ = simd::useAvx2();
};

}  // namespace dsp
}  // namespace boop
