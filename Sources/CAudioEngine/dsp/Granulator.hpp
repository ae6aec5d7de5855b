#pragma once
#include <cmath>
#include <cstdint>
#include <vector>
#include "dsp/GrainKernel.hpp"
#include "dsp/Rng.hpp"
#include "dsp/SimdTypes.hpp"
#include "rt/Realtime.hpp"

namespace boop {
namespace dsp {

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

    // Rendered grain by grain over stretches of frames that start where a grain may be spawned
    // (or where the call starts) and hold no other spawn: the stretch's input is written first,
    // then each sounding grain adds its frames into the outputs, grains in slot order, so every
    // frame's sum is added in the order a frame-by-frame loop adds it.
    void process(const float* in, float* outL, float* outR, int n) BOOP_RT {
        for (int i = 0; i < n; ++i) outL[i] = outR[i] = 0.0f;
        int a = 0;
        while (a < n) {
            const int w0 = write_;
            // The stretch's first frame, which may spawn a grain once its input is in.
            const float old0 = write(in[a]);
            untilNext_ -= 1.0;
            if (untilNext_ <= 0.0) {
                spawn();
                untilNext_ += sampleRate_ / density_ * (0.5 + rng_.uniform());
            }
            // The next spawn is at the first later frame where untilNext_ has fallen to 0 or below:
            // j frames on, j >= untilNext_ (subtracting whole frames from it is exact).
            int j = static_cast<int>(untilNext_);
            if (static_cast<double>(j) < untilNext_) ++j;
            const int b = j < n - a ? a + j : n;
            float old[kMaxStretch];
            old[0] = old0;
            int m = 1;
            for (; a + m < b && m < kMaxStretch; ++m) old[m] = write(in[a + m]);
            untilNext_ -= static_cast<double>(m - 1);
            for (auto& g : grains_)
                if (g.active) render(g, w0, old, m, outL + a, outR + a);
            a += m;
        }
        for (int i = 0; i < n; ++i) {
            outL[i] *= norm_;
            outR[i] *= norm_;
        }
    }

  private:
    struct Grain {
        bool active = false;
        double pos = 0.0, ratio = 1.0;
        int age = 0, len = 1;
        float invLen = 1.0f, amp = 0.0f, panL = 0.0f, panR = 0.0f;
    };

    static constexpr int kMaxStretch = 64;

    // Writes one input frame; returns the sample it replaced.
    float write(float x) BOOP_RT {
        float& slot = buffer_[static_cast<size_t>(write_)];
        const float replaced = slot;
        slot = x;
        if (++write_ >= size_) write_ = 0;
        if (written_ < size_) ++written_;
        return replaced;
    }

    float windowAt(float t) const BOOP_RT {
        const float x = t * kWindowSize;
        int i = static_cast<int>(x);
        if (i >= kWindowSize) return 0.0f;
        const float f = x - static_cast<float>(i);
        return window_[static_cast<size_t>(i)] +
               (window_[static_cast<size_t>(i) + 1] - window_[static_cast<size_t>(i)]) * f;
    }

    // One grain over the m frames of a stretch whose input (written from slot w0 on, old[] the
    // samples it replaced) is already in the buffer, added into l and r.
    void render(Grain& g, int w0, const float* old, int m, float* l, float* r) BOOP_RT {
        const float* buf = buffer_.data();
        const int size = size_;
        // A grain reads at least two frames behind the write head; it could only see a sample the
        // stretch wrote too early if it read within the stretch's length of the oldest one. Then
        // (rarely, in a buffer read to its end) each read asks which sample was there at its frame.
        double back = static_cast<double>(w0) - g.pos;
        if (back < 0.0) back += size;
        const bool near = back + 2.0 * m + 4.0 >= static_cast<double>(size);
        double pos = g.pos;
        int age = g.age;
        const int len = g.len;
        const float invLen = g.invLen, amp = g.amp, panL = g.panL, panR = g.panR;
        const double ratio = g.ratio;
        int t = 0;
        if (!near) {
            // Whole groups of eight (AVX2) or four frames as vectors: the same values as the loop below.
            const GrainGroup group{buf, window_.data(), size, len, ratio, invLen, amp, panL, panR};
#if defined(__SSE4_1__)
            t = avx2_ ? renderGrainGroups(group, pos, age, m, l, r) : renderGrainQuads(group, pos, age, m, l, r);
#else
            if (avx2_) t = renderGrainGroups(group, pos, age, m, l, r);
#endif
            if (age >= len) {
                g.active = false;
                g.pos = pos;
                g.age = age;
                return;
            }
        }
        for (; t < m; ++t) {
            const float w = windowAt(static_cast<float>(age) * invLen);
            int i0 = static_cast<int>(pos);
            const float frac = static_cast<float>(pos - i0);
            if (i0 >= size) i0 -= size;
            int i1 = i0 + 1;
            if (i1 >= size) i1 = 0;
            float s0 = buf[i0], s1 = buf[i1];
            if (near) {
                s0 = before(s0, i0, w0, old, t, m);
                s1 = before(s1, i1, w0, old, t, m);
            }
            const float s = (s0 + (s1 - s0) * frac) * w * amp;
            l[t] += s * panL;
            r[t] += s * panR;
            pos += ratio;
            if (pos >= size) pos -= size;
            if (++age >= len) {
                g.active = false;
                break;
            }
        }
        g.pos = pos;
        g.age = age;
    }
    // The sample of slot p as a frame-by-frame loop would read it at frame t of the stretch.
    float before(float now, int p, int w0, const float* old, int t, int m) const BOOP_RT {
        int k = p - w0;
        if (k < 0) k += size_;
        return k < m && k > t ? old[k] : now;
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
    bool avx2_ = simd::useAvx2();
};

}  // namespace dsp
}  // namespace boop
