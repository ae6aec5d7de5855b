#include "backend/alsa/AlsaSeqEvents.hpp"

namespace boop {

namespace {
uint8_t data7(int value) noexcept { return static_cast<uint8_t>(value < 0 ? 0 : value > 127 ? 127 : value); }
}  // namespace

bool seqEventToMidi(const snd_seq_event_t& e, MidiMessage& out) BOOP_RT {
    const uint8_t ch = e.data.note.channel & 0x0F;  // note and control events keep channel first
    switch (e.type) {
        case SND_SEQ_EVENT_NOTEON:
        case SND_SEQ_EVENT_NOTEOFF:
        case SND_SEQ_EVENT_KEYPRESS: {
            const uint8_t kind = e.type == SND_SEQ_EVENT_NOTEON ? 0x90 : e.type == SND_SEQ_EVENT_NOTEOFF ? 0x80 : 0xA0;
            out.status = static_cast<uint8_t>(kind | ch);
            out.data1 = e.data.note.note & 0x7F;
            out.data2 = e.data.note.velocity & 0x7F;
            return true;
        }
        case SND_SEQ_EVENT_CONTROLLER:
            if (e.data.control.param > 127) return false;  // 14-bit and (N)RPN numbers: not MIDI 1.0 controllers
            out.status = static_cast<uint8_t>(0xB0 | (e.data.control.channel & 0x0F));
            out.data1 = static_cast<uint8_t>(e.data.control.param);
            out.data2 = data7(e.data.control.value);
            return true;
        case SND_SEQ_EVENT_PGMCHANGE:
        case SND_SEQ_EVENT_CHANPRESS:
            out.status = static_cast<uint8_t>((e.type == SND_SEQ_EVENT_PGMCHANGE ? 0xC0 : 0xD0) |
                                              (e.data.control.channel & 0x0F));
            out.data1 = data7(e.data.control.value);
            out.data2 = 0;
            return true;
        case SND_SEQ_EVENT_PITCHBEND: {
            // ALSA's bend is signed around 0 (-8192 ... 8191); MIDI's is 0 ... 16383 around 8192.
            int v = e.data.control.value + 8192;
            v = v < 0 ? 0 : v > 16383 ? 16383 : v;
            out.status = static_cast<uint8_t>(0xE0 | (e.data.control.channel & 0x0F));
            out.data1 = static_cast<uint8_t>(v & 0x7F);
            out.data2 = static_cast<uint8_t>(v >> 7);
            return true;
        }
        default:
            return false;
    }
}

}  // namespace boop
