#pragma once
#include <cstdint>

namespace boop {

// What the control thread tells the audio thread. Plain data, copied through the SPSC queue.
struct Command {
    // FadeGroup, RetuneGroup and FadeDrums serve live MIDI: a group is noteId >> 8 (a MIDI
    // channel's notes share it), value is the fade in seconds or the frequency ratio.
    enum class Type : uint8_t {
        NoteOn,
        NoteOff,
        DrumHit,
        AllNotesOff,
        InstrumentNoteOn,  // timbre: the instrument slot; otherwise as NoteOn
        InstrumentParam,   // timbre: the slot; noteId: the InstrumentParams::Index; value: the value
        FadeGroup,
        RetuneGroup,
        FadeDrums,
        VolumeGroup  // gain: the group's channel volume from this frame on
    };
    Type type = Type::NoteOn;
    uint8_t timbre = 0;   // NoteOn: boop_timbre; DrumHit: the kit (0 = gm); Instrument*: the slot
    uint32_t noteId = 0;  // NoteOn/NoteOff: the note; DrumHit: the GM key
    float gain = 0.0f;
    uint64_t frame = 0;   // absolute frame on the engine clock
    double value = 0.0;   // NoteOn: frequency in Hz; AllNotesOff: fade seconds
    float volume = 1.0f;  // NoteOn: the live channel volume, which VolumeGroup changes later
    double cutoff = 0.0;  // NoteOn, VolumeGroup: an MPE member's CC 74 in Hz (VoiceBank::start), 0 none
};

}  // namespace boop
