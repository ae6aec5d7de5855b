#pragma once
// The live synth's palette channels (boop synth, CAudioEngineSynth.h): each MIDI channel that
// plays a voice of the version-2 palette has an InstrumentBank of its own (a song track's sound:
// envelope, lowpass, width), its level (CC 7 x CC 11), an equal-power pan (CC 10), its pitch
// (bend) and a vibrato (CC 1, aftertouch). They add into the synth's interleaved stereo output
// after the engine's mix, through the same master gain and soft clipper.
#include <cstdint>

#include "engine/Instrument.hpp"
#include "engine/SynthExpression.hpp"
#include "include/CAudioEngineSynth.h"
#include "rt/Realtime.hpp"

namespace boop {

class SynthPalette {
  public:
    static constexpr int kChannels = 16;
    // Frames between two vibrato steps and the longest level/pan ramp step: 1.3 ms at 48 kHz.
    static constexpr int kChunk = 64;
    static constexpr double kVibratoHz = Vibrato::kHz;
    static constexpr double kVibratoCents = Vibrato::kCents;  // at full depth
    static constexpr double kRampSeconds = 0.005;             // level and pan: never a step

    // Allocates the strings of every channel's bank; not for the audio thread.
    void prepare(double sampleRate);

    // Audio thread.
    void setSound(int ch, const boop_instrument& sound) BOOP_RT;
    void setParam(int ch, uint32_t index, double value) BOOP_RT;  // InstrumentParams::Index, not Pan
    // Channel `to` takes the sound and pan channel `from` has now (an MPE zone's members).
    void copySound(int from, int to) BOOP_RT;
    void noteOn(int ch, uint32_t noteId, double hz, float gain, uint64_t order) BOOP_RT;
    void noteOff(int ch, uint32_t noteId) BOOP_RT { lanes_[ch].bank.release(noteId); }
    void fade(int ch, double seconds) BOOP_RT { lanes_[ch].bank.fadeAll(seconds); }
    void setBend(int ch, double ratio) BOOP_RT;
    void setVibrato(int ch, double depth) BOOP_RT { lanes_[ch].vibrato.depth = depth; }  // 0 ... 1
    void setLevel(int ch, float gain) BOOP_RT;
    void setPan(int ch, double pan) BOOP_RT;  // -1 ... +1
    // Adds `frames` frames into the interleaved stereo `out` and soft-clips what passes the knee.
    void render(float* out, uint32_t frames) BOOP_RT;
    int activeCount() const BOOP_RT;

    // The equal-power gains of a pan position, scaled so that the centre is unity on both sides:
    // left^2 + right^2 = 2 wherever it is.
    static void panGains(double pan, float& left, float& right) BOOP_RT;
    // A voice's own sound (its BOOP_VOICES line), as boop_voice_sound gives it.
    static boop_instrument voiceSound(boop_instrument_voice voice) BOOP_RT;

  private:
    struct Lane {
        InstrumentBank bank;
        double bend = 1.0;
        Vibrato vibrato;
        float level = 1.0f;
        double pan = 0.0;
        float gain[2] = {1.0f, 1.0f}, target[2] = {1.0f, 1.0f}, step[2] = {0.0f, 0.0f};
        int rampLeft = 0;
        uint32_t seed = 0;
    };
    void retarget(Lane& lane) BOOP_RT;
    void renderLane(Lane& lane, float* out, int frames) BOOP_RT;

    double sampleRate_ = 48000.0;
    int rampFrames_ = 240;
    Lane lanes_[kChannels];
    alignas(32) float left_[kChunk] = {}, right_[kChunk] = {};
};

}  // namespace boop
