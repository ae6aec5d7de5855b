#pragma once
#include <cstdint>
#include <memory>
#include "dsp/Svf.hpp"
#include "engine/InstrumentTone.hpp"
#include "rt/Realtime.hpp"

namespace boop {

// One track's sound: the voice, its envelope (seconds; sustain a level 0...1), its lowpass
// (a cutoff at or above 0.45 x the rate bypasses it) and its place in the stereo field.
struct InstrumentParams {
    enum Index : uint32_t { Voice, Width, Attack, Decay, Sustain, Release, Cutoff, Resonance, Pan, Count };
    boop_instrument_voice voice = BOOP_VOICE_SINE;
    double width = 0.5;  // pulse: the fraction of a cycle high
    double attack = 0.01, decay = 0.1, sustain = 1.0, release = 0.15;
    double cutoff = 20000.0, resonance = 0.70710678118654752;
    double pan = 0.0;  // -1 left ... +1 right; the centre keeps unity gain on both sides
};

// The voices of one song track (an "instrument slot"): up to kMaxHeld notes at once, each an
// oscillator (or a Karplus-Strong string) through a per-voice state-variable lowpass, made
// kToneAhead frames ahead by a vector kernel (InstrumentTone), then shaped by its ADSR envelope and
// panned into a stereo pair. The tone depends only on the note's start, and the envelope is a
// formula of the frame inside its stage, so a sample never depends on where a block was cut.
// Onsets ramp in over at least kMinAttack and a stolen voice fades over kStealFade: no click.
// Construction state is prepared by prepare(); everything after that is real-time safe.
class InstrumentBank {
  public:
    static constexpr int kMaxHeld = 16;
    static constexpr int kLanes = kMaxHeld + 8;  // room for voices still fading after a steal
    static constexpr int kChunk = 256;           // frames summed in mono before panning
    static constexpr double kMinAttack = 0.002;
    static constexpr double kMinRelease = 0.005;
    static constexpr double kStealFade = 0.005;
    // The lowest string a pluck can hold (its delay line is rate / kLowestPluckHz long).
    static constexpr double kLowestPluckHz = 16.0;

    // Allocates the strings' delay lines and chooses the kernels; not for the audio thread.
    void prepare(double sampleRate);
    void setParam(uint32_t index, double value) BOOP_RT;
    const InstrumentParams& params() const noexcept { return params_; }

    void start(uint32_t noteId, double hz, float gain, uint64_t order, uint32_t seed) BOOP_RT;
    // False when no held voice has that id.
    bool release(uint32_t noteId) BOOP_RT;
    void fadeAll(double seconds) BOOP_RT;
    // Live MIDI (pitch bend, vibrato): every note of the bank, sounding and next, at `ratio` x its
    // pitch, from its next tone group on; a pluck keeps the tuning of its string.
    void setPitch(double ratio) BOOP_RT;
    // Adds frames [begin, end) into left and right.
    void render(float* left, float* right, int begin, int end) BOOP_RT;
    int activeCount() const noexcept { return active_; }
    // Held (not releasing or fading) voices: what the track's polyphony counts.
    int heldCount() const BOOP_RT;

    enum class Stage : uint8_t { Idle, Attack, Decay, Sustain, Release, Fade };
    struct Voice {
        Stage stage = Stage::Idle;
        uint32_t noteId = 0;
        uint64_t order = 0;
        float gain = 0.0f;
        double hz = 0.0;  // the note's own pitch, before setPitch's ratio
        // The envelope: start + slope x at, at the frame `at` of a stage `length` frames long
        // (sustain: slope 0, no end).
        float envStart = 0.0f, envSlope = 0.0f;
        uint32_t at = 0, length = 0;
        ToneState tone;
        alignas(32) float ahead[kToneAhead];  // the tone's current groups; `used` of them played
        int used = kToneAhead;
        float level() const noexcept { return envStart + envSlope * static_cast<float>(at); }
    };

  private:
    void beginRelease(Voice& v, double seconds) BOOP_RT;
    void enterStage(Voice& v, Stage stage, float start, uint32_t length, float slope) BOOP_RT;
    void nextStage(Voice& v) BOOP_RT;
    void renderVoice(Voice& v, float* mono, int count) BOOP_RT;
    // render() compiled twice (Instrument.cpp): the AVX2 build (no FMA, so the same bits) where
    // the CPU has it. The per-frame envelope, sum and pan were a tenth of a song's render.
    void renderChunks(float* left, float* right, int begin, int end) BOOP_RT;
    void renderAvx2(float* left, float* right, int begin, int end) BOOP_RT;
    void renderBaseline(float* left, float* right, int begin, int end) BOOP_RT;
    void updateCoefficients() BOOP_RT;
    void tune(ToneState& t, double hz) const BOOP_RT;

    double sampleRate_ = 44100.0;
    InstrumentParams params_{};
    ToneShared shared_{};
    ToneKernel kernel_ = nullptr;
    bool wide_ = false;  // the AVX2 + FMA kernels
    float panLeft_ = 1.0f, panRight_ = 1.0f;
    double pitch_ = 1.0;
    Voice voices_[kLanes];
    std::unique_ptr<float[]> strings_;
    int stringLength_ = 0;
    int active_ = 0;
};

// Stereo gains of a pan position: the centre is unity on both sides, a side fades the other out.
inline void panGains(double pan, float& left, float& right) noexcept {
    left = static_cast<float>(pan <= 0.0 ? 1.0 : 1.0 - pan);
    right = static_cast<float>(pan >= 0.0 ? 1.0 : 1.0 + pan);
}

}  // namespace boop
