#include "engine/DrumBank.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace boop {

using namespace simd;

void DrumBank::prepare(double sampleRate) {
    sampleRate_ = sampleRate;
    kernels_ = chooseKernels();
    tables_.prepare(sampleRate);
    reset();
}

void DrumBank::reset() noexcept {
    chunk_ = Chunk{};
    chunk_.rampIn = splat(1.0f);
    chunk_.fadeGain = splat(1.0f);
    for (Noise& v : noise_) v = Noise{};
    for (uint64_t& o : order_) o = 0;
}

int DrumBank::activeCount() const BOOP_RT {
    int n = 0;
    for (int l = 0; l < kVoices; ++l) n += chunk_.alive[l] != 0 || noise_[l].alive;
    return n;
}

void DrumBank::trigger(uint32_t key, float gain, uint32_t seed, uint64_t order) BOOP_RT {
    int lane = -1;
    for (int l = 0; l < kVoices && lane < 0; ++l)
        if (!chunk_.alive[l] && !noise_[l].alive) lane = l;
    if (lane < 0) {
        lane = 0;
        for (int l = 1; l < kVoices; ++l)
            if (order_[l] < order_[lane]) lane = l;
    }
    order_[lane] = order;

    const DrumRecipe r = DrumRecipe::forKey(key, sampleRate_);
    const double unitsPerHz = 4294967296.0 / sampleRate_;
    Chunk& c = chunk_;
    c.phase[lane] = 0;
    c.baseInc[lane] = static_cast<float>(r.baseHz * unitsPerHz);
    c.sweepInc[lane] = static_cast<float>(r.sweepHz * unitsPerHz);
    c.sweepDecay[lane] = static_cast<float>(r.sweepDecay);
    c.toneAmp[lane] = r.toneAmp;
    c.toneDecay[lane] = r.toneDecay;
    c.age[lane] = 0.0f;
    c.rampIn[lane] = static_cast<float>(r.rampInFrames);
    c.fadeGain[lane] = 1.0f;
    c.fadeStep[lane] = 0.0f;
    c.gain[lane] = gain;
    c.alive[lane] = r.toneAmp > 0.0f ? -1 : 0;

    Noise& v = noise_[lane];
    v.table = tables_.table(r.kind);
    v.alive = v.table != nullptr && r.noiseAmp > 0.0f;
    v.start = tables_.start(seed);
    v.age = 0;
    v.groupAmp = r.noiseAmp;
    float power = 1.0f;
    for (int k = 0; k < 8; ++k) {
        v.powers[k] = power;
        power *= r.noiseDecay;
    }
    v.decay8 = power;
    v.clapPeriod = r.clapPeriod;
    v.perPeriod = r.clapPeriod > 0 ? 1.0f / static_cast<float>(r.clapPeriod) : 0.0f;
    v.rampIn = r.rampInFrames;
    v.perRamp = 1.0f / static_cast<float>(r.rampInFrames);
    v.fadeGain = 1.0f;
    v.fadeStep = 0.0f;
    v.gain = gain;
}

void DrumBank::fadeAll(double seconds) BOOP_RT {
    const float step = 1.0f / static_cast<float>(std::max(1.0, seconds * sampleRate_));
    for (int l = 0; l < kVoices; ++l) {
        if (chunk_.alive[l] && step > chunk_.fadeStep[l]) chunk_.fadeStep[l] = step;
        if (noise_[l].alive && step > noise_[l].fadeStep) noise_[l].fadeStep = step;
    }
}

// One frame of every lane's tone per iteration, state in registers: the swept sine (polynomial,
// on a 32-bit phase), its decay, the 1 ms ramp-in, a fade, and the tone's end once it is under
// -80 dB. Each step mirrors DrumVoice::process, in the same order. The ramp-in and the fade are
// compiled in only when some lane needs them (renderTones() picks the variant and splits the
// block where a stage ends), so a kit costs what it uses.
template <class F, class U, bool Ramp, bool Fade>
__attribute__((always_inline)) inline void renderToneLanes(DrumBank::Chunk& c, f8* acc, int begin, int end,
                                                           int part) noexcept {
    using I = IntOf<F>;
    constexpr int parts = int(sizeof(f8) / sizeof(F));
    auto f = [part](f8& v) -> F& { return reinterpret_cast<F*>(&v)[part]; };
    auto u = [part](u8& v) -> U& { return reinterpret_cast<U*>(&v)[part]; };
    auto i = [part](i8& v) -> I& { return reinterpret_cast<I*>(&v)[part]; };
    F* out = reinterpret_cast<F*>(acc) + part;
    const F zero = splatT<F>(0.0f), one = splatT<F>(1.0f), silence = splatT<F>(1e-4f);

    U phase = u(c.phase);
    F sweepInc = f(c.sweepInc), toneAmp = f(c.toneAmp), age = f(c.age), fadeGain = f(c.fadeGain);
    const F baseInc = f(c.baseInc), sweepDecay = f(c.sweepDecay), toneDecay = f(c.toneDecay);
    const F rampIn = f(c.rampIn), fadeStep = f(c.fadeStep), gain = f(c.gain);
    // The reciprocal once per block: a per-sample division was a fifth of the kernel's time.
    const F perRamp = one / rampIn;
    I alive = i(c.alive);
    constexpr float kTurnsPerStep = 1.0f / 4294967296.0f;

    for (int n = begin; n < end; ++n) {
        const F turns = __builtin_convertvector(reinterpret_cast<const I&>(phase), F) * kTurnsPerStep;
        F y = toneAmp * sinTurns(turns);
        const F increment = baseInc + sweepInc;  // < 2^31: the pitch stays under half the rate
        const I step = __builtin_convertvector(increment, I);
        phase += reinterpret_cast<const U&>(step);
        sweepInc *= sweepDecay;
        toneAmp *= toneDecay;

        if constexpr (Ramp) {
            y *= select<F>(age < rampIn, age * perRamp, one);
            age = min(age + 1.0f, rampIn);
        }
        if constexpr (Fade) {
            fadeGain = max(fadeGain - fadeStep, zero);
            y *= fadeGain;
            alive &= fadeGain > zero;
        }
        out[n * parts] += select<F>(alive, y * gain, zero);
        alive &= ~(toneAmp < silence);
    }
    u(c.phase) = phase;
    f(c.sweepInc) = sweepInc;
    f(c.toneAmp) = toneAmp;
    f(c.age) = age;
    f(c.fadeGain) = fadeGain;
    i(c.alive) = alive;
}

template <class F, class U, bool Ramp, bool Fade>
__attribute__((always_inline)) inline void renderTones(DrumBank::Chunk& c, f8* acc, int begin, int end) noexcept {
    constexpr int parts = int(sizeof(f8) / sizeof(F));
    for (int part = 0; part < parts; ++part) renderToneLanes<F, U, Ramp, Fade>(c, acc, begin, end, part);
}

// Compiled for the baseline target (two halves of four lanes) and, where the CPU has them, for
// AVX2 + FMA (all eight lanes in one register); the table is chosen once in prepare().
template <bool Ramp, bool Fade>
static void renderDrumsBaseline(DrumBank::Chunk& c, f8* acc, int b, int e) BOOP_RT {
    renderTones<f4, u4, Ramp, Fade>(c, acc, b, e);
}
#define BOOP_DRUM_KERNEL_TABLE(NAME) \
    { NAME<false, false>, NAME<false, true>, NAME<true, false>, NAME<true, true> }
static const DrumBank::Kernels kBaselineKernels = BOOP_DRUM_KERNEL_TABLE(renderDrumsBaseline);
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define BOOP_HAVE_AVX2_DRUMS 1
template <bool Ramp, bool Fade>
__attribute__((target("avx2,fma"))) static void renderDrumsAvx2(DrumBank::Chunk& c, f8* acc, int b, int e) BOOP_RT {
    renderTones<f8, u8, Ramp, Fade>(c, acc, b, e);
}
static const DrumBank::Kernels kAvx2Kernels = BOOP_DRUM_KERNEL_TABLE(renderDrumsAvx2);
// The same eight-lane code with AVX-512VL's 32 vector registers instead of 16: the kernel's
// two dozen state and coefficient vectors then stay in registers instead of spilling every frame.
template <bool Ramp, bool Fade>
__attribute__((target("avx512f,avx512vl,avx2,fma"))) static void renderDrumsAvx512(DrumBank::Chunk& c, f8* acc, int b,
                                                                                   int e) BOOP_RT {
    renderTones<f8, u8, Ramp, Fade>(c, acc, b, e);
}
static const DrumBank::Kernels kAvx512Kernels = BOOP_DRUM_KERNEL_TABLE(renderDrumsAvx512);
#endif

const DrumBank::Kernels* DrumBank::chooseKernels() noexcept {
#if defined(BOOP_HAVE_AVX2_DRUMS)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && !std::getenv("BOOP_NO_AVX2")) {
        if (__builtin_cpu_supports("avx512vl") && !std::getenv("BOOP_NO_AVX512")) return &kAvx512Kernels;
        return &kAvx2Kernels;
    }
#endif
    return &kBaselineKernels;
}

void DrumBank::render(f8* acc, float* mono, int begin, int end) BOOP_RT {
    renderTones(acc, begin, end);
    for (Noise& v : noise_)
        if (v.alive) renderNoise(v, mono, begin, end);
}

void DrumBank::renderTones(f8* acc, int begin, int end) BOOP_RT {
    while (begin < end) {
        // Which stages some sounding lane is in, and for how many more frames.
        bool any = false, fade = false;
        uint32_t rampFrames = 0;
        for (int l = 0; l < kVoices; ++l) {
            if (!chunk_.alive[l]) continue;
            any = true;
            fade |= chunk_.fadeStep[l] > 0.0f;
            rampFrames = std::max(rampFrames, static_cast<uint32_t>(chunk_.rampIn[l] - chunk_.age[l]));
        }
        if (!any) return;
        int run = end - begin;
        if (rampFrames > 0) run = std::min(run, static_cast<int>(rampFrames));
        (*kernels_)[(rampFrames > 0) * 2 + fade](chunk_, acc, begin, begin + run);
        begin += run;
    }
}

// One hit's noise along time, eight frames per vector where the hit is past its clap and not
// fading (both rare and short, done frame by frame with the same arithmetic). Every sample is
// ((table * level) * ramp-in) * fade * gain, whichever path renders it.
void DrumBank::renderNoise(Noise& v, float* mono, int begin, int end) BOOP_RT {
    const uint32_t mask = tables_.mask();
    // The lane's state in locals for the loop: stored to v each group and read back whole, it
    // stalled every group on a failed store-to-load forward.
    uint32_t age = v.age;
    float groupAmp = v.groupAmp;
    const float decay8 = v.decay8, gain = v.gain;
    for (int n = begin; n < end;) {
        const uint32_t k0 = age & 7u;
        const int count = std::min(static_cast<int>(8 - k0), end - n);
        const float* t = v.table + ((v.start + age) & mask);
        // The loop is read straight on, but in short runs between the other parts' work, too
        // short for the hardware prefetcher to follow.
        __builtin_prefetch(t + 64);
        if (v.fadeStep > 0.0f || age < 3 * v.clapPeriod) {
            for (int k = 0; k < count; ++k) {
                const uint32_t a = age + static_cast<uint32_t>(k);
                float level = groupAmp * v.powers[k0 + k];
                if (a < 3 * v.clapPeriod)
                    level *= 1.0f - static_cast<float>(a % v.clapPeriod) * v.perPeriod;  // a re-strike
                float y = t[k] * level;
                if (a < v.rampIn) y *= static_cast<float>(a) * v.perRamp;
                if (v.fadeStep > 0.0f) {
                    v.fadeGain = std::max(v.fadeGain - v.fadeStep, 0.0f);
                    y *= v.fadeGain;
                }
                mono[n + k] += y * gain;
                if (v.fadeGain <= 0.0f) {
                    v.alive = false;
                    return;
                }
            }
        } else {
            f8 table, powers;
            std::memcpy(&table, t, sizeof table);
            std::memcpy(&powers, v.powers + k0, sizeof powers);
            f8 y = table * (groupAmp * powers);
            if (age < v.rampIn) {
                const f8 ages = static_cast<float>(age) + f8{0, 1, 2, 3, 4, 5, 6, 7};
                y *= select<f8>(ages < static_cast<float>(v.rampIn), ages * v.perRamp, splat(1.0f));
            }
            y *= gain;
            if (count == 8) {
                f8 m;
                std::memcpy(&m, mono + n, sizeof m);
                m += y;
                std::memcpy(mono + n, &m, sizeof m);
            } else {
                for (int k = 0; k < count; ++k) mono[n + k] += y[k];
            }
        }
        age += static_cast<uint32_t>(count);
        n += count;
        if ((age & 7u) == 0) {
            groupAmp *= decay8;
            if (groupAmp < 1e-4f) {  // -80 dB: inaudible, done
                v.alive = false;
                break;
            }
        }
    }
    v.age = age;
    v.groupAmp = groupAmp;
}

}  // namespace boop
