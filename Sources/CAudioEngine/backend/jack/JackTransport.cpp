// `play --sync jack` (see JackTransport.hpp).
#include "backend/jack/JackTransport.hpp"

#include <jack/midiport.h>

namespace boop {

void TransportWatch::push(const boop_transport_event& e) BOOP_RT {
    if (!queue_.tryPush(e)) dropped_.fetch_add(1, std::memory_order_relaxed);
}

// jack_transport_query is not annotated: allowed by name, as the other process callbacks do.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#pragma clang diagnostic ignored "-Wfunction-effects"
#endif
void TransportWatch::cycle(jack_client_t* client, uint64_t engineFrame, uint32_t frames) BOOP_RT {
    jack_position_t pos;
    const jack_transport_state_t state = jack_transport_query(client, &pos);
    const bool rolling = state == JackTransportRolling;
    // The server's time: after cycles this client missed (an xrun) the transport has moved on
    // with it, which is no relocation.
    const jack_nframes_t now = jack_last_frame_time(client);
    const jack_nframes_t expected = expected_ + (now - nextCycle_);
    const bool bbt = (pos.valid & JackPositionBBT) != 0 && pos.beats_per_minute > 0.0;
    boop_transport_event e{};
    e.engine_frame = engineFrame;
    e.transport_frame = pos.frame;
    e.bpm = bbt ? pos.beats_per_minute : 0.0;
    if (bbt) {
        e.bar = pos.bar;
        e.beat = pos.beat;
        e.tick = pos.tick;
        e.ticks_per_beat = pos.ticks_per_beat;
        e.beats_per_bar = pos.beats_per_bar;
        e.beat_type = pos.beat_type;
    }
    if (rolling && (!rolling_ || pos.frame != expected)) {
        e.kind = BOOP_TRANSPORT_ROLLING;  // started, or moved while rolling
        push(e);
    } else if (!rolling && rolling_) {
        e.kind = BOOP_TRANSPORT_STOPPED;
        push(e);
    } else if (rolling && bbt && pos.beats_per_minute != bpm_) {
        e.kind = BOOP_TRANSPORT_TEMPO;
        push(e);
    }
    rolling_ = rolling;
    expected_ = pos.frame + frames;
    nextCycle_ = now + frames;
    if (bbt) bpm_ = pos.beats_per_minute;
}

void TransportWatch::midi(void* buffer, uint64_t engineFrame) BOOP_RT {
    const uint32_t count = jack_midi_get_event_count(buffer);
    for (uint32_t i = 0; i < count; ++i) {
        jack_midi_event_t event;
        if (jack_midi_event_get(&event, buffer, i) != 0 || event.size == 0) continue;
        boop_transport_event e{};
        e.engine_frame = engineFrame + event.time;
        switch (event.buffer[0]) {
            case 0xF8:
                e.kind = BOOP_TRANSPORT_CLOCK;
                break;
            case 0xFA:
                e.kind = BOOP_TRANSPORT_START;
                break;
            case 0xFB:
                e.kind = BOOP_TRANSPORT_CONTINUE;
                break;
            case 0xFC:
                e.kind = BOOP_TRANSPORT_MIDI_STOP;
                break;
            case 0xF2:
                if (event.size < 3) continue;
                e.kind = BOOP_TRANSPORT_SONG_POSITION;
                e.song_position = uint32_t(event.buffer[1] & 0x7F) | uint32_t(event.buffer[2] & 0x7F) << 7;
                break;
            default:
                continue;  // notes and the rest: not time
        }
        push(e);
    }
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

}  // namespace boop
