#pragma once
#include <cmath>
#include <cstdint>
#include <vector>
#include "dsp/Rng.hpp"
#include "rt/Realtime.hpp"

namespace boop::ambient {

// Granular cloud over the last few seconds of its input: the input is written into a circular
// buffer, and grains (Hann-windowed, randomly placed in the past, randomly panned, some
// transposed by an octave or a fifth) are read back from it. All randomness comes from its own
// seeded stream, so the cloud is identical for identical input and seed.
class Granulator {
  public:
    static constexpr int kMaxGrains = 24;
    static constexpr int kWindowSize = 1024;

    // Allocates the circular buffer and the window table.
    void prepare(double sampleRate, std::uint64_t seed, double bufferSeconds = 3.0) {
        sampleRate_ = sampleRate;
        seed_ = seed;
        size_ = static_cast<int>(std::ceil(bufferSeconds * sampleRate));
        buffer_.assign(static_cast<size_t>(size_), 0.0f);
        window_.assign(kWindowSize + 1, 0.0f);
        for (int i = 0; i <= kWindowSize; ++i)
            window_[static_cast<size_t>(i)] =
                static_cast<float>(0.5 - 0.5 * std::cos(6.283185307179586 * i / kWindowSize));
        setGrain(grainSeconds_, density_);
        reset();
    }

    void reset() BOOP_RT {
        for (auto& x : buffer_) x = 0.0f;
        for (auto& g : grains_) g = Grain{};
        write_ = 0;
        written_ = 0;
        rng_.seedWith(seed_, kStreamGrain);
        untilNext_ = 0.0;
    }

    // grainSeconds 0.01 ... 0.5; density in grains per second 0.2 ... 80.
    void setGrain(double grainSeconds, double density) BOOP_RT {
        grainSeconds_ = grainSeconds < 0.01 ? 0.01 : (grainSeconds > 0.5 ? 0.5 : grainSeconds);
        density_ = density < 0.2 ? 0.2 : (density > 80.0 ? 80.0 : density);
        const double overlap = density_ * grainSeconds_;
        norm_ = static_cast<float>(1.0 / std::sqrt(overlap < 1.0 ? 1.0 : overlap));
    }
    // 0 = every grain at the original pitch; 1 = most grains transposed.
    void setPitchSpread(float p) BOOP_RT { pitchSpread_ = p < 0.0f ? 0.0f : (p > 1.0f ? 1.0f : p); }

    int activeGrains() const BOOP_RT {
        int n = 0;
        for (const auto& g : grains_) n += g.active ? 1 : 0;
        return n;
    }

    void process(const float* in, float* outL, float* outR, int n) BOOP_RT {
        const float* buf = buffer_.data();
        for (int i = 0; i < n; ++i) {
            buffer_[static_cast<size_t>(write_)] = in[i];
            if (++write_ >= size_) write_ = 0;
            if (written_ < size_) ++written_;
            untilNext_ -= 1.0;
            if (untilNext_ <= 0.0) {
                spawn();
                untilNext_ += sampleRate_ / density_ * (0.5 + rng_.uniform());
            }
            float l = 0.0f, r = 0.0f;
            for (auto& g : grains_) {
                if (!g.active) continue;
                const float w = windowAt(static_cast<float>(g.age) * g.invLen);
                int i0 = static_cast<int>(g.pos);
                const float frac = static_cast<float>(g.pos - i0);
                if (i0 >= size_) i0 -= size_;
                int i1 = i0 + 1;
                if (i1 >= size_) i1 = 0;
                const float s = (buf[i0] + (buf[i1] - buf[i0]) * frac) * w * g.amp;
                l += s * g.panL;
                r += s * g.panR;
                g.pos += g.ratio;
                if (g.pos >= size_) g.pos -= size_;
                if (++g.age >= g.len) g.active = false;
            }
            outL[i] = l * norm_;
            outR[i] = r * norm_;
        }
    }

  private:
    struct Grain {
        bool active = false;
        double pos = 0.0, ratio = 1.0;
        int age = 0, len = 1;
        float invLen = 1.0f, amp = 0.0f, panL = 0.0f, panR = 0.0f;
    };

    float windowAt(float t) const BOOP_RT {
        const float x = t * kWindowSize;
        int i = static_cast<int>(x);
        if (i >= kWindowSize) return 0.0f;
        const float f = x - static_cast<float>(i);
        return window_[static_cast<size_t>(i)] +
               (window_[static_cast<size_t>(i) + 1] - window_[static_cast<size_t>(i)]) * f;
    }

    void spawn() BOOP_RT {
        Grain* slot = nullptr;
        for (auto& g : grains_)
            if (!g.active) {
                slot = &g;
                break;
            }
        // Draw the same numbers whether or not a slot is free, so the stream never depends on
        // how many grains happen to be sounding.
        const float uLen = rng_.uniform(), uPitch = rng_.uniform(), uWhich = rng_.uniform();
        const float uBack = rng_.uniform(), uPan = rng_.uniform(), uAmp = rng_.uniform();
        if (!slot) return;
        double ratio = 1.0;
        if (uPitch < pitchSpread_) {
            ratio = uWhich < 0.45f ? 2.0 : (uWhich < 0.75f ? 0.5 : 1.5);
        }
        const int len = static_cast<int>(grainSeconds_ * sampleRate_ * (0.7 + 0.6 * uLen));
        // Start far enough back that a faster-than-input grain never overtakes the write head.
        const double need = len * (ratio > 1.0 ? ratio : 1.0) + 2.0;
        double back = need + uBack * 1.2 * sampleRate_;
        const double maxBack = static_cast<double>(written_) - 2.0;
        if (back > maxBack) back = maxBack;
        if (back < need) return;  // not enough history yet
        double pos = static_cast<double>(write_) - back;
        if (pos < 0.0) pos += size_;
        const float pan = uPan;
        *slot = Grain{true,
                      pos,
                      ratio,
                      0,
                      len < 1 ? 1 : len,
                      1.0f / static_cast<float>(len < 1 ? 1 : len),
                      0.6f + 0.4f * uAmp,
                      std::sqrt(1.0f - pan),
                      std::sqrt(pan)};
    }

    double sampleRate_ = 48000.0;
    std::uint64_t seed_ = 0;
    std::vector<float> buffer_, window_;
    int size_ = 1, write_ = 0, written_ = 0;
    Grain grains_[kMaxGrains];
    Rng rng_;
    double untilNext_ = 0.0;
    double grainSeconds_ = 0.12, density_ = 10.0;
    float pitchSpread_ = 0.3f, norm_ = 1.0f;
};

}  // namespace boop::ambient
