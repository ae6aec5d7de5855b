#pragma once
// A MIDI keyboard for the editor on JACK (`boop edit --backend jack --midi PORT`): the playback
// client's port midi_in. Its process callback takes the cycle's channel messages, each stamped with
// its engine frame, and pushes them on a lock-free queue (never waiting, never a system call); the
// editor's loop takes them from that queue when it wakes (boop_midi_in_read, capi/MidiInApi). A
// note also sounds there, in the callback, on its own frame: the playback renders up to it and
// starts it on the engine (as boop synth --backend jack does), with the sound the loop last set.
// Shared by the two (shared_ptr), so either may go first.
#include <atomic>
#include <cstdint>
#include <memory>

#include "engine/Engine.hpp"
#include "include/CAudioEngine.h"
#include "rt/LockFreeQueue.hpp"
#include "rt/Realtime.hpp"

namespace boop {

struct KeysSound {
    Engine* engine = nullptr;  // nullptr: nothing sounds (for a channel's sound: that channel's is cleared)
    boop_keys_sound sound{};
    int channel = -1;  // -1: every channel's sound; 0 ... 15: the sound of that channel's notes alone
};

// A pitched key's note id (boop_midi_in_set_sound): above a pattern's, below the auditions'.
constexpr uint32_t kKeyNoteIds = 0xEFFFFF00u;

struct MidiKeysQueue {
    LockFreeQueue<boop_midi_event> queue{1024};
    std::atomic<uint64_t> dropped{0};
    // Control thread -> process callback (the last one wins), and the callback's own copy.
    LockFreeQueue<KeysSound> sounds{16};
    KeysSound sound;
    // One channel's notes may sound otherwise (the editor recording: channel 10's drums as the
    // rhythm track's kit); engine nullptr: none does.
    KeysSound channelSound;

    // Control thread, while no process callback runs with this queue (a playback being opened):
    // the engine of an earlier playback may be gone.
    void forgetSound() noexcept;
    // Process thread, at the start of a cycle.
    void takeSound() BOOP_RT;
    // Process thread: one channel message at `e.frame`, the engine's next frame: queued for the
    // editor, and a note started or ended on the engine there.
    void play(const boop_midi_event& e) BOOP_RT;

  private:
    // A key's pitched note ended, on whichever engine holds it (the sound may have changed since
    // it began; a note-off for a note an engine does not hold does nothing).
    void release(uint8_t key) BOOP_RT;
};

// Process thread: the i-th message of a MIDI port buffer if it is a channel message (0x80 ... 0xEF),
// stamped engineFrame + its offset, which `offset` receives. Anything else (clock, SysEx, stray
// bytes) gives false.
bool midiKey(void* portBuffer, uint32_t i, uint64_t engineFrame, boop_midi_event& out, uint32_t& offset) BOOP_RT;
uint32_t midiKeyCount(void* portBuffer) BOOP_RT;

// Process thread: every channel message of the cycle queued for the editor (a playback following a
// MIDI clock: its notes are not sounded there).
void readMidiKeys(void* portBuffer, uint64_t engineFrame, MidiKeysQueue& keys) BOOP_RT;

// The queue of a keyboard opened with boop_midi_in_open_jack (nullptr for one on the sequencer).
std::shared_ptr<MidiKeysQueue> midiKeysOf(const boop_midi_in* input);

}  // namespace boop
