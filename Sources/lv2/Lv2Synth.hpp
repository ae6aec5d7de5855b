#pragma once
// boop.lv2: the live synth of `boop synth` as an LV2 instrument. The same engine, MidiSynth and
// output stage as the JACK client (backend/jack/JackSynth), driven the same way: run() renders up
// to each MIDI event's frame, applies the event there and renders on, so a note starts on its
// frame plus the output stage's look-ahead, which the plugin reports on its latency port.
#include <lv2/atom/atom.h>
#include <lv2/urid/urid.h>
#include <lv2/worker/worker.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "Lv2Notify.hpp"
#include "Lv2Tuning.hpp"
#include "engine/Engine.hpp"
#include "engine/MidiInput.hpp"
#include "engine/MidiSynth.hpp"
#include "engine/OutputStage.hpp"
#include "rt/Realtime.hpp"

namespace boop::lv2 {

// The port indices of boop.ttl.
enum Port : uint32_t {
    kMidiIn = 0,
    kOutLeft = 1,
    kOutRight = 2,
    kVoice = 3,      // channel 1's voice: an index of kVoiceNames (0 melody ... 4 drums, palette voices, kits)
    kGain = 4,       // dB, the output stage's gain (as --gain)
    kBendRange = 5,  // semitones (as --bend-range)
    kVolume = 6,     // channel 1's volume as a CC 7 value (100: unity)
    kLatency = 7,    // output: the output stage's look-ahead in frames
    kNotify = 8,     // output: the tuning's files (Lv2Notify)
    kPortCount = 9
};

// The plugin's voices, by index (the voice port's values, program changes, the state's names): the
// five of version 1, then the palette's voices and kits in the library's order (BOOP_VOICES,
// BOOP_KITS). kVoiceNames has their names.
constexpr int kPaletteFirst = MidiSynth::kDrums + 1;
constexpr int kKitFirst = kPaletteFirst + BOOP_VOICE_COUNT;
constexpr int kVoiceCount = kKitFirst + BOOP_KIT_COUNT;
#define BOOP_LV2_NAME(ENUMERATOR, name, ...) name,
constexpr const char* kVoiceNames[] = {"melody", "chords", "bass",
                                       "tone",   "drums",  BOOP_VOICES(BOOP_LV2_NAME) BOOP_KITS(BOOP_LV2_NAME)};
#undef BOOP_LV2_NAME
static_assert(sizeof kVoiceNames / sizeof kVoiceNames[0] == kVoiceCount, "a name for every voice");
// MidiSynth's voice of a plugin index (0 ... kVoiceCount - 1).
constexpr int synthVoice(int index) noexcept {
    return index < kPaletteFirst ? index
           : index < kKitFirst   ? MidiSynth::kPalette + (index - kPaletteFirst)
                                 : MidiSynth::kKit + (index - kKitFirst);
}

// The URIDs run() tells events by.
struct Lv2Urids {
    LV2_URID midiEvent = 0, atomObject = 0, atomBlank = 0, atomPath = 0, atomUrid = 0;
    LV2_URID patchSet = 0, patchGet = 0, patchAck = 0, patchError = 0, patchProperty = 0, patchValue = 0;
    LV2_URID patchSequence = 0, atomInt = 0;
    LV2_URID scale = 0, mapping = 0;  // the tuning's path parameters (boop.ttl: boop#scl, boop#kbm)
};

class Lv2Synth {
  public:
    static constexpr uint32_t kBlockFrames = 4096;
    static constexpr uint32_t kPolyphony = 16;

    // Allocates everything run() uses; nullptr when the rate is outside the engine's range or
    // memory runs out.
    static std::unique_ptr<Lv2Synth> create(double sampleRate, const Lv2Urids& urids, const LV2_URID_Map& map);
    // The host's worker (work:schedule, may be NULL: then the tuning is set by state restore only).
    void setWorker(const LV2_Worker_Schedule* schedule) noexcept { schedule_ = schedule; }

    void connect(uint32_t port, void* data) noexcept;
    void activate() noexcept;
    void run(uint32_t frames) BOOP_RT;

    // The voices of the 16 channels as run() last set them (any thread; for state save), and new
    // ones for all of them (state restore: never concurrently with run()).
    int channelVoice(int channel) const noexcept { return voices_[channel].load(std::memory_order_relaxed); }
    void setChannelVoices(const int (&voices)[MidiSynth::kChannels]) noexcept;
    uint32_t latency() const noexcept { return stage_.latency(); }
    // Every key's frequency for the next notes: in run() context (the worker's answer), or in
    // state restore, never concurrently with run().
    void setKeyHz(const double (&hz)[Lv2Tuning::kKeys]) BOOP_RT { synth_->setKeyHz(hz); }
    // run() context: the worker's answer (Lv2Tuning::Answer's bytes): a tuning made is played from
    // the next notes; made or not, the files in force are reported on the notify port.
    bool tuned(const void* data, uint32_t size) BOOP_RT;
    // State restore (never concurrently with run()): the files now in force, for the notify port.
    void restored(const Lv2Tuning::Answer& files) BOOP_RT { notify_.inForce(files); }

    // The default channel setup of `boop synth`: 1 melody, 2 chords, 3 bass, 10 drums, others melody.
    static void defaultVoices(int (&voices)[MidiSynth::kChannels]) noexcept;

  private:
    Lv2Synth() = default;
    void readControls() BOOP_RT;
    void applyEvent(const LV2_Atom_Event& event) BOOP_RT;
    // A patch:Set of a tuning path: to the worker; a patch:Get: answered on the notify port.
    void applyPatch(int64_t frame, const LV2_Atom_Object& object) BOOP_RT;
    void renderTo(uint32_t begin, uint32_t end) BOOP_RT;
    void setVoice(int channel, int voice) BOOP_RT;

    Lv2Urids urids_;
    const LV2_Worker_Schedule* schedule_ = nullptr;
    Lv2Tuning::Request request_{};  // what applyPatch hands the worker, filled in place
    std::unique_ptr<Engine> engine_;
    std::unique_ptr<MidiSynth> synth_;
    Lv2Notify notify_;
    MidiParser parser_;
    OutputStage stage_;
    std::vector<float> block_;
    const LV2_Atom_Sequence* midiIn_ = nullptr;
    float* out_[2] = {nullptr, nullptr};
    const float* controls_[kPortCount] = {};
    float* latencyOut_ = nullptr;
    // The control values last applied (NaN: none yet, so the first run applies them all).
    float applied_[kPortCount] = {};
    std::atomic<int> voices_[MidiSynth::kChannels] = {};
};

}  // namespace boop::lv2
