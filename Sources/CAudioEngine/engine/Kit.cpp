#include "engine/Kit.hpp"
#include <algorithm>
#include <cmath>
#include "dsp/SimdTypes.hpp"

namespace boop {

void KitBank::prepare(double sampleRate) noexcept {
    sampleRate_ = sampleRate;
    wide_ = dsp::simd::useAvx2();
    kernel_ = chooseKernel(wide_);
    for (Hit& h : hits_) h = Hit{};
}

// The per-frame factor that falls by 60 dB over `seconds`.
float KitBank::decayOver(double seconds) const noexcept {
    return static_cast<float>(std::pow(0.001, 1.0 / std::max(1.0, seconds * sampleRate_)));
}

// A hit's tone: its resting pitch, the sweep above it that falls away over sweepSeconds, its
// level and its decay.
void KitBank::setTone(Hit& h, float restHz, float sweep, double sweepSeconds, float level,
                      double seconds) const BOOP_RT {
    h.rest = restHz * static_cast<float>(1.0 / sampleRate_);
    h.sweep = sweep;
    h.sweepDecay = decayOver(sweepSeconds);
    h.tone = level;
    h.toneDecay = decayOver(seconds);
}

int KitBank::activeCount() const BOOP_RT {
    int n = 0;
    for (const Hit& h : hits_) n += h.active ? 1 : 0;
    return n;
}

template <>
void KitBank::recipe<BOOP_KIT_808>(Hit& h, uint32_t key) BOOP_RT {
    auto noise = [&](float level, double seconds, float highpass) {
        h.noise = level;
        h.noiseDecay = decayOver(seconds);
        h.noiseHp = highpass;
    };
    if (key == 35 || key == 36) {
        setTone(h, 50.0f, 3.0f, 0.03, 1.0f, 0.7);
    } else if (key == 38 || key == 40) {
        setTone(h, 185.0f, 1.5f, 0.02, 0.5f, 0.12);
        noise(0.6f, 0.22, 0.3f);
    } else if (key == 39) {
        noise(0.8f, 0.3, 0.2f);
        h.clapGaps = 3;
    } else if (key == 37) {
        setTone(h, 1700.0f, 1.0f, 0.01, 0.5f, 0.03);
    } else if (key == 56) {
        setTone(h, 540.0f, 1.0f, 0.01, 0.35f, 0.35);
        h.tone2 = 0.35f;
        h.square = true;
    } else if (key >= 41 && key <= 50 && key != 42 && key != 44 && key != 46) {
        setTone(h, 80.0f + 12.0f * static_cast<float>(key - 41), 1.6f, 0.04, 0.8f, 0.45);
    } else if (key == 46) {
        noise(0.45f, 0.4, 0.9f);
    } else if (key == 49 || key == 51 || key == 52 || key == 55 || key == 57 || key == 59) {
        noise(0.4f, key == 51 || key == 59 ? 0.8 : 1.3, 0.85f);
    } else {
        noise(0.45f, 0.06, 0.9f);  // closed hat, and every other key
    }
}

template <>
void KitBank::recipe<BOOP_KIT_CHIP>(Hit& h, uint32_t key) BOOP_RT {
    h.square = true;
    auto noise = [&](bool shortMode, float rateHz, float level, double seconds) {
        h.lfsrNoise = true;
        h.lfsrTap = shortMode ? 6 : 1;
        h.lfsrHold = std::max(1, static_cast<int>(sampleRate_ / rateHz));
        h.noise = level;
        h.noiseDecay = decayOver(seconds);
    };
    if (key == 35 || key == 36) {
        setTone(h, 45.0f, 4.0f, 0.02, 0.6f, 0.18);
    } else if (key == 38 || key == 40) {
        setTone(h, 200.0f, 1.0f, 0.01, 0.3f, 0.05);
        noise(false, 12000.0f, 0.5f, 0.15);
    } else if (key == 39) {
        noise(false, 8000.0f, 0.5f, 0.1);
    } else if (key == 42 || key == 44) {
        noise(true, 20000.0f, 0.35f, 0.05);
    } else if (key == 46 || key == 49 || key == 51 || key == 57) {
        noise(true, 16000.0f, 0.3f, 0.3);
    } else if (key >= 41 && key <= 50) {
        setTone(h, 90.0f + 15.0f * static_cast<float>(key - 41), 1.5f, 0.03, 0.5f, 0.2);
    } else {
        setTone(h, 440.0f * std::pow(2.0f, (static_cast<float>(key) - 60.0f) / 12.0f), 1.0f, 0.01, 0.35f, 0.1);
    }
}

// Never called: the engine gives the General MIDI kit's hits to DrumBank. The 808's stands in.
template <>
void KitBank::recipe<BOOP_KIT_GM>(Hit& h, uint32_t key) BOOP_RT {
    recipe<BOOP_KIT_808>(h, key);
}

void KitBank::trigger(boop_kit kit, uint32_t key, float gain, uint32_t seed, uint64_t order) BOOP_RT {
    Hit* slot = nullptr;
    for (Hit& h : hits_)
        if (!h.active) {
            slot = &h;
            break;
        }
    if (!slot) {  // all ring: the oldest has decayed under seven newer ones
        slot = &hits_[0];
        for (Hit& h : hits_)
            if (h.order < slot->order) slot = &h;
    }
    Hit& h = *slot;
    h = Hit{};
    h.active = true;
    h.order = order;
    h.gain = gain;
    h.rampStep = static_cast<float>(1.0 / std::max(1.0, 0.001 * sampleRate_));
    for (uint32_t k = 0; k < 8; ++k) {
        // Each lane's seed through a 32-bit mix (the lowbias32 hash), so the eight streams differ.
        uint32_t x = seed * 2654435761u + 1u + k * 0x9E3779B9u;
        x ^= x >> 16;
        x *= 0x7feb352du;
        x ^= x >> 15;
        x *= 0x846ca68bu;
        x ^= x >> 16;
        h.rng[k] = x == 0 ? 1u : x;
    }
    h.sweepDecay = 1.0f;
    h.toneDecay = h.noiseDecay = 1.0f;
    switch (kit) {
#define BOOP_KIT_RECIPE(ENUMERATOR, ...) \
    case ENUMERATOR:                     \
        recipe<ENUMERATOR>(h, key);      \
        break;
        BOOP_KITS(BOOP_KIT_RECIPE)
#undef BOOP_KIT_RECIPE
        default:  // the C API lets no other value through
            recipe<BOOP_KIT_808>(h, key);
            break;
    }
    auto powers = [](float d, float* p, float& p8) {
        double q = 1.0;
        for (int k = 0; k < 8; ++k, q *= d) p[k] = static_cast<float>(q);
        p8 = static_cast<float>(q);
    };
    powers(h.toneDecay, h.tonePow, h.tonePow8);
    powers(h.noiseDecay, h.noisePow, h.noisePow8);
    powers(h.sweepDecay, h.sweepPow, h.sweepPow8);
}

void KitBank::fadeAll(double seconds) BOOP_RT {
    const float step = static_cast<float>(1.0 / std::max(1.0, seconds * sampleRate_));
    for (Hit& h : hits_)
        if (h.active) h.fadeStep = std::max(h.fadeStep, step);
}

// A hit's frames: its groups as the kernel made them, times its fade when it is fading.
__attribute__((always_inline)) inline void KitBank::renderHit(Hit& h, float* __restrict mono, int count) BOOP_RT {
    const uint32_t clapGap = static_cast<uint32_t>(0.01 * sampleRate_);
    for (int i = 0; i < count;) {
        if (h.used == kAhead) {
            if (h.ending) {
                h.active = false;
                return;
            }
            kernel_(h, clapGap);
            h.used = 0;
        }
        const int run = std::min(kAhead - h.used, count - i);
        const float* ahead = h.ahead + h.used;
        if (h.fadeStep > 0.0f) {
            for (int k = 0; k < run; ++k) {
                mono[i + k] += ahead[k] * h.fade;
                h.fade -= h.fadeStep;
                if (h.fade <= 0.0f) {
                    h.active = false;
                    return;
                }
            }
        } else {
            for (int k = 0; k < run; ++k) mono[i + k] += ahead[k];
        }
        h.used += run;
        i += run;
    }
}

void KitBank::render(float* left, float* right, float panLeft, float panRight, int begin, int end) BOOP_RT {
    if (wide_) {
        renderAvx2(left, right, panLeft, panRight, begin, end);
    } else {
        renderBaseline(left, right, panLeft, panRight, begin, end);
    }
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
// AVX2 without FMA: eight-lane vectors and the baseline's roundings, so the same samples.
__attribute__((target("avx2"))) void KitBank::renderAvx2(float* l, float* r, float pl, float pr, int b, int e) BOOP_RT {
    renderChunks(l, r, pl, pr, b, e);
}
#else
void KitBank::renderAvx2(float* l, float* r, float pl, float pr, int b, int e) BOOP_RT {
    renderChunks(l, r, pl, pr, b, e);
}
#endif
void KitBank::renderBaseline(float* l, float* r, float pl, float pr, int b, int e) BOOP_RT {
    renderChunks(l, r, pl, pr, b, e);
}

__attribute__((always_inline)) inline void KitBank::renderChunks(float* __restrict left, float* __restrict right,
                                                                 float panLeft, float panRight, int begin,
                                                                 int end) BOOP_RT {
    // The hits sum into one mono chunk, panned once: a frame's sum runs in hit order whatever
    // the chunk, so the bits do not depend on where a block was cut.
    alignas(32) float mono[kChunk];
    for (int c = begin; c < end; c += kChunk) {
        const int n = std::min(kChunk, end - c);
        bool any = false;
        for (Hit& h : hits_) {
            if (!h.active) continue;
            if (!any) std::fill(mono, mono + n, 0.0f);
            any = true;
            renderHit(h, mono, n);
        }
        if (!any) return;  // every hit has ended: none starts inside a render call
        for (int i = 0; i < n; ++i) {
            left[c + i] += mono[i] * panLeft;
            right[c + i] += mono[i] * panRight;
        }
    }
}

}  // namespace boop
