// The editor's MIDI keyboard on JACK (see JackMidiKeys.hpp).
#include "backend/jack/JackMidiKeys.hpp"

#include <jack/midiport.h>

namespace boop {

// libjack's MIDI buffer calls are not annotated: allowed by name, as the other process callbacks do.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#pragma clang diagnostic ignored "-Wfunction-effects"
#endif
void readMidiKeys(void* portBuffer, uint64_t engineFrame, MidiKeysQueue& keys) BOOP_RT {
    const uint32_t count = jack_midi_get_event_count(portBuffer);
    for (uint32_t i = 0; i < count; ++i) {
        jack_midi_event_t event;
        if (jack_midi_event_get(&event, portBuffer, i) != 0 || event.size < 2) continue;
        const uint8_t status = event.buffer[0];
        if (status < 0x80 || status > 0xEF) continue;
        const boop_midi_event e{engineFrame + event.time, status, uint8_t(event.buffer[1] & 0x7F),
                                uint8_t(event.size > 2 ? event.buffer[2] & 0x7F : 0)};
        if (!keys.queue.tryPush(e)) keys.dropped.fetch_add(1, std::memory_order_relaxed);
    }
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

}  // namespace boop
