// `play --sync jack` (see JackTransport.hpp).
#include "backend/jack/JackTransport.hpp"

#include <jack/midiport.h>

#include <algorithm>
#include <cstdlib>

namespace boop {

void TransportWatch::push(const boop_transport_event& e) BOOP_RT {
    if (!queue_.tryPush(e)) dropped_.fetch_add(1, std::memory_order_relaxed);
}

void TransportWatch::attach(jack_client_t* client) noexcept { jack_set_sync_callback(client, onSync, this); }

// jack_transport_query is not annotated: allowed by name, as the other process callbacks do.
BOOP_RT_UNCHECKED_BEGIN
int TransportWatch::onSync(jack_transport_state_t state, jack_position_t* pos, void* self) BOOP_RT {
    return static_cast<TransportWatch*>(self)->ready(state, pos != nullptr ? pos->frame : 0) ? 1 : 0;
}

// Ready once the armed start is this one and the engine reaches its frame within this cycle (the
// process callback then renders up to it and holds): JACK rolls from the next cycle at the
// earliest, when the engine stands exactly there. Stopped or already rolling: nothing to wait for.
bool TransportWatch::ready(jack_transport_state_t state, jack_nframes_t frame) BOOP_RT {
    if (state == JackTransportStopped || state == JackTransportRolling) return true;
    const uint64_t armed = armed_.load(std::memory_order_acquire);
    if (!starting_ || frame != startFrame_ || armed == 0 || uint32_t(armed >> 48) != request_) return false;
    const uint64_t at = armed & kFrameMask;
    const uint64_t clock = engineClock_.load(std::memory_order_relaxed);
    return clock <= at && at <= clock + cycleFrames_;
}

uint64_t TransportWatch::holdLimit() const BOOP_RT {
    if (rolling_) return UINT64_MAX;
    const uint64_t armed = armed_.load(std::memory_order_acquire);
    if (armed == 0 || uint32_t(armed >> 48) == released_) return UINT64_MAX;
    return armed & kFrameMask;
}

void TransportWatch::fill(boop_transport_event& e, const jack_position_t& pos, uint64_t engineFrame) BOOP_RT {
    const bool bbt = (pos.valid & JackPositionBBT) != 0 && pos.beats_per_minute > 0.0;
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
}

// A new start (or a move while starting): numbered, so an arm for an older one is never taken for it.
void TransportWatch::starting(const jack_position_t& pos, uint64_t engineFrame) BOOP_RT {
    request_ = request_ % kRequestMask + 1;
    starting_ = true;
    startFrame_ = pos.frame;
    startBpm_ = (pos.valid & JackPositionBBT) != 0 ? pos.beats_per_minute : 0.0;
    missed_ = 0;
    boop_transport_event e{};
    fill(e, pos, engineFrame);
    e.kind = BOOP_TRANSPORT_STARTING;
    e.request = request_;
    push(e);
}

// The run rolls where it was armed: from the start's frame, the engine standing on the armed frame.
bool TransportWatch::prepared(const jack_position_t& pos, uint64_t engineFrame) BOOP_RT {
    const uint64_t armed = armed_.load(std::memory_order_acquire);
    return starting_ && armed != 0 && uint32_t(armed >> 48) == request_ && pos.frame == startFrame_ &&
           (armed & kFrameMask) == engineFrame;
}

// A rolling cycle after a rolling one: the transport frame less the engine's stays what the run
// was anchored with, unless the transport was moved (without going through Starting: a sync
// timeout) or the server xrunned. An xrun is no move: the cycles this client missed, and a cycle
// that read the transport and the frame time on either side of the server's switch, can move the
// two by different amounts for a cycle or two. So after a disturbance (a frame-time gap or an xrun
// reported) nothing is judged until a clean cycle (no gap, no new xrun, the transport on from the
// last one by exactly its frames), and then the engine is realigned with the transport: the frames
// it lags are rendered and dropped before the cycle (skip), the frames it leads are silence at the
// cycle's start (lead, the engine standing still). What is queued stays valid: no event, no fade.
bool TransportWatch::follow(const jack_position_t& pos, uint64_t engineFrame, uint32_t frames, bool disturbed) BOOP_RT {
    const auto d = static_cast<int32_t>(pos.frame - static_cast<jack_nframes_t>(engineFrame) - offset_);
    if (disturbed) unsettled_ = true;
    if (d == 0) {
        if (!disturbed && pos.frame == expected_) unsettled_ = false;
        return true;
    }
    const bool clean = !disturbed && pos.frame == expected_;
    const auto limit = static_cast<int64_t>(kRealignSeconds * rate_);
    if (!unsettled_ || std::abs(int64_t(d)) > limit) return false;  // moved: a new anchor
    if (!clean) return true;                                        // wait for a clean cycle
    if (d > 0)
        skip_ = uint32_t(d);
    else
        lead_ = std::min<uint32_t>(frames, uint32_t(-int64_t(d)));
    realigned_.fetch_add(1, std::memory_order_relaxed);
    return true;
}

void TransportWatch::cycle(jack_client_t* client, uint64_t engineFrame, uint32_t frames, uint64_t xruns) BOOP_RT {
    jack_position_t pos;
    const jack_transport_state_t state = jack_transport_query(client, &pos);
    const bool rolling = state == JackTransportRolling;
    // Cycles this client missed move the server's frame time on by more than the last cycle.
    const jack_nframes_t now = jack_last_frame_time(client);
    const bool disturbed = cycleFrames_ != 0 && (now != nextCycle_ || xruns != xruns_);
    const bool bbt = (pos.valid & JackPositionBBT) != 0 && pos.beats_per_minute > 0.0;
    if (pos.frame_rate > 0) rate_ = pos.frame_rate;
    skip_ = 0;
    lead_ = 0;
    boop_transport_event e{};
    fill(e, pos, engineFrame);
    const uint64_t armed = armed_.load(std::memory_order_acquire);
    if (rolling) {
        if (!rolling_ || !follow(pos, engineFrame, frames, disturbed)) {
            e.kind = BOOP_TRANSPORT_ROLLING;  // started, or moved while rolling
            e.prepared = prepared(pos, engineFrame) ? 1 : 0;
            push(e);
            offset_ = pos.frame - static_cast<jack_nframes_t>(engineFrame);  // the run's anchor
            unsettled_ = false;
        } else if (bbt && pos.beats_per_minute != bpm_) {
            e.kind = BOOP_TRANSPORT_TEMPO;
            push(e);
        }
        starting_ = false;
        released_ = uint32_t(armed >> 48);  // rolling: the engine is never held
    } else if (state == JackTransportStopped) {
        if (rolling_ || starting_) {
            e.kind = BOOP_TRANSPORT_STOPPED;
            push(e);
        }
        starting_ = false;
    } else if (!starting_ || pos.frame != startFrame_ || (bbt && pos.beats_per_minute != startBpm_)) {
        // Starting (or NetStarting): waiting for the slow-sync clients. A timebase master gives
        // the BBT of a new position a cycle after it (its callback writes the next cycle's), so
        // the tempo arriving makes a new start too: an arm at the wrong tempo is never taken.
        starting(pos, engineFrame);
    } else if (uint32_t(armed >> 48) == request_ && armed != missed_ && (armed & kFrameMask) < engineFrame) {
        missed_ = armed;  // armed too late, the engine past its frame: the control thread arms anew
        e.kind = BOOP_TRANSPORT_STARTING;
        e.request = request_;
        push(e);
    }
    if (rolling_ && !rolling) {
        midiHeld_ = true;  // what is queued was for the run that just ended: the panic drops it
        actsAtStop_ = acts_.load(std::memory_order_acquire);
    } else if (midiHeld_ && acts_.load(std::memory_order_acquire) != actsAtStop_) {
        midiHeld_ = false;
    }
    rolling_ = rolling;
    expected_ = pos.frame + frames;
    nextCycle_ = now + frames;
    cycleFrames_ = frames;
    xruns_ = xruns;
    if (bbt) bpm_ = pos.beats_per_minute;
}

void TransportWatch::closeSpan(uint32_t from, uint32_t to) BOOP_RT {
    if (to <= from) return;
    if (spanCount_ < kMaxSpans)
        spans_[spanCount_++] = Span{from, to - from};
    else  // more holds in one cycle than kept: the rest plays through (never seen in practice)
        spans_[kMaxSpans - 1].frames = to - spans_[kMaxSpans - 1].offset;
}

// One message at cycle offset `at`, e stamped: the hold taken (Start, Continue) or released (the
// first Clock after them, or Stop). False: not a message to report.
bool TransportWatch::midiEvent(const jack_midi_event_t& event, boop_transport_event& e, uint32_t at) BOOP_RT {
    switch (event.buffer[0]) {
        case 0xF8:
            e.kind = BOOP_TRANSPORT_CLOCK;
            if (clockHeld_) {
                const uint64_t armed = armed_.load(std::memory_order_acquire);
                e.prepared = armed != 0 && uint32_t(armed >> 48) == request_ && (armed & kFrameMask) == clockHoldAt_;
                e.request = request_;
            }
            break;
        case 0xFA:
        case 0xFB:
            e.kind = event.buffer[0] == 0xFA ? BOOP_TRANSPORT_START : BOOP_TRANSPORT_CONTINUE;
            if (!clockHeld_) {
                closeSpan(spanStart_, at);
                clockHeld_ = true;
                clockHoldAt_ = e.engine_frame;
            }
            request_ = request_ % kRequestMask + 1;
            e.request = request_;
            return true;
        case 0xFC:
            e.kind = BOOP_TRANSPORT_MIDI_STOP;
            break;
        case 0xF2:
            if (event.size < 3) return false;
            e.kind = BOOP_TRANSPORT_SONG_POSITION;
            e.song_position = uint32_t(event.buffer[1] & 0x7F) | uint32_t(event.buffer[2] & 0x7F) << 7;
            return true;
        default:
            return false;  // notes and the rest: not time
    }
    if (clockHeld_) {  // a Clock or Stop releases the engine: its frame A renders on this offset
        clockHeld_ = false;
        spanStart_ = at;
    }
    return true;
}

void TransportWatch::midi(void* buffer, uint64_t engineFrame, uint32_t frames) BOOP_RT {
    spanCount_ = 0;
    spanStart_ = 0;
    uint32_t pos = 0;
    uint64_t engine = engineFrame;  // the engine frame at offset pos (standing still while held)
    const uint32_t count = jack_midi_get_event_count(buffer);
    for (uint32_t i = 0; i < count; ++i) {
        jack_midi_event_t event;
        if (jack_midi_event_get(&event, buffer, i) != 0 || event.size == 0) continue;
        const uint32_t at = std::min<uint32_t>(std::max<uint32_t>(event.time, pos), frames);
        if (!clockHeld_) engine += at - pos;
        pos = at;
        boop_transport_event e{};
        e.engine_frame = engine;
        if (midiEvent(event, e, at)) push(e);
    }
    if (!clockHeld_) closeSpan(spanStart_, frames);
}
BOOP_RT_UNCHECKED_END

}  // namespace boop
