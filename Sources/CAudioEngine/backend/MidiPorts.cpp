// MIDI port listing (see MidiPorts.hpp).
#include "backend/MidiPorts.hpp"

#include <alsa/asoundlib.h>
#include <jack/jack.h>
#include <unistd.h>

#include <new>
#include <string>

#include "backend/jack/JackClient.hpp"

namespace boop {

namespace {

void silentAlsa(const char*, int, const char*, int, const char*, ...) {}

void listAlsaSeq(std::vector<DeviceEntry>& out) {
    if (access("/dev/snd/seq", R_OK | W_OK) != 0) return;  // no sequencer on this machine
    snd_lib_error_set_handler(silentAlsa);
    snd_seq_t* seq = nullptr;
    const int opened = snd_seq_open(&seq, "default", SND_SEQ_OPEN_DUPLEX, SND_SEQ_NONBLOCK);
    snd_lib_error_set_handler(nullptr);
    if (opened < 0) return;
    snd_seq_client_info_t* client;
    snd_seq_port_info_t* port;
    snd_seq_client_info_alloca(&client);
    snd_seq_port_info_alloca(&port);
    snd_seq_client_info_set_client(client, -1);
    while (snd_seq_query_next_client(seq, client) >= 0) {
        const int id = snd_seq_client_info_get_client(client);
        if (id == SND_SEQ_CLIENT_SYSTEM) continue;  // timer and announce: nothing to play
        snd_seq_port_info_set_client(port, id);
        snd_seq_port_info_set_port(port, -1);
        while (snd_seq_query_next_port(seq, port) >= 0) {
            const unsigned caps = snd_seq_port_info_get_capability(port);
            if (caps & SND_SEQ_PORT_CAP_NO_EXPORT) continue;
            DeviceEntry e;
            e.name = std::to_string(id) + ":" + std::to_string(snd_seq_port_info_get_port(port));
            e.description = std::string("ALSA sequencer: ") + snd_seq_client_info_get_name(client) + " - " +
                            snd_seq_port_info_get_name(port);
            e.capture = (caps & SND_SEQ_PORT_CAP_READ) && (caps & SND_SEQ_PORT_CAP_SUBS_READ);
            e.playback = (caps & SND_SEQ_PORT_CAP_WRITE) && (caps & SND_SEQ_PORT_CAP_SUBS_WRITE);
            if (e.capture || e.playback) out.push_back(std::move(e));
        }
    }
    snd_seq_close(seq);
}

void listJackMidi(std::vector<DeviceEntry>& out) {
    const boop_status s = visitJackPorts(JACK_DEFAULT_MIDI_TYPE, [&out](const char* name, jack_port_t*, int flags) {
        DeviceEntry e;
        e.name = name;
        e.description = std::string("JACK MIDI ") + ((flags & JackPortIsPhysical) ? "physical " : "") +
                        ((flags & JackPortIsInput) ? "input (takes MIDI)" : "output (gives MIDI)");
        e.playback = (flags & JackPortIsInput) != 0;
        e.capture = (flags & JackPortIsOutput) != 0;
        out.push_back(std::move(e));
    });
    if (s == BOOP_ERROR_OUT_OF_MEMORY) throw std::bad_alloc();  // no server: no JACK ports, not an error
}

}  // namespace

void listMidiPorts(std::vector<DeviceEntry>& out) {
    listAlsaSeq(out);
    listJackMidi(out);
}

}  // namespace boop
