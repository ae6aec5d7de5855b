// `play --sync jack` (see JackTransport.hpp).
#include "backend/jack/JackTransport.hpp"

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
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

}  // namespace boop
