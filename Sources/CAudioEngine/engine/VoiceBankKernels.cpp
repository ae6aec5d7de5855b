// The voice kernels of VoiceBank: the waveforms, the envelope and the group lowpass, written once
// for the lanes of a chunk (renderLanes) and for a few lanes along time (renderLanesTime), and
// compiled for the baseline and for AVX2 + FMA.
#include <cstring>
#include <type_traits>
#include "dsp/PolyBlep.hpp"
#include "engine/VoiceBank.hpp"

namespace boop {

using namespace dsp::simd;

// The waveform at a 32-bit phase (2^32 per turn), per lane; dt is the increment in turns.
template <Waveform W, class F, class U>
BOOP_SIMD_INLINE F waveform(U phase, F dt, F invDt) noexcept {
    using I = IntOf<F>;
    constexpr float kTurnsPerStep = 1.0f / 4294967296.0f;
    if constexpr (W == Waveform::Saw) {
        // Unsigned phase in [0, 1): a rising ramp, with polyBLEP residuals subtracted on either
        // side of the wrap so the step does not alias.
        return dsp::polyBlepSaw<F>(__builtin_convertvector(phase, F) * kTurnsPerStep, dt, invDt);
    } else {
        // Signed phase in [-0.5, 0.5) turns.
        const F x = __builtin_convertvector(reinterpret_cast<const I&>(phase), F) * kTurnsPerStep;
        if constexpr (W == Waveform::Sine) return sinTurns(x);
        return abs(x) * 4.0f - 1.0f;
    }
}

// The input of the lowpass at one frame of the lanes of F: waveform x envelope x gain. The
// envelope is clamp(start + slope * t) at the frame's count t, and the phase the frame's exact
// 32-bit one, so a frame's input has the same bits however frames are grouped.
template <Waveform W, bool Shaped, class F, class U>
BOOP_SIMD_INLINE F voiceInput(U phase, U increment, F t, F start, F slope, F gain, F invDt) noexcept {
    constexpr float kTurnsPerStep = 1.0f / 4294967296.0f;
    const F wave = waveform<W, F>(phase, __builtin_convertvector(increment, F) * kTurnsPerStep, invDt);
    const F ramp = slope * t;  // its own statement: never fused into the add below
    F env = min(max(start + ramp, splatT<F>(0.0f)), splatT<F>(1.0f));
    if constexpr (Shaped) env = env * env * (3.0f - 2.0f * env);
    return wave * env * gain;
}

// The inputs of the eight frames of a group, from the lanes' state, which they advance.
template <Waveform W, bool Shaped, class F, class U>
BOOP_SIMD_INLINE void groupInputs(F* x, U& phase, U increment, F& t, F start, F slope, F gain, F invDt) noexcept {
    BOOP_UNROLL8
    for (int f = 0; f < 8; ++f) {
        x[f] = voiceInput<W, Shaped, F, U>(phase, increment, t, start, slope, gain, invDt);
        phase += increment;
        t += 1.0f;
    }
}

// The hot loop for a chunk with many sounding lanes: each step renders a frame of eight voices
// with straight-line vector code (phase step, polynomial sine or band-limited triangle/saw,
// envelope as a clamped ramp, optional raised-cosine shaping, gain, then the lowpass). A whole
// group of eight frames is unrolled with the filter state in registers; a group that a block
// boundary or an event cuts keeps its inputs so far in the chunk.
//
// F/U are the lane vectors (eight lanes in one AVX register, or four in an SSE register with the
// chunk done in two halves); `part` selects the half. k is the group position of frame `begin`.
template <Waveform W, bool Filtered, bool Shaped, class F, class U>
__attribute__((always_inline)) inline void renderLanes(VoiceBank::Chunk& c, f8* acc, int begin, int end, uint32_t k,
                                                       const VoiceBank::GroupFilter& g, int part) noexcept {
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
    F s1 = lanes(c.s1), s2 = lanes(c.s2);

    for (int n = begin; n < end;) {
        if (!Filtered || (k == 0 && n + 8 <= end)) {
            F x[8];
            groupInputs<W, Shaped, F, U>(x, phase, increment, t, start, slope, gain, invDt);
            if constexpr (Filtered) {
                dsp::groupBiquadAdd<F>(x, out + n * parts, parts, s1, s2, g);
                n += 8;
            } else {
                const int m = end - n < 8 ? end - n : 8;
                for (int f = 0; f < m; ++f) out[(n + f) * parts] += x[f];
                // The frames past the end were computed ahead: take their steps back.
                phase -= static_cast<uint32_t>(8 - m) * increment;
                t -= static_cast<float>(8 - m);
                n += m;
            }
            continue;
        }
        // A frame of a group cut short: its input joins the group's inputs so far.
        F x[8];
        lanes(c.gx[k]) = voiceInput<W, Shaped, F, U>(phase, increment, t, start, slope, gain, invDt);
        for (uint32_t j = 0; j <= k; ++j) x[j] = lanes(c.gx[j]);
        phase += increment;
        t += 1.0f;
        const F y = dsp::groupBiquadOutput<F>(x, static_cast<int>(k), s1, s2, g);
        out[n * parts] += y;
        if (k == 7) {
            const F y6 = dsp::groupBiquadOutput<F>(x, 6, s1, s2, g);  // the same bits as when it was output
            dsp::groupBiquadState<F>(x[6], x[7], y6, y, g, s1, s2);
        }
        k = (k + 1) & 7u;
        ++n;
    }
    lanes(c.phase) = phase;
    lanes(c.t) = t;
    lanes(c.s1) = s1;
    lanes(c.s2) = s2;
}

template <Waveform W, bool Filtered, bool Shaped, class F, class U>
__attribute__((always_inline)) inline void renderVoices(VoiceBank::Chunk& c, f8* acc, int begin, int end, uint32_t k,
                                                        const VoiceBank::GroupFilter& g) noexcept {
    constexpr int parts = int(sizeof(f8) / sizeof(F));
    for (int part = 0; part < parts; ++part) renderLanes<W, Filtered, Shaped, F, U>(c, acc, begin, end, k, g, part);
}

// Lane i's group through the lowpass, along time: x holds its inputs for frames [k0, k1) of the
// group (the earlier ones are in the chunk's gx). Returns the group's outputs; when the group is
// complete (k1 == 8) advances the state, else keeps the inputs so far.
BOOP_SIMD_INLINE f8 filterAlongTime(VoiceBank::Chunk& c, int i, f8 x, uint32_t k0, uint32_t k1, float& s1, float& s2,
                                    const VoiceBank::GroupFilter& g) noexcept {
    if (k0 > 0)
        for (uint32_t k = 0; k < k0; ++k) x[k] = c.gx[k][i];  // the group's earlier inputs
    const f8 a = dsp::groupBiquadFrames(x, s1, s2, g);
    if (k1 == 8) {
        dsp::groupBiquadState<float>(x[6], x[7], a[6], a[7], g, s1, s2);
    } else {
        for (uint32_t k = k0; k < k1; ++k) c.gx[k][i] = x[k];
    }
    return a;
}

// Frames [k0, k1) of a group of N lanes' outputs added into mono (its frame k0 first), lane after
// lane, as separate lanes would add.
template <int N>
BOOP_SIMD_INLINE void addLanes(const f8* y, float* mono, uint32_t k0, uint32_t k1) noexcept {
    if (k0 == 0 && k1 == 8) {
        f8u& out = *reinterpret_cast<f8u*>(mono);
        f8 sum = out;
        for (int j = 0; j < N; ++j) sum += y[j];
        out = sum;
    } else {
        for (uint32_t k = k0; k < k1; ++k) {
            float sum = mono[k - k0];
            for (int j = 0; j < N; ++j) sum += y[j][k];
            mono[k - k0] = sum;
        }
    }
}

// The same voice for a few lanes, a group of eight frames per vector: what a chunk with only a
// few sounding lanes renders with, since the lane-major loop above would spend most of its work
// on silent lanes. The waveform and envelope are computed for the group's frames at once, and the
// lowpass for the whole group from its state before the group: output k is the same sum of
// products, in the same order, as above, so a voice gives the same values whichever loop renders
// it and however the block is cut. (Here the inputs after frame k are added too, times a zero
// coefficient: adding a zero changes no value, only, where the sum itself is zero, its sign,
// and a zero's sign never reaches the mix, whose sums start from +0.) The only recursion left
// is from one group's last two outputs to the next group's: two multiply-adds and an add per
// eight frames.
// Lanes are added into mono one after another.
template <Waveform W, bool Filtered, bool Shaped, int N>
__attribute__((always_inline)) inline void renderLanesTime(VoiceBank::Chunk& c, const int* which, float* mono,
                                                           int begin, int end, uint32_t k0,
                                                           const VoiceBank::GroupFilter& g) noexcept {
    using F = f8;
    using U = u8;
    const U frameSteps = {0, 1, 2, 3, 4, 5, 6, 7};
    const F frameIndex = {0, 1, 2, 3, 4, 5, 6, 7};
    uint32_t phase[N], increment[N];
    float start[N], t[N], s1[N], s2[N], slope[N], gain[N], invDt[N];
    for (int j = 0; j < N; ++j) {
        const int i = which[j];
        phase[j] = c.phase[i];
        increment[j] = c.increment[i];
        start[j] = c.start[i];
        t[j] = c.t[i];
        s1[j] = c.s1[i];
        s2[j] = c.s2[i];
        slope[j] = c.slope[i];
        gain[j] = c.gain[i];
        invDt[j] = c.invDt[i];
    }
    for (int n = begin; n < end;) {
        // This call's frames of the group: [k0, k1) of its eight.
        const uint32_t k1 = static_cast<uint32_t>(end - n) < 8 - k0 ? k0 + static_cast<uint32_t>(end - n) : 8;
        const int m = static_cast<int>(k1 - k0);
        F y[N];
        for (int j = 0; j < N; ++j) {
            // Frame k of the group is k - k0 frames from now.
            const U ph = phase[j] + (frameSteps - k0) * increment[j];
            const F tk = t[j] + (frameIndex - static_cast<float>(k0));  // whole frames: exact
            F x = voiceInput<W, Shaped, F, U>(ph, U{} + increment[j], tk, splat(start[j]), splat(slope[j]),
                                              splat(gain[j]), splat(invDt[j]));
            phase[j] += static_cast<uint32_t>(m) * increment[j];
            t[j] += static_cast<float>(m);
            if constexpr (Filtered)
                y[j] = filterAlongTime(c, which[j], x, k0, k1, s1[j], s2[j], g);
            else
                y[j] = x;
        }
        addLanes<N>(y, mono + n, k0, k1);
        n += m;
        k0 = k1 & 7u;
    }
    for (int j = 0; j < N; ++j) {
        const int i = which[j];
        c.phase[i] = phase[j];
        c.t[i] = t[j];
        c.s1[i] = s1[j];
        c.s2[i] = s2[j];
    }
}

// The sounding lanes of a chunk (at most kMaxTimeMajorLanes), rendered together along time.
template <Waveform W, bool Filtered, bool Shaped>
__attribute__((always_inline)) inline void renderLaneTime(VoiceBank::Chunk& c, unsigned active, float* mono, int begin,
                                                          int end, uint32_t k,
                                                          const VoiceBank::GroupFilter& g) noexcept {
    int which[VoiceBank::kMaxTimeMajorLanes];
    int n = 0;
    for (int i = 0; i < kLanes && n < VoiceBank::kMaxTimeMajorLanes; ++i)
        if (active & (1u << i)) which[n++] = i;
    if (n == 1) renderLanesTime<W, Filtered, Shaped, 1>(c, which, mono, begin, end, k, g);
    if (n == 2) renderLanesTime<W, Filtered, Shaped, 2>(c, which, mono, begin, end, k, g);
    if (n == 3) renderLanesTime<W, Filtered, Shaped, 3>(c, which, mono, begin, end, k, g);
    static_assert(VoiceBank::kMaxTimeMajorLanes == 3, "one instance per lane count");
}

// One entry per (waveform, filter, shaping) the timbres use, compiled twice: for the baseline
// target and, where the CPU has them, for AVX2 + FMA (one 256-bit register holds all eight
// lanes). Chosen once in prepare(); the audio thread only follows a function pointer.
#define BOOP_VOICE_KERNEL(NAME, W, FILTERED, SHAPED, SUFFIX, ATTRIBUTES, F, U)                                     \
    ATTRIBUTES static void render##NAME##SUFFIX(VoiceBank::Chunk& c, f8* acc, int b, int e, uint32_t k,            \
                                                const VoiceBank::GroupFilter& g) BOOP_RT {                         \
        renderVoices<W, FILTERED, SHAPED, F, U>(c, acc, b, e, k, g);                                               \
    }                                                                                                              \
    ATTRIBUTES static void lane##NAME##SUFFIX(VoiceBank::Chunk& c, unsigned i, float* m, int b, int e, uint32_t k, \
                                              const VoiceBank::GroupFilter& g) BOOP_RT {                           \
        renderLaneTime<W, FILTERED, SHAPED>(c, i, m, b, e, k, g);                                                  \
    }
#define BOOP_VOICE_KERNELS(SUFFIX, ATTRIBUTES, F, U)                                       \
    BOOP_VOICE_KERNEL(Sine, Waveform::Sine, true, false, SUFFIX, ATTRIBUTES, F, U)         \
    BOOP_VOICE_KERNEL(PureSine, Waveform::Sine, false, true, SUFFIX, ATTRIBUTES, F, U)     \
    BOOP_VOICE_KERNEL(Triangle, Waveform::Triangle, true, false, SUFFIX, ATTRIBUTES, F, U) \
    BOOP_VOICE_KERNEL(Saw, Waveform::Saw, true, false, SUFFIX, ATTRIBUTES, F, U)

BOOP_VOICE_KERNELS(Baseline, , f4, u4)
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define BOOP_HAVE_AVX2_KERNELS 1
BOOP_VOICE_KERNELS(Avx2, __attribute__((target("avx2,fma"))), f8, u8)
#endif

VoiceBank::Kernels VoiceBank::chooseKernels(const TimbreSpec& spec) noexcept {
    bool wide = false;
#if defined(BOOP_HAVE_AVX2_KERNELS)
    wide = useAvx2();
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

}  // namespace boop
