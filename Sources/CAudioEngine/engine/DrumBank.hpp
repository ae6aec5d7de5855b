#pragma once
#include <cstdint>

#include "dsp/DrumNoise.hpp"
#include "dsp/DrumVoice.hpp"
#include "dsp/SimdTypes.hpp"
#include "rt/Realtime.hpp"

namespace boop {

// The engine's eight drum voices, rendered together. Each hit plays a DrumRecipe as the scalar
// DrumVoice defines it, in two parts. The tones (swept sines) are the lanes of eight-wide
// vectors, in the same structure-of-arrays form as the tonal VoiceBank, on a 32-bit phase with
// the polynomial sine instead of double-precision std::sin. The noise is read from tables
// filtered once when the engine is prepared (DrumNoiseTables) and rendered per hit along time,
// eight frames per vector: most of a kit's sounding hits are kick tails with no noise left, and
// the hats have no tone, so each part costs only while it sounds.
class DrumBank {
  public:
    static constexpr int kVoices = simd::kLanes;

    // Allocates the noise tables; not for the audio thread.
    void prepare(double sampleRate);
    void reset() noexcept;

    // A free lane, or the oldest hit when all eight ring (it has decayed under seven newer ones).
    void trigger(uint32_t key, float gain, uint32_t seed, uint64_t order) BOOP_RT;
    // Fades every sounding hit to silence over `seconds` (never slower than a fade already running).
    void fadeAll(double seconds) BOOP_RT;

    // Adds frames [begin, end): the tones into acc, lane by lane (the caller folds the lanes once
    // per block), the noise into mono.
    void render(simd::f8* acc, float* mono, int begin, int end) BOOP_RT;

    int activeCount() const BOOP_RT;
    const DrumNoiseTables& noiseTables() const noexcept { return tables_; }

    struct alignas(32) Chunk {
        simd::u8 phase;       // the tone's phase, 2^32 per turn
        simd::f8 baseInc;     // resting pitch, in phase units per sample
        simd::f8 sweepInc;    // pitch sweep above it, decaying
        simd::f8 sweepDecay;  //
        simd::f8 toneAmp, toneDecay;
        simd::f8 age, rampIn;  // the 1 ms ramp-in
        simd::f8 fadeGain, fadeStep, gain;
        simd::i8 alive;  // -1 while the lane's tone sounds
    };

    // One hit's noise. Its level at age a is groupAmp * powers[a % 8], groupAmp being the level
    // at the start of a's group of eight frames (multiplied by decay^8 from group to group), so
    // each sample's value depends on its age only, never on where a block was cut.
    struct Noise {
        const float* table = nullptr;
        uint32_t start = 0, age = 0;
        float groupAmp = 0.0f, decay8 = 0.0f;
        alignas(32) float powers[16] = {};  // decay^k for k < 8; the rest read past a group's end
        uint32_t clapPeriod = 0;            // re-strikes while age < 3 * clapPeriod
        float perPeriod = 0.0f;
        uint32_t rampIn = 1;
        float perRamp = 1.0f;
        float fadeGain = 1.0f, fadeStep = 0.0f, gain = 0.0f;
        bool alive = false;
    };

    using Kernel = void (*)(Chunk&, simd::f8*, int, int) noexcept [[clang::nonblocking]];
    // Indexed by ramp-in * 2 + fade: the stages compiled into each variant.
    using Kernels = Kernel[4];

  private:
    static const Kernels* chooseKernels() noexcept;
    void renderTones(simd::f8* acc, int begin, int end) BOOP_RT;
    void renderNoise(Noise& v, float* mono, int begin, int end) BOOP_RT;

    double sampleRate_ = 44100.0;
    const Kernels* kernels_ = nullptr;
    DrumNoiseTables tables_;
    Chunk chunk_{};
    Noise noise_[kVoices];
    uint64_t order_[kVoices] = {};
};

}  // namespace boop
