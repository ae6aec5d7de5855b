#pragma once
#include <cstdint>
#include "include/CAudioEngine.h"
#include "rt/Realtime.hpp"

namespace boop {

// The rhythm kits beside the General MIDI one (DrumBank): an 808-style kit (swept sine kicks and
// toms, a tone-and-noise snare, a clap, metallic hats and a cowbell) and a chip kit (square-wave
// sweeps and the short/long noise of an 8-bit console's noise channel). Each hit is a few
// oscillators and a noise source under exponential decays. A hit's sound depends only on its
// trigger, so it is made ahead, eight frames at a time counted from its start, as the eight lanes
// of a vector (KitKernels.cpp): the decays are powers, the phases prefix sums, the noise's
// one-pole a scan. Only the fade (an event) is applied frame by frame afterwards, so a sample
// never depends on where a block was cut. A 1 ms ramp-in and a fade when stolen: no click.
class KitBank {
  public:
    static constexpr int kVoices = 8;
    static constexpr int kChunk = 256;  // frames summed in mono before panning
    static constexpr int kAhead = 32;   // frames a kernel call makes: four groups of eight

    void prepare(double sampleRate) noexcept;
    void trigger(boop_kit kit, uint32_t key, float gain, uint32_t seed, uint64_t order) BOOP_RT;
    void fadeAll(double seconds) BOOP_RT;
    // Adds frames [begin, end) into left and right with the given pan gains.
    void render(float* left, float* right, float panLeft, float panRight, int begin, int end) BOOP_RT;
    int activeCount() const BOOP_RT;

    struct Hit {
        bool active = false;
        uint64_t order = 0;
        float gain = 0.0f, ramp = 0.0f, rampStep = 0.0f, fade = 1.0f, fadeStep = 0.0f;
        // The tone: frequency (cycles per frame) falling from `sweep` x rest toward rest.
        uint32_t phase = 0;  // 2^-32 turns: an integer add from frame to frame
        float rest = 0.0f, sweep = 0.0f, sweepEnv = 1.0f, sweepDecay = 1.0f;
        float tone = 0.0f, toneDecay = 0.0f;  // its level and per-frame decay
        uint32_t tone2Phase = 0;
        float tone2 = 0.0f;   // a second partial (the cowbell's)
        bool square = false;  // chip: square tones
        float noise = 0.0f, noiseDecay = 0.0f, noiseHp = 0.0f, noiseState = 0.0f;
        // White noise: eight xorshift32 generators, one per frame of a group, stepped together.
        alignas(32) uint32_t rng[8] = {1, 1, 1, 1, 1, 1, 1, 1};
        bool lfsrNoise = false;
        uint32_t lfsr = 1;
        int lfsrTap = 1, lfsrHold = 1, lfsrCount = 0;  // chip noise: 15-bit LFSR, short or long mode
        float lfsrOut = 0.0f;
        uint32_t age = 0, clapGaps = 0;
        // The decays' powers d^0 ... d^7 and d^8, for a group of eight frames.
        alignas(32) float tonePow[8], noisePow[8], sweepPow[8];
        float tonePow8 = 1.0f, noisePow8 = 1.0f, sweepPow8 = 1.0f;
        alignas(32) float ahead[kAhead];  // the current groups; `used` of them played
        int used = kAhead;
        bool ending = false;  // every part has fallen silent: the hit ends after this group
    };
    // Writes a hit's next kAhead frames (before its fade) into its `ahead` and advances it.
    using Kernel = void (*)(Hit&, uint32_t clapGap) BOOP_RT;
    static Kernel chooseKernel(bool wide) noexcept;

  private:
    void renderHit(Hit& h, float* mono, int count) BOOP_RT;
    // render() compiled twice (Kit.cpp): the AVX2 build (no FMA: the same bits) where the CPU has it.
    void renderChunks(float* left, float* right, float panLeft, float panRight, int begin, int end) BOOP_RT;
    void renderAvx2(float* left, float* right, float panLeft, float panRight, int begin, int end) BOOP_RT;
    void renderBaseline(float* left, float* right, float panLeft, float panRight, int begin, int end) BOOP_RT;
    bool wide_ = false;
    // A kit's hit for a key: one specialisation per line of BOOP_KITS (Kit.cpp), so a kit
    // added there without its recipe does not link.
    template <boop_kit K>
    void recipe(Hit& h, uint32_t key) BOOP_RT;
    float decayOver(double seconds) const noexcept;
    void setTone(Hit& h, float restHz, float sweep, double sweepSeconds, float level, double seconds) const BOOP_RT;

    Kernel kernel_ = nullptr;
    double sampleRate_ = 44100.0;
    Hit hits_[kVoices];
};

}  // namespace boop
