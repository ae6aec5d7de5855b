#pragma once
#include <cstdint>

#include "dsp/DrumNoise.hpp"
#include "dsp/DrumRecipe.hpp"
#include "dsp/SimdTypes.hpp"
#include "rt/Realtime.hpp"

namespace boop {

// The engine's eight drum voices. Each hit plays a DrumRecipe as the scalar DrumVoice defines
// it, in two parts, each rendered only while it sounds: most of a kit's sounding hits are kick
// tails with no noise left, and the hats have no tone.
//
// The tone is a sine swept down to its resting pitch, decaying exponentially. While it sweeps,
// it is rendered along time, eight frames per vector: its phase is a 32-bit accumulator, and
// each group of eight frames is the polynomial sine at offsets precomputed for the sweep's
// decay. Once the sweep has less than a millionth of a turn left to add, the tone is a plain
// damped sinusoid, A r^n sin(theta + w n), the imaginary part of a complex number that turns by
// r e^(iw) per frame. Ringing tones are the lanes of eight-wide vectors: a frame of all of them
// is two multiply-adds from each lane's complex level and its rotations for the frame's place
// in its group of eight, and the levels turn once per group. (A kick rings for 2.6 s above
// -80 dB and sweeps for the first 0.45 s of it.)
//
// The noise is read from tables filtered once when the engine is prepared (DrumNoiseTables),
// along time, eight frames per vector.
//
// Groups of eight frames are counted on the engine's clock, and everything that advances does so
// once per group, so a sample's value never depends on where a block was cut.
class DrumBank {
  public:
    static constexpr int kVoices = dsp::simd::kLanes;

    // Allocates the noise tables; not for the audio thread.
    void prepare(double sampleRate);
    void reset() noexcept;

    // A free lane, or the oldest hit when all eight ring (it has decayed under seven newer ones).
    // frame: the engine's clock at the hit.
    void trigger(uint32_t key, float gain, uint32_t seed, uint64_t order, uint64_t frame) BOOP_RT;
    // Fades every sounding hit to silence over `seconds` (never slower than a fade already running).
    void fadeAll(double seconds) BOOP_RT;

    // Adds frames [begin, end) of the block whose first frame is the engine's clock `clock`
    // into mono.
    void render(float* mono, uint64_t clock, int begin, int end) BOOP_RT;

    int activeCount() const BOOP_RT;

    // What every part of a hit has: its age, the ramp-in, the fade, the velocity.
    struct Envelope {
        uint32_t age = 0;
        uint32_t rampIn = 1;  // the 1 ms ramp-in
        float perRamp = 1.0f;
        float fadeGain = 1.0f, fadeStep = 0.0f, gain = 0.0f;
    };

    // A tone while it sweeps. Group offsets are the place in the engine's group of eight frames:
    // the state is that of the group's first frame, extrapolated back when the hit began later.
    struct Sweep {
        bool alive = false;
        Envelope env;
        uint32_t offset = 0;  // the engine's clock at the hit, modulo eight
        uint32_t phase = 0;   // 2^32 per turn
        float sweep = 0.0f, amp = 0.0f;
        float sweepLeftPerSweep = 0.0f;  // the sweep still to come, per unit of sweep increment
        uint32_t base8 = 0;              // eight frames of the resting pitch, in phase units
        float sweepSum8 = 0.0f, sweepDecay8 = 0.0f, decay8 = 0.0f;
        double decay = 0.0, omega = 0.0;          // per frame: the level's decay, the pitch (radians)
        alignas(32) uint32_t baseSteps[16] = {};  // k frames of the resting pitch
        alignas(32) float sweepSums[16] = {};     // the sweep's decay summed over k frames
        alignas(32) float powers[16] = {};        // the level's decay over k frames
    };

    // The ringing tones, lane by lane: each lane's complex level at the group's first frame
    // (velocity included; kept in double, used in float), its turn over a group, its turn
    // r^k e^(i k w) to each frame k of a group, and its level without the velocity (for its end).
    typedef double d8 __attribute__((vector_size(64), aligned(64)));
    struct alignas(64) Ring {
        d8 levelRe, levelIm, stepRe, stepIm;
        dsp::simd::f8 re, im, level, decay8;
        dsp::simd::f8 turnRe[8], turnIm[8];
        dsp::simd::f8 fadeGain, fadeStep;
        dsp::simd::i8 ringing;  // -1 on a ringing lane
    };

    struct Noise {
        bool alive = false;
        Envelope env;
        const float* table = nullptr;
        uint32_t start = 0;
        float groupAmp = 0.0f, decay8 = 0.0f;
        alignas(32) float powers[16] = {};  // decay^k for k < 8; the rest read past a group's end
        uint32_t clapPeriod = 0;            // re-strikes while age < 3 * clapPeriod
        float perPeriod = 0.0f;
    };

    // Frames [begin, end) of the ringing lanes; clock is the engine's at frame 0. Returns the
    // lanes (a bit each) that ended: under -80 dB or faded out. Without and with the fade.
    using RingKernel = uint32_t (*)(Ring&, float*, uint64_t, int, int) BOOP_RT;
    // A sweeping tone from begin to the first group boundary where it is ready to ring (then sets
    // ready), or to end; returns where it stopped.
    using SweepKernel = int (*)(Sweep&, float*, int, int, bool&) BOOP_RT;
    // A hit's noise; the last argument is the tables' mask.
    using NoiseKernel = void (*)(Noise&, float*, int, int, uint32_t) BOOP_RT;
    // Compiled for the baseline target and, where the CPU has them, for AVX2 + FMA.
    struct Kernels {
        RingKernel ring[2];  // without and with the fade
        SweepKernel sweep;
        NoiseKernel noise;
    };

  private:
    // The AVX2 + FMA build where the CPU has them (and BOOP_NO_AVX2 is unset), else the baseline.
    static const Kernels& chooseKernels() noexcept;
    void renderRing(float* mono, uint64_t clock, int begin, int end) BOOP_RT;
    void startSweep(Sweep& t, const dsp::DrumRecipe& r, float gain, uint64_t frame) BOOP_RT;
    void startNoise(Noise& v, const dsp::DrumRecipe& r, float gain, uint32_t seed) BOOP_RT;
    void startRinging(int lane) BOOP_RT;
    void stopRinging(int lane) BOOP_RT;

    double sampleRate_ = 44100.0;
    const Kernels* kernels_ = nullptr;
    dsp::DrumNoiseTables tables_;
    Sweep sweep_[kVoices];
    Ring ring_{};
    int ringing_ = 0;  // lanes ringing
    Noise noise_[kVoices];
    uint64_t order_[kVoices] = {};
};

}  // namespace boop
