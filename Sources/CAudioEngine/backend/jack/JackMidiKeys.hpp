#pragma once
// A MIDI keyboard for the editor on JACK (`boop edit --backend jack --midi PORT`): the playback
// client's port midi_in. Its process callback takes the cycle's channel messages, each stamped with
// its engine frame, and pushes them on a lock-free queue (never waiting, never a system call); the
// keyboard's relay thread (capi/MidiInApi) hands them on to the editor's loop through the same
// mailbox as the ALSA sequencer's reader. Shared by the two (shared_ptr), so either may go first.
#include <atomic>
#include <cstdint>
#include <memory>

#include "include/CAudioEngine.h"
#include "rt/LockFreeQueue.hpp"
#include "rt/Realtime.hpp"

namespace boop {

struct MidiKeysQueue {
    LockFreeQueue<boop_midi_event> queue{1024};
    std::atomic<uint64_t> dropped{0};
};

// Process thread: the channel messages (0x80 ... 0xEF) of a MIDI port buffer, each at
// engineFrame + its offset in the cycle. Anything else (clock, SysEx, stray bytes) is skipped.
void readMidiKeys(void* portBuffer, uint64_t engineFrame, MidiKeysQueue& keys) BOOP_RT;

// The queue of a keyboard opened with boop_midi_in_open_jack (nullptr for one on the sequencer).
std::shared_ptr<MidiKeysQueue> midiKeysOf(const boop_midi_in* input);

}  // namespace boop
