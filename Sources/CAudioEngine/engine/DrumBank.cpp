#include "engine/DrumBank.hpp"

#include <algorithm>
#include <cstdlib>

#include "dsp/Lowpass.hpp"

namespace boop {

using namespace simd;

void DrumBank::prepare(double sampleRate) noexcept {
    sampleRate_ = sampleRate;
    kernels_ = chooseKernels();
    reset();
}

void DrumBank::reset() noexcept {
    chunk_ = Chunk{};
    chunk_.clapPeriod = u8{} + 1u;
    chunk_.rampIn = splat(1.0f);
    chunk_.fadeGain = splat(1.0f);
    for (uint64_t& o : order_) o = 0;
}

int DrumBank::activeCount() const BOOP_RT {
    int n = 0;
    for (int l = 0; l < kVoices; ++l) n += chunk_.alive[l] != 0;
    return n;
}

void DrumBank::trigger(uint32_t key, float gain, uint32_t seed, uint64_t order) BOOP_RT {
    int lane = -1;
    for (int l = 0; l < kVoices && lane < 0; ++l)
        if (!chunk_.alive[l]) lane = l;
    if (lane < 0) {
        lane = 0;
        for (int l = 1; l < kVoices; ++l)
            if (order_[l] < order_[lane]) lane = l;
    }
    order_[lane] = order;

    const DrumRecipe r = DrumRecipe::forKey(key, sampleRate_);
    const BiquadCoefficients filter = BiquadCoefficients::lowpass(sampleRate_, r.noiseCutoffHz);
    const double unitsPerHz = 4294967296.0 / sampleRate_;
    Chunk& c = chunk_;
    uint32_t rng = seed * 2654435761u + 0x9e3779b9u;
    c.rng[lane] = rng == 0 ? 1 : rng;
    c.phase[lane] = 0;
    c.baseInc[lane] = static_cast<float>(r.baseHz * unitsPerHz);
    c.sweepInc[lane] = static_cast<float>(r.sweepHz * unitsPerHz);
    c.sweepDecay[lane] = static_cast<float>(r.sweepDecay);
    c.toneAmp[lane] = r.toneAmp;
    c.toneDecay[lane] = r.toneDecay;
    c.noiseAmp[lane] = r.noiseAmp;
    c.noiseDecay[lane] = r.noiseDecay;
    c.b0[lane] = filter.b0;
    c.b1[lane] = filter.b1;
    c.b2[lane] = filter.b2;
    c.a1[lane] = filter.a1;
    c.a2[lane] = filter.a2;
    c.z1[lane] = c.z2[lane] = 0.0f;
    c.highpass[lane] = r.noiseHighpass ? -1 : 0;
    c.clapPos[lane] = 0;
    c.clapPeriod[lane] = std::max<uint32_t>(r.clapPeriod, 1);
    c.clapLeft[lane] = 3 * r.clapPeriod;
    c.age[lane] = 0.0f;
    c.rampIn[lane] = static_cast<float>(r.rampInFrames);
    c.fadeGain[lane] = 1.0f;
    c.fadeStep[lane] = 0.0f;
    c.gain[lane] = gain;
    c.alive[lane] = -1;
}

void DrumBank::fadeAll(double seconds) BOOP_RT {
    const float step = 1.0f / static_cast<float>(std::max(1.0, seconds * sampleRate_));
    for (int l = 0; l < kVoices; ++l)
        if (chunk_.alive[l] && step > chunk_.fadeStep[l]) chunk_.fadeStep[l] = step;
}

// One frame of every lane per iteration, state in registers: the swept sine (polynomial, on a
// 32-bit phase), the xorshift noise through its lowpass or the lowpass's complement, the clap's
// three re-strikes, the decays, the 1 ms ramp-in, a fade, and the lane's end once both parts
// are under -80 dB. Each step mirrors DrumVoice::process, in the same order. The clap's
// re-strikes, the ramp-in and the fade are compiled in only when some lane needs them (render()
// picks the variant and splits the block where a stage ends), so a kit costs what it uses.
template <class F, class U, bool Clap, bool Ramp, bool Fade>
__attribute__((always_inline)) inline void renderDrumLanes(DrumBank::Chunk& c, f8* acc, int begin, int end,
                                                           int part) noexcept {
    using I = IntOf<F>;
    constexpr int parts = int(sizeof(f8) / sizeof(F));
    auto f = [part](f8& v) -> F& { return reinterpret_cast<F*>(&v)[part]; };
    auto u = [part](u8& v) -> U& { return reinterpret_cast<U*>(&v)[part]; };
    auto i = [part](i8& v) -> I& { return reinterpret_cast<I*>(&v)[part]; };
    F* out = reinterpret_cast<F*>(acc) + part;
    const F zero = splatT<F>(0.0f), one = splatT<F>(1.0f), silence = splatT<F>(1e-4f);

    U phase = u(c.phase), rng = u(c.rng), clapPos = u(c.clapPos), clapLeft = u(c.clapLeft);
    const U clapPeriod = u(c.clapPeriod);
    F sweepInc = f(c.sweepInc), toneAmp = f(c.toneAmp), noiseAmp = f(c.noiseAmp);
    F z1 = f(c.z1), z2 = f(c.z2), age = f(c.age), fadeGain = f(c.fadeGain);
    const F baseInc = f(c.baseInc), sweepDecay = f(c.sweepDecay), toneDecay = f(c.toneDecay);
    const F noiseDecay = f(c.noiseDecay), b0 = f(c.b0), b1 = f(c.b1), b2 = f(c.b2), a1 = f(c.a1), a2 = f(c.a2);
    const F rampIn = f(c.rampIn), fadeStep = f(c.fadeStep), gain = f(c.gain);
    // Reciprocals once per block: the per-sample divisions were a fifth of the kernel's time.
    const F perPeriod = one / __builtin_convertvector(clapPeriod, F), perRamp = one / rampIn;
    const I highpass = i(c.highpass);
    I alive = i(c.alive);
    constexpr float kTurnsPerStep = 1.0f / 4294967296.0f, kNoiseScale = 1.0f / 2147483648.0f;

    for (int n = begin; n < end; ++n) {
        const F turns = __builtin_convertvector(reinterpret_cast<const I&>(phase), F) * kTurnsPerStep;
        F y = toneAmp * sinTurns(turns);
        const F increment = baseInc + sweepInc;  // < 2^31: the pitch stays under half the rate
        const I step = __builtin_convertvector(increment, I);
        phase += reinterpret_cast<const U&>(step);
        sweepInc *= sweepDecay;
        toneAmp *= toneDecay;

        rng ^= rng << 13;
        rng ^= rng >> 17;
        rng ^= rng << 5;
        const F noise = __builtin_convertvector(reinterpret_cast<const I&>(rng), F) * kNoiseScale;
        const F low = b0 * noise + z1;
        z1 = b1 * noise - a1 * low + z2;
        z2 = b2 * noise - a2 * low;
        const F shaped = select<F>(highpass, noise - low, low);
        if constexpr (Clap) {
            const I clapping = clapLeft > 0u;
            const F strike = one - __builtin_convertvector(clapPos, F) * perPeriod;
            y += noiseAmp * select<F>(clapping, strike, one) * shaped;
            const U nextPos = clapPos + 1u;
            clapPos = clapping ? (nextPos == clapPeriod ? U{} : nextPos) : clapPos;
            clapLeft += reinterpret_cast<const U&>(clapping);  // the mask is -1 where it counts down
        } else {
            y += noiseAmp * shaped;
        }
        noiseAmp *= noiseDecay;

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
        alive &= ~((toneAmp < silence) & (noiseAmp < silence));
    }
    u(c.phase) = phase;
    u(c.rng) = rng;
    u(c.clapPos) = clapPos;
    u(c.clapLeft) = clapLeft;
    f(c.sweepInc) = sweepInc;
    f(c.toneAmp) = toneAmp;
    f(c.noiseAmp) = noiseAmp;
    f(c.z1) = z1;
    f(c.z2) = z2;
    f(c.age) = age;
    f(c.fadeGain) = fadeGain;
    i(c.alive) = alive;
}

template <class F, class U, bool Clap, bool Ramp, bool Fade>
__attribute__((always_inline)) inline void renderDrums(DrumBank::Chunk& c, f8* acc, int begin, int end) noexcept {
    constexpr int parts = int(sizeof(f8) / sizeof(F));
    for (int part = 0; part < parts; ++part) renderDrumLanes<F, U, Clap, Ramp, Fade>(c, acc, begin, end, part);
}

// Compiled for the baseline target (two halves of four lanes) and, where the CPU has them, for
// AVX2 + FMA (all eight lanes in one register); the table is chosen once in prepare().
template <bool Clap, bool Ramp, bool Fade>
static void renderDrumsBaseline(DrumBank::Chunk& c, f8* acc, int b, int e) BOOP_RT {
    renderDrums<f4, u4, Clap, Ramp, Fade>(c, acc, b, e);
}
#define BOOP_DRUM_KERNEL_TABLE(NAME)                                                                            \
    {                                                                                                           \
        NAME<false, false, false>, NAME<false, false, true>, NAME<false, true, false>, NAME<false, true, true>, \
            NAME<true, false, false>, NAME<true, false, true>, NAME<true, true, false>, NAME<true, true, true>  \
    }
static const DrumBank::Kernels kBaselineKernels = BOOP_DRUM_KERNEL_TABLE(renderDrumsBaseline);
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define BOOP_HAVE_AVX2_DRUMS 1
template <bool Clap, bool Ramp, bool Fade>
__attribute__((target("avx2,fma"))) static void renderDrumsAvx2(DrumBank::Chunk& c, f8* acc, int b, int e) BOOP_RT {
    renderDrums<f8, u8, Clap, Ramp, Fade>(c, acc, b, e);
}
static const DrumBank::Kernels kAvx2Kernels = BOOP_DRUM_KERNEL_TABLE(renderDrumsAvx2);
// The same eight-lane code with AVX-512VL's 32 vector registers instead of 16: the kernel's
// two dozen state and coefficient vectors then stay in registers instead of spilling every frame.
template <bool Clap, bool Ramp, bool Fade>
__attribute__((target("avx512f,avx512vl,avx2,fma"))) static void renderDrumsAvx512(DrumBank::Chunk& c, f8* acc, int b,
                                                                                   int e) BOOP_RT {
    renderDrums<f8, u8, Clap, Ramp, Fade>(c, acc, b, e);
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

void DrumBank::render(f8* acc, int begin, int end) BOOP_RT {
    while (begin < end) {
        // Which stages some sounding lane is in, and for how many more frames.
        bool any = false, fade = false;
        uint32_t clapFrames = 0, rampFrames = 0;
        for (int l = 0; l < kVoices; ++l) {
            if (!chunk_.alive[l]) continue;
            any = true;
            fade |= chunk_.fadeStep[l] > 0.0f;
            clapFrames = std::max(clapFrames, chunk_.clapLeft[l]);
            rampFrames = std::max(rampFrames, static_cast<uint32_t>(chunk_.rampIn[l] - chunk_.age[l]));
        }
        if (!any) return;
        int run = end - begin;
        if (clapFrames > 0) run = std::min(run, static_cast<int>(clapFrames));
        if (rampFrames > 0) run = std::min(run, static_cast<int>(rampFrames));
        (*kernels_)[(clapFrames > 0) * 4 + (rampFrames > 0) * 2 + fade](chunk_, acc, begin, begin + run);
        begin += run;
    }
}

}  // namespace boop
