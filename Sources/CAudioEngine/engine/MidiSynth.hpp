#pragma once
// Live MIDI to the engine: channel messages become engine commands applied on the audio thread,
// at the frame the caller has rendered up to (see Engine::applyNow). Keeps what MIDI keeps per
// channel: which keys are down or held by the sustain pedal, the pedal, volume and pitch bend.
// A channel plays a version-1 timbre (the engine's voice banks), a kit, or a voice of the
// palette (SynthPalette: its own sound, pan and vibrato, mixed in stereo after the engine).
#include <atomic>
#include <cstdint>

#include "engine/Engine.hpp"
#include "engine/MidiInput.hpp"
#include "engine/SynthExpression.hpp"
#include "engine/SynthPalette.hpp"
#include "engine/Tuning.hpp"
#include "rt/Realtime.hpp"

namespace boop {

class MidiSynth {
  public:
    static constexpr int kChannels = 16;
    static constexpr int kDrums = BOOP_TIMBRE_COUNT;  // a channel's voice: the drum kit
    static constexpr int kOff = BOOP_SYNTH_VOICE_OFF;
    static constexpr int kPalette = BOOP_SYNTH_VOICE_PALETTE;  // + boop_instrument_voice
    static constexpr int kKit = BOOP_SYNTH_VOICE_KIT;          // + boop_kit
    static constexpr double kAllSoundOffSeconds = 0.005;       // CC 120 and CC 123: silent within 10 ms
    // CC 7 moves the level of sounding notes along a straight line this long, one step a frame:
    // short enough to follow a fader, long enough that no step is heard as a click.
    static constexpr double kVolumeRampSeconds = 0.005;

    // channelVoices: a boop_timbre, kDrums, kPalette + voice, kKit + kit or kOff for each channel
    // (isVoice); bendRange in semitones. Allocates the palette's banks.
    MidiSynth(Engine& engine, const int (&channelVoices)[kChannels], double bendRange) noexcept;

    // Audio thread.
    void handle(const MidiMessage& message) BOOP_RT;
    // True while a channel volume ramps: the caller then renders one frame at a time and calls
    // stepVolumes before each, the first on the frame of the CC 7 event.
    bool volumesRamping() const noexcept { return ramping_ > 0; }
    void stepVolumes() BOOP_RT;
    // Audio thread, before the engine renders `frames`: the vibrato of MPE members that play a
    // version-1 timbre, a step every kVibratoStep frames as the palette's (each a retune of the
    // member's notes). Returns how many of the frames to render before the next call.
    uint32_t stepVibratos(uint32_t frames) BOOP_RT;
    static constexpr int kVibratoStep = SynthPalette::kChunk;
    // Audio thread, between messages (the LV2 plugin's controls): a channel's voice for its next
    // notes (sounding ones end on their note-offs as before), the range of the next bends.
    void setVoice(int channel, int voice) BOOP_RT;
    // Before the audio thread runs (--instruments): a palette channel with a song track's sound.
    void setSound(int channel, const boop_instrument& sound) noexcept;
    static bool isVoice(int voice) noexcept;
    // The palette voice a Program Change picks (CAudioEngineSynth.h, BOOP_GM_FAMILIES).
    static boop_instrument_voice programVoice(int program) noexcept;
    // Audio thread, after the engine rendered `frames` interleaved stereo frames into out: the
    // palette channels added (SynthBlocks does this).
    void renderPalette(float* out, uint32_t frames) BOOP_RT;
    uint32_t paletteVoices() const noexcept { return paletteVoices_.load(std::memory_order_relaxed); }
    int voice(int channel) const noexcept { return channels_[channel].voice; }
    // The range of the next bends on every channel outside an MPE zone.
    void setBendRange(double semitones) BOOP_RT;
    // MPE (MIDI Polyphonic Expression): the lower zone (manager channel 1, members 2 ... members+1)
    // or the upper one (manager 16, members down from 15); 0 members ends the zone. What the MPE
    // Configuration Message (RPN 6 on channel 1 or 16) does; a zone that overlaps the other shrinks
    // it. Members play the manager's sound, bend +-48 semitones and the manager +-2 (RPN 0 changes
    // them), each with its own bend, pressure (vibrato depth) and CC 74 (cutoff): one note each.
    // On a version-1 timbre a member's vibrato retunes its notes (stepVibratos) and its CC 74 is
    // the gain the palette's lowpass would give each note (lowpassGain). The manager's pressure
    // adds to each member's own, the sum clamped at 127.
    void setMpeZone(bool upper, int members) BOOP_RT;
    int mpeMembers(bool upper) const noexcept { return zones_[upper ? 1 : 0]; }
    static constexpr double kMpeMemberRange = 48.0, kMpeManagerRange = 2.0;
    // Each key's frequency (a Scala tuning: engine/Tuning); 0 leaves a key silent. Before the
    // audio thread runs. The default is 12-tone equal temperament, A4 = 440 Hz.
    void setTuning(const Tuning& tuning) noexcept;
    // The same from a table (the LV2 plugin's worker answer, applied between run() blocks): the
    // next notes play it, sounding ones keep their pitch.
    void setKeyHz(const double (&hz)[128]) BOOP_RT;
    // The channel volume of a CC 7 value: value^2 / 100^2 (100, the General MIDI default, is unity).
    static float volumeGain(uint8_t value) noexcept {
        return static_cast<float>(value) * static_cast<float>(value) / (100.0f * 100.0f);
    }

    // While no audio thread runs (a host suspended): every note of every channel faded at once
    // and let go, the pedals up; the controllers stay.
    void releaseAll() BOOP_RT;

    // Control thread: the palette channels fade over `seconds` at the next render (the engine's
    // voices fade by the engine's own command).
    void requestFade(double seconds) noexcept { fadeRequest_.store(seconds, std::memory_order_release); }

    // Any thread.
    uint32_t notesHeld() const noexcept { return held_.load(std::memory_order_relaxed); }
    // The last note started as channel << 8 | key, or -1.
    int32_t lastNote() const noexcept { return last_.load(std::memory_order_relaxed); }

    // The gain of a MIDI velocity: the inverse of the .mid export's mapping (96 is a normal
    // step's 0.6, 120 an accent's 1.0), linear between and through zero.
    static float velocityGain(uint8_t velocity) noexcept;
    static uint32_t noteId(int channel, uint8_t key) noexcept { return 0x80000000u | uint32_t(channel) << 8 | key; }

  private:
    enum Key : uint8_t { Up = 0, Down = 1, Pedalled = 2 };
    struct Channel {
        int voice = 0;
        bool pedal = false;
        float cc7 = 1.0f;         // volumeGain of the last CC 7
        float expression = 1.0f;  // CC 11: value^2 / 127^2
        uint8_t modulation = 0, pressure = 0, pan = 64;
        uint8_t zonePressure = 0;  // a member's: its manager's channel pressure
        float volume = 1.0f;       // CC 7 x CC 11 as it sounds now, ramping towards target
        float target = 1.0f;
        float step = 0.0f;
        int rampLeft = 0;      // frames
        double bend = 1.0;     // frequency ratio: own x the manager's own in an MPE zone
        double own = 1.0;      // this channel's bend alone
        double range = 2.0;    // semitones at full bend
        double applied = 1.0;  // the ratio the engine's notes of the channel carry: bend x vibrato
        Vibrato vibrato;       // a version-1 member's (a palette channel's lives in its lane)
        double cutoff = 0.0, cutoffTarget = 0.0, cutoffStep = 1.0;  // CC 74 in Hz, 0 for none
        int bendValue = 0;                                          // -8192 ... 8191
        int manager = -1;                                           // an MPE member's manager channel
        bool managing = false;
        int ownVoice = 0;                               // a member's voice before it joined its zone
        uint8_t rpn[2] = {127, 127}, data[2] = {0, 0};  // CC 101/100, CC 6/38
        uint8_t keys[128] = {};
    };

    void noteOn(int ch, uint8_t key, uint8_t velocity) BOOP_RT;
    void noteOff(int ch, uint8_t key) BOOP_RT;
    void control(int ch, uint8_t number, uint8_t value) BOOP_RT;
    void setPedal(int ch, bool down) BOOP_RT;
    void setBend(int ch, int value) BOOP_RT;  // -8192 ... 8191
    void setVolume(int ch) BOOP_RT;           // towards cc7 x expression
    void applyBend(int ch) BOOP_RT;
    void retune(int ch) BOOP_RT;  // the engine's notes to bend x vibrato
    void startRamp(int ch) BOOP_RT;
    void setCutoff(int ch, uint8_t value) BOOP_RT;  // CC 74
    // An MPE member that plays a version-1 timbre: pressure and CC 74 act through MidiSynth.
    bool expressive(int ch) const noexcept {
        return channels_[ch].manager >= 0 && channels_[ch].voice >= 0 && channels_[ch].voice < kDrums;
    }
    void assignVoice(int ch, int voice) BOOP_RT;
    void registered(int ch, uint8_t number, uint8_t value) BOOP_RT;  // CC 6, 38, 100, 101
    void forwardToZone(int ch, uint8_t status, uint8_t d1, uint8_t d2) BOOP_RT;
    void leaveZones() BOOP_RT;
    void joinZone(int manager, int first, int last) BOOP_RT;
    void paletteControl(int ch, uint8_t number, uint8_t value) BOOP_RT;
    void setVibrato(int ch) BOOP_RT;
    void program(int ch, uint8_t number) BOOP_RT;
    bool isPalette(int ch) const noexcept { return channels_[ch].voice >= kPalette && channels_[ch].voice < kKit; }
    int kitOf(int ch) const BOOP_RT;  // the channel's kit, -1 for a melodic or silent channel
    void silence(int ch) BOOP_RT;     // every note of the channel, within kAllSoundOffSeconds
    void release(int ch, uint8_t key) BOOP_RT;
    void send(const Command& c) BOOP_RT { engine_.applyNow(c); }

    Engine& engine_;
    double bendRange_;
    double keyHz_[128];
    int rampFrames_;
    int ramping_ = 0;  // channels whose volume ramps
    double sampleRate_;
    uint32_t vibratoLeft_ = 0;  // frames to the next vibrato step, 0 while none runs
    int zones_[2] = {0, 0};     // MPE members of the lower and the upper zone
    Channel channels_[kChannels];
    SynthPalette palette_;
    uint64_t order_ = 0;
    std::atomic<uint32_t> paletteVoices_{0};
    std::atomic<double> fadeRequest_{0.0};
    uint32_t heldCount_ = 0;
    std::atomic<uint32_t> held_{0};
    std::atomic<int32_t> last_{-1};
};

}  // namespace boop
