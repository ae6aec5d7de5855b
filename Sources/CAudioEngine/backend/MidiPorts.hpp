#pragma once
// The MIDI ports a user can connect boop to, for `boop devices`: ALSA sequencer ports (when
// /dev/snd/seq exists) and JACK MIDI ports (when a server runs). Neither present is an empty list.
#include <vector>

#include "backend/Backend.hpp"

namespace boop {

// playback = a MIDI sink (boop's MIDI out can drive it), capture = a MIDI source (boop synth can
// be played from it); the description says which system it belongs to.
void listMidiPorts(std::vector<DeviceEntry>& out);

}  // namespace boop
