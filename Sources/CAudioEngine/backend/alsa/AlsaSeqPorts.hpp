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
#include "include/CAudioEngine.h"

namespace boop {

// The capabilities of a port others read from (a source: AlsaSeqOutput's, those AlsaSeqInput
// subscribes to) and of one others write to (a sink: AlsaSeqInput's, those MIDI out connects to).
constexpr unsigned kSeqReadable = SND_SEQ_PORT_CAP_READ | SND_SEQ_PORT_CAP_SUBS_READ;
constexpr unsigned kSeqWritable = SND_SEQ_PORT_CAP_WRITE | SND_SEQ_PORT_CAP_SUBS_WRITE;

std::vector<SeqPort> listSeqPorts(snd_seq_t* seq, unsigned caps);

// The one of those ports that `spec` names (matchSeqPort); false and why not (one line: no
// `what` matches) when none does.
bool findSeqPort(snd_seq_t* seq, unsigned caps, const char* spec, const char* what, SeqPort& found, std::string& why);

// A client named `clientName`, opened in `mode` (0 or SND_SEQ_NONBLOCK) once `devicePath` is
// there to use; nullptr and why not (one line) when it cannot be.
snd_seq_t* openSeqClient(const char* devicePath, const char* clientName, int mode, std::string& why);

// How both clients open: ALREADY_RUNNING while `seq` is open; else a client as openSeqClient opens
// it (DEVICE_UNAVAILABLE and why when it cannot be) with its one port, `portName`, of `caps` and
// `type` made. `port` is negative when the port was refused: the caller, which has more to make,
// says so and closes the client.
boop_status openSeqClientPort(snd_seq_t*& seq, int& port, const char* devicePath, const char* clientName, int mode,
                              const char* portName, unsigned caps, unsigned type, std::string& why);

// The port of the other clients that `spec` names, before a subscription to or from it:
// NOT_RUNNING without a client, INVALID_ARGUMENT without a spec or when none matches (why: as
// findSeqPort says).
boop_status findSeqPeer(snd_seq_t* seq, unsigned caps, const char* spec, const char* what, SeqPort& found,
                        std::string& why);

}  // namespace boop
