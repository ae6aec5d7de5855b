#pragma once
#include <cstdint>

#include "dsp/DrumVoice.hpp"
#include "dsp/SimdTypes.hpp"
#include "rt/Realtime.hpp"

namespace boop {

// The engine's eight drum voices, rendered together: one lane of eight-wide vectors per hit, in
// the same structure-of-arrays form as the tonal VoiceBank. Each lane plays a DrumRecipe exactly
// as the scalar DrumVoice defines it (same noise bits, same filters and decays); the tone runs on
// a 32-bit phase with the polynomial sine instead of double-precision std::sin, which is what
// made the scalar voice ten times the cost of a tonal one.
class DrumBank {
  public:
    static constexpr int kVoices = simd::kLanes;

    void prepare(double sampleRate) noexcept;
    void reset() noexcept;

    // A free lane, or the oldest hit when all eight ring (it has decayed under seven newer ones).
    void trigger(uint32_t key, float gain, uint32_t seed, uint64_t order) BOOP_RT;
    // Fades every sounding hit to silence over `seconds` (never slower than a fade already running).
    void fadeAll(double seconds) BOOP_RT;

    // Adds frames [begin, end) into acc, lane by lane (the caller folds the lanes once per block).
    void render(simd::f8* acc, int begin, int end) BOOP_RT;

    int activeCount() const BOOP_RT;

    struct alignas(32) Chunk {
        simd::u8 phase;       // the tone's phase, 2^32 per turn
        simd::u8 rng;         // xorshift32 state per lane
        simd::f8 baseInc;     // resting pitch, in phase units per sample
        simd::f8 sweepInc;    // pitch sweep above it, decaying
        simd::f8 sweepDecay;  //
        simd::f8 toneAmp, toneDecay, noiseAmp, noiseDecay;
        simd::f8 b0, b1, b2, a1, a2, z1, z2;  // the noise filter (lowpass, per lane)
        simd::i8 highpass;                    // -1: the noise is its complement (n - lowpass)
        simd::u8 clapPos, clapPeriod, clapLeft;
        simd::f8 age, rampIn;  // the 1 ms ramp-in
        simd::f8 fadeGain, fadeStep, gain;
        simd::i8 alive;  // -1 while the lane sounds
    };

    using Kernel = void (*)(Chunk&, simd::f8*, int, int) noexcept [[clang::nonblocking]];
    // Indexed by clap * 4 + ramp-in * 2 + fade: the stages compiled into each variant.
    using Kernels = Kernel[8];

  private:
    static const Kernels* chooseKernels() noexcept;

    double sampleRate_ = 44100.0;
    const Kernels* kernels_ = nullptr;
    Chunk chunk_{};
    uint64_t order_[kVoices] = {};
};

}  // namespace boop
