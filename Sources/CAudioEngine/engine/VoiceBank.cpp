#include "engine/VoiceBank.hpp"
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <type_traits>

namespace boop {

using namespace simd;

void VoiceBank::prepare(double sampleRate, int capacity, const TimbreSpec& spec) {
    spec_ = spec;
    sampleRate_ = sampleRate;
    if (spec.filtered) coefficients_ = BiquadCoefficients::lowpass(sampleRate, spec.cutoffHz, spec.q);
    kernel_ = chooseKernel(spec);
    chunkCount_ = (std::max(capacity, 1) + kLanes - 1) / kLanes;
    laneCount_ = chunkCount_ * kLanes;
    chunks_.reset(new Chunk[chunkCount_]);
    lanes_.reset(new Lane[laneCount_]);
    chunkActive_.reset(new uint8_t[chunkCount_]);
    reset();
}

void VoiceBank::reset() noexcept {
    for (int c = 0; c < chunkCount_; ++c) {
        chunks_[c] = Chunk{};
        chunks_[c].invDt = splat(0.0f);
        chunkActive_[c] = 0;
    }
    for (int l = 0; l < laneCount_; ++l) lanes_[l] = Lane{};
    activeCount_ = 0;
}

int VoiceBank::findFreeLane() const BOOP_RT {
    for (int l = 0; l < laneCount_; ++l)
        if (lanes_[l].state == LaneState::Idle) return l;
    return -1;
}

int VoiceBank::quietestFadingLane() const BOOP_RT {
    int best = -1;
    float bestLevel = 2.0f;
    for (int l = 0; l < laneCount_; ++l) {
        if (lanes_[l].state == LaneState::Fading && level(l) < bestLevel) {
            best = l;
            bestLevel = level(l);
        }
    }
    return best;
}

int VoiceBank::findHeld(uint32_t noteId) const BOOP_RT {
    for (int l = 0; l < laneCount_; ++l)
        if (lanes_[l].state == LaneState::Held && lanes_[l].noteId == noteId) return l;
    return -1;
}

void VoiceBank::start(int lane, double frequencyHz, float gain, uint32_t noteId, uint64_t order,
                      uint64_t frame) BOOP_RT {
    Chunk& c = chunk(lane);
    const int i = lane % kLanes;
    // Rounding to the 2^-32 grid: at 44.1 kHz one step is 1.03e-5 Hz, 0.0007 cent at A0.
    const double increment = std::nearbyint(frequencyHz / sampleRate_ * 4294967296.0);
    c.phase[i] = 0;
    c.increment[i] = static_cast<uint32_t>(increment);
    c.level[i] = 0.0f;
    c.slope[i] = static_cast<float>(1.0 / std::max(1.0, spec_.attackSeconds * sampleRate_));
    c.gain[i] = gain * spec_.level * (spec_.filtered ? coefficients_.b0 : 1.0f);
    c.invDt[i] = static_cast<float>(4294967296.0 / std::max(increment, 1.0));
    c.z1[i] = 0.0f;
    c.z2[i] = 0.0f;
    Lane& l = lanes_[lane];
    if (l.state == LaneState::Idle) ++activeCount_;
    l.state = LaneState::Held;
    l.noteId = noteId;
    l.order = order;
    l.onFrame = frame;
    chunkActive_[lane / kLanes] |= static_cast<uint8_t>(1u << i);
}

void VoiceBank::release(int lane, uint64_t frame) BOOP_RT {
    Lane& l = lanes_[lane];
    if (l.state != LaneState::Held) return;
    const double gateSeconds = static_cast<double>(frame - l.onFrame) / sampleRate_;
    const double seconds = std::min(gateSeconds * spec_.releaseGateFraction, spec_.releaseMaxSeconds);
    Chunk& c = chunk(lane);
    const int i = lane % kLanes;
    c.slope[i] = -c.level[i] / static_cast<float>(std::max(1.0, seconds * sampleRate_));
    l.state = LaneState::Releasing;
}

void VoiceBank::fade(int lane, double seconds) BOOP_RT {
    Lane& l = lanes_[lane];
    if (l.state == LaneState::Idle) return;
    Chunk& c = chunk(lane);
    const int i = lane % kLanes;
    const float fadeSlope = -c.level[i] / static_cast<float>(std::max(1.0, seconds * sampleRate_));
    // A release already falling faster keeps its own slope: fading must never slow a voice down.
    if (l.state != LaneState::Fading || fadeSlope < c.slope[i]) c.slope[i] = std::min(fadeSlope, c.slope[i]);
    l.state = LaneState::Fading;
}

void VoiceBank::retire(int lane) BOOP_RT {
    Chunk& c = chunk(lane);
    const int i = lane % kLanes;
    c.level[i] = 0.0f;
    c.slope[i] = 0.0f;
    c.gain[i] = 0.0f;
    c.z1[i] = 0.0f;
    c.z2[i] = 0.0f;
    lanes_[lane].state = LaneState::Idle;
    --activeCount_;
    chunkActive_[lane / kLanes] &= static_cast<uint8_t>(~(1u << i));
}

// The hot loop. Each iteration renders one frame of eight voices with straight-line vector code:
// phase step, polynomial sine (or band-limited triangle/saw), envelope as a clamped ramp (attack
// and release are the same add-and-clamp; no per-sample branch on the envelope stage), optional
// raised-cosine shaping, gain, then the lowpass. State stays in registers across the frame loop.
//
// The lowpass is the RBJ design, whose numerator is b0 * (1, 2, 1): b0 is folded into each
// voice's gain when the note starts, leaving two multiplies for the recursion.
//
// F/U are the lane vectors (eight lanes in one AVX register, or four in an SSE register with the
// chunk done in two halves); `part` selects the half.
template <Waveform W, bool Filtered, bool Shaped, class F, class U>
__attribute__((always_inline)) inline void renderLanes(VoiceBank::Chunk& c, f8* acc, int begin, int end, float a1,
                                                       float a2, int part) noexcept {
    using I = IntOf<F>;
    constexpr int parts = int(sizeof(f8) / sizeof(F));
    auto lanes = [part](auto& v) -> auto& {
        using V = std::conditional_t<std::is_same_v<std::decay_t<decltype(v)>, u8>, U, F>;
        return reinterpret_cast<V*>(&v)[part];
    };
    F* out = reinterpret_cast<F*>(acc) + part;
    U phase = lanes(c.phase);
    const U increment = lanes(c.increment);
    F level = lanes(c.level);
    const F slope = lanes(c.slope), gain = lanes(c.gain), invDt = lanes(c.invDt);
    F z1 = lanes(c.z1), z2 = lanes(c.z2);
    constexpr float kTurnsPerStep = 1.0f / 4294967296.0f;
    const F zero = splatT<F>(0.0f), one = splatT<F>(1.0f);

    for (int n = begin; n < end; ++n) {
        F wave;
        if constexpr (W == Waveform::Saw) {
            // Unsigned phase in [0, 1): a rising ramp, with polyBLEP residuals subtracted on
            // either side of the wrap so the step does not alias.
            const F t = __builtin_convertvector(phase, F) * kTurnsPerStep;
            const F dt = __builtin_convertvector(increment, F) * kTurnsPerStep;
            const F u0 = t * invDt;
            const F u1 = (t - 1.0f) * invDt;
            const F afterWrap = u0 + u0 - u0 * u0 - 1.0f;
            const F beforeWrap = u1 * u1 + u1 + u1 + 1.0f;
            const F blep = select<F>(t < dt, afterWrap, select<F>(t > 1.0f - dt, beforeWrap, zero));
            wave = (t + t - 1.0f) - blep;
        } else {
            // Signed phase in [-0.5, 0.5) turns.
            const F x = __builtin_convertvector(reinterpret_cast<const I&>(phase), F) * kTurnsPerStep;
            if constexpr (W == Waveform::Sine) {
                wave = sinTurns(x);
            } else {
                wave = abs(x) * 4.0f - 1.0f;
            }
        }
        phase += increment;

        F env = level;
        level = min(max(level + slope, zero), one);
        if constexpr (Shaped) env = env * env * (3.0f - 2.0f * env);

        F y = wave * env * gain;
        if constexpr (Filtered) {
            const F in = y;  // already scaled by b0
            y = in + z1;
            z1 = (in + in) - y * a1 + z2;
            z2 = in - y * a2;
        }
        out[n * parts] += y;
    }
    lanes(c.phase) = phase;
    lanes(c.level) = level;
    lanes(c.z1) = z1;
    lanes(c.z2) = z2;
}

template <Waveform W, bool Filtered, bool Shaped, class F, class U>
__attribute__((always_inline)) inline void renderVoices(VoiceBank::Chunk& c, f8* acc, int begin, int end, float a1,
                                                        float a2) noexcept {
    constexpr int parts = int(sizeof(f8) / sizeof(F));
    for (int part = 0; part < parts; ++part) renderLanes<W, Filtered, Shaped, F, U>(c, acc, begin, end, a1, a2, part);
}

// One entry per (waveform, filter, shaping) the timbres use, compiled twice: for the baseline
// target and, where the CPU has them, for AVX2 + FMA (one 256-bit register holds all eight
// lanes). Chosen once in prepare(); the audio thread only follows a function pointer.
#define BOOP_VOICE_KERNELS(SUFFIX, ATTRIBUTES, F, U)                                                                   \
    ATTRIBUTES static void renderSine##SUFFIX(VoiceBank::Chunk& c, f8* acc, int b, int e, float a1, float a2)          \
        BOOP_RT {                                                                                                      \
        renderVoices<Waveform::Sine, true, false, F, U>(c, acc, b, e, a1, a2);                                         \
    }                                                                                                                  \
    ATTRIBUTES static void renderPureSine##SUFFIX(VoiceBank::Chunk& c, f8* acc, int b, int e, float a1, float a2)      \
        BOOP_RT {                                                                                                      \
        renderVoices<Waveform::Sine, false, true, F, U>(c, acc, b, e, a1, a2);                                         \
    }                                                                                                                  \
    ATTRIBUTES static void renderTriangle##SUFFIX(VoiceBank::Chunk& c, f8* acc, int b, int e, float a1, float a2)      \
        BOOP_RT {                                                                                                      \
        renderVoices<Waveform::Triangle, true, false, F, U>(c, acc, b, e, a1, a2);                                     \
    }                                                                                                                  \
    ATTRIBUTES static void renderSaw##SUFFIX(VoiceBank::Chunk& c, f8* acc, int b, int e, float a1, float a2) BOOP_RT { \
        renderVoices<Waveform::Saw, true, false, F, U>(c, acc, b, e, a1, a2);                                          \
    }

BOOP_VOICE_KERNELS(Baseline, , f4, u4)
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define BOOP_HAVE_AVX2_KERNELS 1
BOOP_VOICE_KERNELS(Avx2, __attribute__((target("avx2,fma"))), f8, u8)
#endif

VoiceBank::Kernel VoiceBank::chooseKernel(const TimbreSpec& spec) noexcept {
    bool wide = false;
#if defined(BOOP_HAVE_AVX2_KERNELS)
    __builtin_cpu_init();
    wide = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && !std::getenv("BOOP_NO_AVX2");
#endif
    switch (spec.waveform) {
        case Waveform::Sine:
            // The unfiltered, raised-cosine sine (TONE) has a kernel of its own.
            if (!spec.filtered && spec.raisedCosineEdges) {
#if defined(BOOP_HAVE_AVX2_KERNELS)
                if (wide) return renderPureSineAvx2;
#endif
                return renderPureSineBaseline;
            }
#if defined(BOOP_HAVE_AVX2_KERNELS)
            if (wide) return renderSineAvx2;
#endif
            return renderSineBaseline;
        case Waveform::Triangle:
#if defined(BOOP_HAVE_AVX2_KERNELS)
            if (wide) return renderTriangleAvx2;
#endif
            return renderTriangleBaseline;
        case Waveform::Saw:
#if defined(BOOP_HAVE_AVX2_KERNELS)
            if (wide) return renderSawAvx2;
#endif
            return renderSawBaseline;
    }
    return renderSineBaseline;
}

void VoiceBank::render(f8* acc, int begin, int end) BOOP_RT {
    if (activeCount_ == 0 || end <= begin) return;
    for (int ci = 0; ci < chunkCount_; ++ci) {
        if (!chunkActive_[ci]) continue;
        Chunk& c = chunks_[ci];
        kernel_(c, acc, begin, end, coefficients_.a1, coefficients_.a2);
        // Retire lanes whose release or fade has reached silence and whose filter has rung
        // down (a few tenths of a millisecond later), so nothing is ever cut off mid-ring.
        for (int i = 0; i < kLanes; ++i) {
            const int lane = ci * kLanes + i;
            const LaneState s = lanes_[lane].state;
            if ((s == LaneState::Releasing || s == LaneState::Fading) && c.level[i] <= 0.0f &&
                std::fabs(c.z1[i]) < 1e-7f && std::fabs(c.z2[i]) < 1e-7f)
                retire(lane);
        }
    }
}

}  // namespace boop
