#pragma once
// Which sequencer port `--midi SRC` means, as aconnect reads it: "client:port" by numbers
// ("24:0"), a client number alone (its first port), "name:port" (a client whose name contains
// `name`, its port `port`), or a part of a name: the first port (in client, port order) whose
// "client name:port name" contains it, case ignored. Kept apart from the sequencer so it is tested
// without one.
#include <string>
#include <vector>

namespace boop {

struct SeqPort {
    int client = 0;
    int port = 0;
    std::string clientName;
    std::string portName;
};

// The index in `ports` (listed in client, port order), or -1 when nothing matches.
int matchSeqPort(const std::vector<SeqPort>& ports, const std::string& spec);

}  // namespace boop
