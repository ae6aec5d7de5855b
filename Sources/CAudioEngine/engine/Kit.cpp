#include "engine/Kit.hpp"
#include <algorithm>
#include <cmath>
#include "engine/ScalarWaves.hpp"

namespace boop {

namespace {
constexpr float kSilent = 1e-4f;  // -80 dB: a part this quiet has ended
}  // namespace

void KitBank::prepare(double sampleRate) noexcept {
    sampleRate_ = sampleRate;
    for (Hit& h : hits_) h = Hit{};
}

// The per-frame factor that falls by 60 dB over `seconds`.
float KitBank::decayOver(double seconds) const noexcept {
    return static_cast<float>(std::pow(0.001, 1.0 / std::max(1.0, seconds * sampleRate_)));
}

int KitBank::activeCount() const BOOP_RT {
    int n = 0;
    for (const Hit& h : hits_) n += h.active ? 1 : 0;
    return n;
}

void KitBank::recipe808(Hit& h, uint32_t key) BOOP_RT {
    const float hz = static_cast<float>(1.0 / sampleRate_);
    auto tone = [&](float rest, float sweep, double sweepSeconds, float level, double seconds) {
        h.rest = rest * hz;
        h.sweep = sweep;
        h.sweepDecay = decayOver(sweepSeconds);
        h.tone = level;
        h.toneDecay = decayOver(seconds);
    };
    auto noise = [&](float level, double seconds, float highpass) {
        h.noise = level;
        h.noiseDecay = decayOver(seconds);
        h.noiseHp = highpass;
    };
    if (key == 35 || key == 36) {
        tone(50.0f, 3.0f, 0.03, 1.0f, 0.7);
    } else if (key == 38 || key == 40) {
        tone(185.0f, 1.5f, 0.02, 0.5f, 0.12);
        noise(0.6f, 0.22, 0.3f);
    } else if (key == 39) {
        noise(0.8f, 0.3, 0.2f);
        h.clapGaps = 3;
    } else if (key == 37) {
        tone(1700.0f, 1.0f, 0.01, 0.5f, 0.03);
    } else if (key == 56) {
        tone(540.0f, 1.0f, 0.01, 0.35f, 0.35);
        h.tone2 = 0.35f;
        h.square = true;
    } else if (key >= 41 && key <= 50 && key != 42 && key != 44 && key != 46) {
        tone(80.0f + 12.0f * static_cast<float>(key - 41), 1.6f, 0.04, 0.8f, 0.45);
    } else if (key == 46) {
        noise(0.45f, 0.4, 0.9f);
    } else if (key == 49 || key == 51 || key == 52 || key == 55 || key == 57 || key == 59) {
        noise(0.4f, key == 51 || key == 59 ? 0.8 : 1.3, 0.85f);
    } else {
        noise(0.45f, 0.06, 0.9f);  // closed hat, and every other key
    }
}

void KitBank::recipeChip(Hit& h, uint32_t key) BOOP_RT {
    const float hz = static_cast<float>(1.0 / sampleRate_);
    h.square = true;
    auto tone = [&](float rest, float sweep, double sweepSeconds, float level, double seconds) {
        h.rest = rest * hz;
        h.sweep = sweep;
        h.sweepDecay = decayOver(sweepSeconds);
        h.tone = level;
        h.toneDecay = decayOver(seconds);
    };
    auto noise = [&](bool shortMode, float rateHz, float level, double seconds) {
        h.lfsrNoise = true;
        h.lfsrTap = shortMode ? 6 : 1;
        h.lfsrHold = std::max(1, static_cast<int>(sampleRate_ / rateHz));
        h.noise = level;
        h.noiseDecay = decayOver(seconds);
    };
    if (key == 35 || key == 36) {
        tone(45.0f, 4.0f, 0.02, 0.6f, 0.18);
    } else if (key == 38 || key == 40) {
        tone(200.0f, 1.0f, 0.01, 0.3f, 0.05);
        noise(false, 12000.0f, 0.5f, 0.15);
    } else if (key == 39) {
        noise(false, 8000.0f, 0.5f, 0.1);
    } else if (key == 42 || key == 44) {
        noise(true, 20000.0f, 0.35f, 0.05);
    } else if (key == 46 || key == 49 || key == 51 || key == 57) {
        noise(true, 16000.0f, 0.3f, 0.3);
    } else if (key >= 41 && key <= 50) {
        tone(90.0f + 15.0f * static_cast<float>(key - 41), 1.5f, 0.03, 0.5f, 0.2);
    } else {
        tone(440.0f * std::pow(2.0f, (static_cast<float>(key) - 60.0f) / 12.0f), 1.0f, 0.01, 0.35f, 0.1);
    }
}

void KitBank::trigger(Kit kit, uint32_t key, float gain, uint32_t seed, uint64_t order) BOOP_RT {
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
    h.rng = seed * 2654435761u + 1u;
    if (h.rng == 0) h.rng = 1;
    h.sweepDecay = 1.0f;
    h.toneDecay = h.noiseDecay = 1.0f;
    if (kit == Kit::Chip) {
        recipeChip(h, key);
    } else {
        recipe808(h, key);
    }
}

void KitBank::fadeAll(double seconds) BOOP_RT {
    const float step = static_cast<float>(1.0 / std::max(1.0, seconds * sampleRate_));
    for (Hit& h : hits_)
        if (h.active) h.fadeStep = std::max(h.fadeStep, step);
}

// One frame of a hit's state, everything but the sine: its amplitude and phase (or, for a square
// tone, the tone's whole term), the second partial's and the noise's terms, and the gain. The sine
// and the sum follow in a loop over the chunk that the compiler vectorises (KitBank::render).
__attribute__((always_inline)) inline void KitBank::stepHit(Hit& h, Frames& f, int i) BOOP_RT {
    if (h.ramp < 1.0f) h.ramp = std::min(1.0f, h.ramp + h.rampStep);
    f.amp[i] = 0.0f;
    f.phase[i] = 0;
    f.tone2[i] = 0.0f;
    f.noise[i] = 0.0f;
    if (h.tone > kSilent) {
        // Cycles per frame as a 32-bit increment: the phase is an integer add from frame to frame.
        const float freq = h.rest * (1.0f + (h.sweep - 1.0f) * h.sweepEnv);
        const uint32_t increment = static_cast<uint32_t>(freq * 4294967296.0f);
        h.sweepEnv *= h.sweepDecay;
        h.phase += increment;
        f.amp[i] = h.square ? h.tone * (h.phase < 0x80000000u ? 0.5f : -0.5f) : h.tone;
        f.phase[i] = h.phase;
        if (h.tone2 > 0.0f) {
            h.tone2Phase += static_cast<uint32_t>(freq * 1.48f * 4294967296.0f);
            f.tone2[i] = h.tone2 * (h.tone2Phase < 0x80000000u ? 0.5f : -0.5f);
            h.tone2 *= h.toneDecay;
        }
        h.tone *= h.toneDecay;
    }
    if (h.noise > kSilent) {
        float n;
        if (h.lfsrNoise) {
            if (h.lfsrCount-- <= 0) {
                h.lfsrCount = h.lfsrHold - 1;
                const uint32_t bit = (h.lfsr ^ (h.lfsr >> h.lfsrTap)) & 1u;
                h.lfsr = (h.lfsr >> 1) | (bit << 14);
                h.lfsrOut = (h.lfsr & 1u) ? 1.0f : -1.0f;
            }
            n = h.lfsrOut;
        } else {
            h.rng ^= h.rng << 13;
            h.rng ^= h.rng >> 17;
            h.rng ^= h.rng << 5;
            const float white = static_cast<float>(static_cast<int32_t>(h.rng)) * (1.0f / 2147483648.0f);
            h.noiseState += (1.0f - h.noiseHp) * (white - h.noiseState);
            n = white - h.noiseState;  // what the one-pole lowpass leaves: the bright part
        }
        float level = h.noise;
        if (h.clapGaps > 0) {
            // A clap: three quick bursts 10 ms apart before the tail.
            const uint32_t gap = static_cast<uint32_t>(0.01 * sampleRate_);
            if (h.age < gap * h.clapGaps) level *= 1.0f - static_cast<float>(h.age % gap) / static_cast<float>(gap);
        }
        f.noise[i] = level * n;
        h.noise *= h.noiseDecay;
    }
    ++h.age;
    if (h.tone <= kSilent && h.noise <= kSilent) h.active = false;
    f.gain[i] = h.gain * h.ramp * h.fade;
    if (h.fadeStep > 0.0f) {
        h.fade -= h.fadeStep;
        if (h.fade <= 0.0f) h.active = false;
    }
}

// The frames' terms summed in the order a frame has always summed them: tone, second partial,
// noise, then the gain.
template <bool Square>
void KitBank::mixHit(const Frames& f, float* __restrict mono, int count) BOOP_RT {
    for (int i = 0; i < count; ++i) {
        const float tone = Square ? f.amp[i] : f.amp[i] * waves::sinTurns(waves::signedTurns(f.phase[i]));
        const float y = ((tone + f.tone2[i]) + f.noise[i]) * f.gain[i];
        mono[i] += y;
    }
}

void KitBank::render(float* __restrict left, float* __restrict right, float panLeft, float panRight, int begin,
                     int end) BOOP_RT {
    // The hits sum into one mono chunk, panned once: a frame's sum runs in hit order whatever
    // the chunk, so the bits do not depend on where a block was cut.
    alignas(32) float mono[kChunk];
    Frames frames;
    for (int c = begin; c < end; c += kChunk) {
        const int n = std::min(kChunk, end - c);
        bool any = false;
        for (Hit& stored : hits_) {
            if (!stored.active) continue;
            if (!any) std::fill(mono, mono + n, 0.0f);
            any = true;
            Hit h = stored;  // in registers: the output cannot alias it
            int count = 0;
            while (count < n && h.active) stepHit(h, frames, count++);
            if (h.square) {
                mixHit<true>(frames, mono, count);
            } else {
                mixHit<false>(frames, mono, count);
            }
            stored = h;
        }
        if (!any) return;  // every hit has ended: none starts inside a render call
        for (int i = 0; i < n; ++i) {
            left[c + i] += mono[i] * panLeft;
            right[c + i] += mono[i] * panRight;
        }
    }
}

}  // namespace boop
