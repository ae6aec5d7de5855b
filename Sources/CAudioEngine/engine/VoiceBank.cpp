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
    kernels_ = chooseKernels(spec);
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

// The waveform at a 32-bit phase (2^32 per turn), per lane; dt is the increment in turns.
template <Waveform W, class F, class U>
BOOP_SIMD_INLINE F waveform(U phase, F dt, F invDt) noexcept {
    using I = IntOf<F>;
    constexpr float kTurnsPerStep = 1.0f / 4294967296.0f;
    if constexpr (W == Waveform::Saw) {
        // Unsigned phase in [0, 1): a rising ramp, with polyBLEP residuals subtracted on either
        // side of the wrap so the step does not alias.
        const F t = __builtin_convertvector(phase, F) * kTurnsPerStep;
        const F u0 = t * invDt;
        const F u1 = (t - 1.0f) * invDt;
        const F afterWrap = u0 + u0 - u0 * u0 - 1.0f;
        const F beforeWrap = u1 * u1 + u1 + u1 + 1.0f;
        const F blep = select<F>(t < dt, afterWrap, select<F>(t > 1.0f - dt, beforeWrap, splatT<F>(0.0f)));
        return (t + t - 1.0f) - blep;
    } else {
        // Signed phase in [-0.5, 0.5) turns.
        const F x = __builtin_convertvector(reinterpret_cast<const I&>(phase), F) * kTurnsPerStep;
        if constexpr (W == Waveform::Sine) return sinTurns(x);
        return abs(x) * 4.0f - 1.0f;
    }
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
        const F wave = waveform<W, F>(phase, __builtin_convertvector(increment, F) * kTurnsPerStep, invDt);
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

// The same voice for one lane, eight consecutive frames per vector: what a chunk with only a few
// sounding lanes renders with, since the lane-major loop above would spend most of its work on
// silent lanes. The waveform (the costly part) is computed for eight frames at once from the
// exact 32-bit phase; the envelope ramp and the lowpass recursion run frame by frame with the
// same operations as above, so a voice gives the same bits whichever loop renders it and
// however the block is cut.
template <Waveform W, bool Filtered, bool Shaped>
__attribute__((always_inline)) inline void renderLaneTime(VoiceBank::Chunk& c, int i, float* mono, int begin, int end,
                                                          float a1, float a2) noexcept {
    using F = f8;
    using U = u8;
    using I = IntOf<F>;
    constexpr float kTurnsPerStep = 1.0f / 4294967296.0f;
    const U steps = {0, 1, 2, 3, 4, 5, 6, 7};
    uint32_t phase = c.phase[i];
    const uint32_t increment = c.increment[i];
    float level = c.level[i], z1 = c.z1[i], z2 = c.z2[i];
    const float slope = c.slope[i], gain = c.gain[i], invDt = c.invDt[i];
    for (int n = begin; n < end; n += 8) {
        const int m = end - n < 8 ? end - n : 8;
        const U ph = phase + steps * increment;
        const F wave = waveform<W, F>(ph, splat(static_cast<float>(increment)) * kTurnsPerStep, splat(invDt));
        F env;
        for (int k = 0; k < 8; ++k) {
            env[k] = level;
            if (k < m) {
                const float next = level + slope;
                level = next > 0.0f ? next : 0.0f;
                level = level < 1.0f ? level : 1.0f;
            }
        }
        if constexpr (Shaped) env = env * env * (3.0f - 2.0f * env);
        const F x = wave * env * gain;
        for (int k = 0; k < m; ++k) {
            float y = x[k];
            if constexpr (Filtered) {
                const float in = y;  // already scaled by b0
                y = in + z1;
                z1 = (in + in) - y * a1 + z2;
                z2 = in - y * a2;
            }
            mono[n + k] += y;
        }
        phase += static_cast<uint32_t>(m) * increment;
    }
    c.phase[i] = phase;
    c.level[i] = level;
    c.z1[i] = z1;
    c.z2[i] = z2;
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
    }                                                                                                                  \
    ATTRIBUTES static void laneSine##SUFFIX(VoiceBank::Chunk& c, int i, float* m, int b, int e, float a1, float a2)    \
        BOOP_RT {                                                                                                      \
        renderLaneTime<Waveform::Sine, true, false>(c, i, m, b, e, a1, a2);                                            \
    }                                                                                                                  \
    ATTRIBUTES static void lanePureSine##SUFFIX(VoiceBank::Chunk& c, int i, float* m, int b, int e, float a1,          \
                                                float a2) BOOP_RT {                                                    \
        renderLaneTime<Waveform::Sine, false, true>(c, i, m, b, e, a1, a2);                                            \
    }                                                                                                                  \
    ATTRIBUTES static void laneTriangle##SUFFIX(VoiceBank::Chunk& c, int i, float* m, int b, int e, float a1,          \
                                                float a2) BOOP_RT {                                                    \
        renderLaneTime<Waveform::Triangle, true, false>(c, i, m, b, e, a1, a2);                                        \
    }                                                                                                                  \
    ATTRIBUTES static void laneSaw##SUFFIX(VoiceBank::Chunk& c, int i, float* m, int b, int e, float a1, float a2)     \
        BOOP_RT {                                                                                                      \
        renderLaneTime<Waveform::Saw, true, false>(c, i, m, b, e, a1, a2);                                             \
    }

BOOP_VOICE_KERNELS(Baseline, , f4, u4)
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define BOOP_HAVE_AVX2_KERNELS 1
BOOP_VOICE_KERNELS(Avx2, __attribute__((target("avx2,fma"))), f8, u8)
#endif

VoiceBank::Kernels VoiceBank::chooseKernels(const TimbreSpec& spec) noexcept {
    bool wide = false;
#if defined(BOOP_HAVE_AVX2_KERNELS)
    __builtin_cpu_init();
    wide = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && !std::getenv("BOOP_NO_AVX2");
#else
    (void)wide;
#endif
#if defined(BOOP_HAVE_AVX2_KERNELS)
#define BOOP_PICK(NAME) (wide ? NAME##Avx2 : NAME##Baseline)
#else
#define BOOP_PICK(NAME) NAME##Baseline
#endif
    switch (spec.waveform) {
        case Waveform::Sine:
            // The unfiltered, raised-cosine sine (TONE) has kernels of its own.
            if (!spec.filtered && spec.raisedCosineEdges) return {BOOP_PICK(renderPureSine), BOOP_PICK(lanePureSine)};
            return {BOOP_PICK(renderSine), BOOP_PICK(laneSine)};
        case Waveform::Triangle:
            return {BOOP_PICK(renderTriangle), BOOP_PICK(laneTriangle)};
        case Waveform::Saw:
            return {BOOP_PICK(renderSaw), BOOP_PICK(laneSaw)};
    }
#undef BOOP_PICK
    return {renderSineBaseline, laneSineBaseline};
}

void VoiceBank::render(f8* acc, float* mono, int begin, int end) BOOP_RT {
    if (activeCount_ == 0 || end <= begin) return;
    for (int ci = 0; ci < chunkCount_; ++ci) {
        const uint8_t active = chunkActive_[ci];
        if (!active) continue;
        Chunk& c = chunks_[ci];
        // Up to kMaxTimeMajorLanes sounding lanes: each on its own, eight frames at a time.
        if (__builtin_popcount(active) <= kMaxTimeMajorLanes) {
            for (int i = 0; i < kLanes; ++i)
                if (active & (1u << i)) kernels_.lane(c, i, mono, begin, end, coefficients_.a1, coefficients_.a2);
        } else {
            kernels_.chunk(c, acc, begin, end, coefficients_.a1, coefficients_.a2);
        }
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
