#pragma once
#include <cstdint>
#include <memory>
#include "dsp/Svf.hpp"
#include "rt/Realtime.hpp"

namespace boop {

// The voices a song's pitched track can choose (boop_instrument_voice, in the same order).
enum class InstrumentVoice : uint8_t { Sine, Triangle, Pulse, Saw, Fm, Pluck, Pad, Sub };

// One track's sound: the voice, its envelope (seconds; sustain a level 0...1), its lowpass
// (a cutoff at or above 0.45 x the rate bypasses it) and its place in the stereo field.
struct InstrumentParams {
    enum Index : uint32_t { Voice, Width, Attack, Decay, Sustain, Release, Cutoff, Resonance, Pan, Count };
    InstrumentVoice voice = InstrumentVoice::Sine;
    double width = 0.5;  // pulse: the fraction of a cycle high
    double attack = 0.01, decay = 0.1, sustain = 1.0, release = 0.15;
    double cutoff = 20000.0, resonance = 0.70710678118654752;
    double pan = 0.0;  // -1 left ... +1 right; the centre keeps unity gain on both sides
};

// The voices of one song track (an "instrument slot"): up to kMaxHeld notes at once, each an
// oscillator (or a Karplus-Strong string), an ADSR envelope and a per-voice state-variable
// lowpass, panned into a stereo pair. Every voice is rendered frame by frame from its own state,
// and parameters change only at an event's frame, so a sample never depends on where a block
// was cut. Onsets ramp in over at least kMinAttack and a stolen voice fades over kStealFade: no
// click. Construction state is prepared by prepare(); everything after that is real-time safe.
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

    // Allocates the strings' delay lines; not for the audio thread.
    void prepare(double sampleRate);
    void setParam(uint32_t index, double value) BOOP_RT;
    const InstrumentParams& params() const noexcept { return params_; }

    void start(uint32_t noteId, double hz, float gain, uint64_t order, uint32_t seed) BOOP_RT;
    // False when no held voice has that id.
    bool release(uint32_t noteId) BOOP_RT;
    void fadeAll(double seconds) BOOP_RT;
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
        uint32_t phase = 0, increment = 0;    // the fundamental, in 2^-32 turns
        uint32_t phase2 = 0, increment2 = 0;  // FM's modulator, the pad's octave
        float level = 0.0f, step = 0.0f;      // envelope and its change per frame in this stage
        float gain = 0.0f;
        float dt = 0.0f, invDt = 0.0f;  // the increment in turns and its inverse (polyBLEP)
        float dt2 = 0.0f, invDt2 = 0.0f;
        float modIndex = 0.0f;  // FM: the modulation depth in turns, decaying
        dsp::SvfState filter;
        // The lowpass's frame pairs: the odd frame's state, the even frame's input, which is next.
        float next1 = 0.0f, next2 = 0.0f, xEven = 0.0f;
        bool odd = false;
        // Karplus-Strong: the string's delay line, its length and place, and the loop filters.
        float* line = nullptr;
        int length = 0, pos = 0;
        float last = 0.0f, apIn = 0.0f, apOut = 0.0f, apCoeff = 0.0f;
    };

  private:
    void beginRelease(Voice& v, double seconds) BOOP_RT;
    void renderVoice(Voice& v, float* mono, int begin, int end) BOOP_RT;
    // The hot loop, one per voice and filter setting, so a frame is straight-line code. A run is
    // at most kChunk frames.
    template <InstrumentVoice V, bool Filtered>
    void renderRun(Voice& v, float* mono, int begin, int end) BOOP_RT;
    template <InstrumentVoice V>
    float oscillator(Voice& v) BOOP_RT;
    template <InstrumentVoice V>
    void waveChunk(const Voice& v, float* out, int count) BOOP_RT;
    void advanceEnvelope(Voice& v) BOOP_RT;
    void updateCoefficients() BOOP_RT;

    double sampleRate_ = 44100.0;
    InstrumentParams params_{};
    dsp::SvfCoeffs filter_{};
    // The same lowpass as a state space: one multiply-add deep from frame to frame, where the
    // TPT form's chain of four bounded a lone voice.
    dsp::SvfStateSpace space_{};
    // Two frames of it at once: A^2 and A B, s'' = A^2 s + A B x + B x'.
    struct TwoStep {
        float a11 = 1, a12 = 0, a21 = 0, a22 = 1, ab1 = 0, ab2 = 0;
    } twoStep_{};
    bool filtered_ = false;
    float panLeft_ = 1.0f, panRight_ = 1.0f;
    float fmDecay_ = 1.0f;
    uint32_t widthShift_ = 0x80000000u;  // the pulse width as a phase offset
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
