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
    c.start[i] = 0.0f;
    c.t[i] = 0.0f;
    c.slope[i] = static_cast<float>(1.0 / std::max(1.0, spec_.attackSeconds * sampleRate_));
    c.gain[i] = gain * spec_.level * (spec_.filtered ? coefficients_.b0 : 1.0f);
    c.invDt[i] = static_cast<float>(4294967296.0 / std::max(increment, 1.0));
    c.x1[i] = c.x2[i] = 0.0f;
    c.y1[i] = c.y2[i] = 0.0f;
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
    const float from = level(lane);
    c.start[i] = from;
    c.t[i] = 0.0f;
    c.slope[i] = -from / static_cast<float>(std::max(1.0, seconds * sampleRate_));
    l.state = LaneState::Releasing;
}

void VoiceBank::fade(int lane, double seconds) BOOP_RT {
    Lane& l = lanes_[lane];
    if (l.state == LaneState::Idle) return;
    Chunk& c = chunk(lane);
    const int i = lane % kLanes;
    const float from = level(lane);
    const float fadeSlope = -from / static_cast<float>(std::max(1.0, seconds * sampleRate_));
    // A release already falling faster keeps its own slope: fading must never slow a voice down.
    if ((l.state != LaneState::Fading || fadeSlope < c.slope[i]) && fadeSlope < c.slope[i]) {
        c.start[i] = from;
        c.t[i] = 0.0f;
        c.slope[i] = fadeSlope;
    }
    l.state = LaneState::Fading;
}

void VoiceBank::retire(int lane) BOOP_RT {
    Chunk& c = chunk(lane);
    const int i = lane % kLanes;
    c.start[i] = 0.0f;
    c.t[i] = 0.0f;
    c.slope[i] = 0.0f;
    c.gain[i] = 0.0f;
    c.x1[i] = c.x2[i] = 0.0f;
    c.y1[i] = c.y2[i] = 0.0f;
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
// voice's gain when the note starts, leaving two multiplies for the recursion. It runs in direct
// form I: the feed-forward sum and the older output's term do not wait on the previous output,
// so the chain from one output to the next is a single multiply-add (the transposed form had
// three dependent operations there, and that chain is what bounds a voice rendered on its own).
//
// F/U are the lane vectors (eight lanes in one AVX register, or four in an SSE register with the
// chunk done in two halves); `part` selects the half.
template <Waveform W, bool Filtered, bool Shaped, class F, class U>
__attribute__((always_inline)) inline void renderLanes(VoiceBank::Chunk& c, f8* acc, int begin, int end, float a1,
                                                       float a2, int part) noexcept {
    constexpr int parts = int(sizeof(f8) / sizeof(F));
    auto lanes = [part](auto& v) -> auto& {
        using V = std::conditional_t<std::is_same_v<std::decay_t<decltype(v)>, u8>, U, F>;
        return reinterpret_cast<V*>(&v)[part];
    };
    F* out = reinterpret_cast<F*>(acc) + part;
    U phase = lanes(c.phase);
    const U increment = lanes(c.increment);
    F t = lanes(c.t);
    const F start = lanes(c.start), slope = lanes(c.slope), gain = lanes(c.gain), invDt = lanes(c.invDt);
    F x1 = lanes(c.x1), x2 = lanes(c.x2), y1 = lanes(c.y1), y2 = lanes(c.y2);
    constexpr float kTurnsPerStep = 1.0f / 4294967296.0f;
    const F zero = splatT<F>(0.0f), one = splatT<F>(1.0f);

    for (int n = begin; n < end; ++n) {
        const F wave = waveform<W, F>(phase, __builtin_convertvector(increment, F) * kTurnsPerStep, invDt);
        phase += increment;

        const F ramp = slope * t;  // its own statement: never fused into the add below
        F env = min(max(start + ramp, zero), one);
        t += 1.0f;
        if constexpr (Shaped) env = env * env * (3.0f - 2.0f * env);

        F y = wave * env * gain;
        if constexpr (Filtered) {
            const F in = y;  // already scaled by b0
            const F early = ((in + x1 + x1) + x2) - y2 * a2;
            x2 = x1;
            x1 = in;
            y2 = y1;
            y = early - y1 * a1;
            y1 = y;
        }
        out[n * parts] += y;
    }
    lanes(c.phase) = phase;
    lanes(c.t) = t;
    lanes(c.x1) = x1;
    lanes(c.x2) = x2;
    lanes(c.y1) = y1;
    lanes(c.y2) = y2;
}

template <Waveform W, bool Filtered, bool Shaped, class F, class U>
__attribute__((always_inline)) inline void renderVoices(VoiceBank::Chunk& c, f8* acc, int begin, int end, float a1,
                                                        float a2) noexcept {
    constexpr int parts = int(sizeof(f8) / sizeof(F));
    for (int part = 0; part < parts; ++part) renderLanes<W, Filtered, Shaped, F, U>(c, acc, begin, end, a1, a2, part);
}

// Frame k of N lanes' lowpass, in place in x (direct form I, as in renderLanes).
template <int N>
__attribute__((always_inline)) inline void lowpassFrame(f8 (&x)[N], int k, float (&x1)[N], float (&x2)[N],
                                                        float (&y1)[N], float (&y2)[N], float a1, float a2) noexcept {
    for (int j = 0; j < N; ++j) {
        const float in = x[j][k];  // already scaled by b0
        const float early = ((in + x1[j] + x1[j]) + x2[j]) - y2[j] * a2;
        x2[j] = x1[j];
        x1[j] = in;
        y2[j] = y1[j];
        const float y = early - y1[j] * a1;
        y1[j] = y;
        x[j][k] = y;
    }
}

// The same voice for a few lanes, eight consecutive frames per vector: what a chunk with only a
// few sounding lanes renders with, since the lane-major loop above would spend most of its work
// on silent lanes. The waveform (the costly part) is computed for eight frames at once from the
// exact 32-bit phase; the envelope ramp and the lowpass recursion run frame by frame with the
// same operations as above, so a voice gives the same bits whichever loop renders it and
// however the block is cut. The N lanes' recursions are interleaved frame by frame: each is a
// chain of dependent multiply-adds, and N independent chains keep the core busy where one
// would leave it waiting. Their outputs are added into mono in lane order, as one lane after
// another would.
template <Waveform W, bool Filtered, bool Shaped, int N>
__attribute__((always_inline)) inline void renderLanesTime(VoiceBank::Chunk& c, const int* which, float* mono,
                                                           int begin, int end, float a1, float a2) noexcept {
    using F = f8;
    using U = u8;
    constexpr float kTurnsPerStep = 1.0f / 4294967296.0f;
    const U steps = {0, 1, 2, 3, 4, 5, 6, 7};
    const F frames = {0, 1, 2, 3, 4, 5, 6, 7};
    uint32_t phase[N], increment[N];
    float start[N], t[N], x1[N], x2[N], y1[N], y2[N], slope[N], gain[N], invDt[N];
    for (int j = 0; j < N; ++j) {
        const int i = which[j];
        phase[j] = c.phase[i];
        increment[j] = c.increment[i];
        start[j] = c.start[i];
        t[j] = c.t[i];
        x1[j] = c.x1[i];
        x2[j] = c.x2[i];
        y1[j] = c.y1[i];
        y2[j] = c.y2[i];
        slope[j] = c.slope[i];
        gain[j] = c.gain[i];
        invDt[j] = c.invDt[i];
    }
    for (int n = begin; n < end; n += 8) {
        const int m = end - n < 8 ? end - n : 8;
        F x[N];
        for (int j = 0; j < N; ++j) {
            const U ph = phase[j] + steps * increment[j];
            const F wave = waveform<W, F>(ph, splat(static_cast<float>(increment[j])) * kTurnsPerStep, splat(invDt[j]));
            const F ramp = slope[j] * (t[j] + frames);  // whole frames: t + k is exact
            F env = min(max(start[j] + ramp, splat(0.0f)), splat(1.0f));
            t[j] += static_cast<float>(m);
            if constexpr (Shaped) env = env * env * (3.0f - 2.0f * env);
            x[j] = wave * env * gain[j];
            phase[j] += static_cast<uint32_t>(m) * increment[j];
        }
        if constexpr (Filtered) {
            // The recursion frame by frame, its outputs gathered into vectors (a full group is
            // unrolled, without a test per frame).
            if (m == 8) {
#pragma clang loop unroll(full)
                for (int k = 0; k < 8; ++k) lowpassFrame<N>(x, k, x1, x2, y1, y2, a1, a2);
            } else {
                for (int k = 0; k < m; ++k) lowpassFrame<N>(x, k, x1, x2, y1, y2, a1, a2);
            }
        }
        // Into mono lane after lane, as separate lanes would add.
        if (m == 8) {
            f8u& out = *reinterpret_cast<f8u*>(mono + n);
            F sum = out;
            for (int j = 0; j < N; ++j) sum += x[j];
            out = sum;
        } else {
            for (int k = 0; k < m; ++k) {
                float sum = mono[n + k];
                for (int j = 0; j < N; ++j) sum += x[j][k];
                mono[n + k] = sum;
            }
        }
    }
    for (int j = 0; j < N; ++j) {
        const int i = which[j];
        c.phase[i] = phase[j];
        c.t[i] = t[j];
        c.x1[i] = x1[j];
        c.x2[i] = x2[j];
        c.y1[i] = y1[j];
        c.y2[i] = y2[j];
    }
}

// The sounding lanes of a chunk (at most kMaxTimeMajorLanes), rendered together along time.
template <Waveform W, bool Filtered, bool Shaped>
__attribute__((always_inline)) inline void renderLaneTime(VoiceBank::Chunk& c, unsigned active, float* mono, int begin,
                                                          int end, float a1, float a2) noexcept {
    int which[VoiceBank::kMaxTimeMajorLanes];
    int n = 0;
    for (int i = 0; i < kLanes && n < VoiceBank::kMaxTimeMajorLanes; ++i)
        if (active & (1u << i)) which[n++] = i;
    if (n == 1) renderLanesTime<W, Filtered, Shaped, 1>(c, which, mono, begin, end, a1, a2);
    if (n == 2) renderLanesTime<W, Filtered, Shaped, 2>(c, which, mono, begin, end, a1, a2);
    if (n == 3) renderLanesTime<W, Filtered, Shaped, 3>(c, which, mono, begin, end, a1, a2);
    static_assert(VoiceBank::kMaxTimeMajorLanes == 3, "one instance per lane count");
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
    ATTRIBUTES static void laneSine##SUFFIX(VoiceBank::Chunk& c, unsigned i, float* m, int b, int e, float a1,         \
                                            float a2) BOOP_RT {                                                        \
        renderLaneTime<Waveform::Sine, true, false>(c, i, m, b, e, a1, a2);                                            \
    }                                                                                                                  \
    ATTRIBUTES static void lanePureSine##SUFFIX(VoiceBank::Chunk& c, unsigned i, float* m, int b, int e, float a1,     \
                                                float a2) BOOP_RT {                                                    \
        renderLaneTime<Waveform::Sine, false, true>(c, i, m, b, e, a1, a2);                                            \
    }                                                                                                                  \
    ATTRIBUTES static void laneTriangle##SUFFIX(VoiceBank::Chunk& c, unsigned i, float* m, int b, int e, float a1,     \
                                                float a2) BOOP_RT {                                                    \
        renderLaneTime<Waveform::Triangle, true, false>(c, i, m, b, e, a1, a2);                                        \
    }                                                                                                                  \
    ATTRIBUTES static void laneSaw##SUFFIX(VoiceBank::Chunk& c, unsigned i, float* m, int b, int e, float a1,          \
                                           float a2) BOOP_RT {                                                         \
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

bool VoiceBank::render(f8* acc, float* mono, int begin, int end) BOOP_RT {
    if (activeCount_ == 0 || end <= begin) return false;
    bool usedAcc = false;
    for (int ci = 0; ci < chunkCount_; ++ci) {
        const uint8_t active = chunkActive_[ci];
        if (!active) continue;
        Chunk& c = chunks_[ci];
        // Up to kMaxTimeMajorLanes sounding lanes: each on its own, eight frames at a time.
        if (__builtin_popcount(active) <= kMaxTimeMajorLanes) {
            kernels_.lane(c, active, mono, begin, end, coefficients_.a1, coefficients_.a2);
        } else {
            kernels_.chunk(c, acc, begin, end, coefficients_.a1, coefficients_.a2);
            usedAcc = true;
        }
        // Retire lanes whose release or fade has reached silence and whose filter has rung
        // down to exactly zero (the render path flushes denormals, so that comes some hundreds
        // of frames later): nothing is cut off mid-ring, and since a lane adds only zeros by
        // then, the block boundary at which it is retired changes no bit of the output.
        for (int i = 0; i < kLanes; ++i) {
            const int lane = ci * kLanes + i;
            const LaneState s = lanes_[lane].state;
            if ((s == LaneState::Releasing || s == LaneState::Fading) && level(lane) <= 0.0f && c.y1[i] == 0.0f &&
                c.y2[i] == 0.0f && c.x1[i] == 0.0f && c.x2[i] == 0.0f)
                retire(lane);
        }
    }
    return usedAcc;
}

}  // namespace boop
