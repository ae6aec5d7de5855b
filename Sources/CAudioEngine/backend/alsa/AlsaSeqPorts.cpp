#include "backend/alsa/AlsaSeqPorts.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "backend/alsa/AlsaCommon.hpp"

namespace boop {

std::vector<SeqPort> listSeqPorts(snd_seq_t* seq, unsigned caps) {
    std::vector<SeqPort> out;
    snd_seq_client_info_t* client;
    snd_seq_port_info_t* port;
    snd_seq_client_info_alloca(&client);
    snd_seq_port_info_alloca(&port);
    snd_seq_client_info_set_client(client, -1);
    const int self = snd_seq_client_id(seq);
    while (snd_seq_query_next_client(seq, client) >= 0) {
        const int id = snd_seq_client_info_get_client(client);
        if (id == SND_SEQ_CLIENT_SYSTEM || id == self) continue;
        snd_seq_port_info_set_client(port, id);
        snd_seq_port_info_set_port(port, -1);
        while (snd_seq_query_next_port(seq, port) >= 0) {
            const unsigned has = snd_seq_port_info_get_capability(port);
            if ((has & caps) != caps || (has & SND_SEQ_PORT_CAP_NO_EXPORT)) continue;
            out.push_back(SeqPort{id, snd_seq_port_info_get_port(port), snd_seq_client_info_get_name(client),
                                  snd_seq_port_info_get_name(port)});
        }
    }
    return out;
}

bool findSeqPort(snd_seq_t* seq, unsigned caps, const char* spec, const char* what, SeqPort& found, std::string& why) {
    const std::vector<SeqPort> ports = listSeqPorts(seq, caps);
    const int at = matchSeqPort(ports, spec);
    if (at < 0) {
        why = std::string("no ALSA sequencer ") + what + " matches it (see boop devices)";
        return false;
    }
    found = ports[std::size_t(at)];
    return true;
}

snd_seq_t* openSeqClient(const char* devicePath, const char* clientName, int mode, std::string& why) {
    if (access(devicePath, R_OK | W_OK) != 0) {
        why = std::string("no ALSA sequencer (") + devicePath + ": " + std::strerror(errno) + ")";
        return nullptr;
    }
    silenceAlsaErrors();
    snd_seq_t* seq = nullptr;
    const int opened = snd_seq_open(&seq, "default", SND_SEQ_OPEN_DUPLEX, mode);
    if (opened < 0) {
        why = std::string("the ALSA sequencer refused a client: ") + snd_strerror(opened);
        return nullptr;
    }
    snd_seq_set_client_name(seq, clientName);
    return seq;
}

boop_status openSeqClientPort(snd_seq_t*& seq, int& port, const char* devicePath, const char* clientName, int mode,
                              const char* portName, unsigned caps, unsigned type, std::string& why) {
    if (seq != nullptr) return BOOP_ERROR_ALREADY_RUNNING;
    seq = openSeqClient(devicePath, clientName, mode, why);
    if (seq == nullptr) return BOOP_ERROR_DEVICE_UNAVAILABLE;
    port = snd_seq_create_simple_port(seq, portName, caps, type);
    return BOOP_OK;
}

boop_status findSeqPeer(snd_seq_t* seq, unsigned caps, const char* spec, const char* what, SeqPort& found,
                        std::string& why) {
    if (seq == nullptr) return BOOP_ERROR_NOT_RUNNING;
    if (spec == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    return findSeqPort(seq, caps, spec, what, found, why) ? BOOP_OK : BOOP_ERROR_INVALID_ARGUMENT;
}

}  // namespace boop
