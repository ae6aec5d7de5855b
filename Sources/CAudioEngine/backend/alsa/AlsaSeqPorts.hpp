#pragma once
// What the sequencer's input (AlsaSeqInput) and output (AlsaSeqOutput) clients share: opening a
// client, and listing the ports of the other clients.
//
// The ports of the other sequencer clients (not the system's, not this one's) that offer every
// capability in `caps` and are exported, in client, port order: the sources `boop synth --midi`
// reads (SND_SEQ_PORT_CAP_READ | _SUBS_READ) and the sinks MIDI out writes to (WRITE | SUBS_WRITE).
#include <alsa/asoundlib.h>

#include <string>
#include <vector>

#include "backend/alsa/AlsaSeqMatch.hpp"

namespace boop {

std::vector<SeqPort> listSeqPorts(snd_seq_t* seq, unsigned caps);

// The one of those ports that `spec` names (matchSeqPort); false and why not (one line: no
// `what` matches) when none does.
bool findSeqPort(snd_seq_t* seq, unsigned caps, const char* spec, const char* what, SeqPort& found, std::string& why);

// A client named `clientName`, opened in `mode` (0 or SND_SEQ_NONBLOCK) once `devicePath` is
// there to use; nullptr and why not (one line) when it cannot be.
snd_seq_t* openSeqClient(const char* devicePath, const char* clientName, int mode, std::string& why);

}  // namespace boop
