#pragma once
// The ALSA sequencer delivers decoded events (snd_seq_event_t), not bytes: this turns the ones a
// synth plays into the same channel messages the JACK byte parser makes, so both inputs drive
// MidiSynth alike. Clock, SysEx, port and client announcements and the rest give false.
#include <alsa/asoundlib.h>

#include <cstdint>

#include "engine/MidiInput.hpp"
#include "rt/Realtime.hpp"

namespace boop {

bool seqEventToMidi(const snd_seq_event_t& event, MidiMessage& out) BOOP_RT;

}  // namespace boop
