// The editor's MIDI keyboard on JACK (see JackMidiKeys.hpp).
#include "backend/jack/JackMidiKeys.hpp"

#include <jack/midiport.h>

#include "dsp/MidiPitch.hpp"
#include "engine/Command.hpp"

namespace boop {

void MidiKeysQueue::forgetSound() noexcept {
    KeysSound stale;
    while (sounds.tryPop(stale)) {}
    sound = KeysSound{};
    channelSound = KeysSound{};
}

void MidiKeysQueue::takeSound() BOOP_RT {
    KeysSound next;
    while (sounds.tryPop(next)) (next.channel < 0 ? sound : channelSound) = next;
}

void MidiKeysQueue::release(uint8_t key) BOOP_RT {
    Command c;
    c.type = Command::Type::NoteOff;
    c.noteId = kKeyNoteIds + key;
    if (sound.engine != nullptr) sound.engine->applyNow(c);
    if (channelSound.engine != nullptr && channelSound.engine != sound.engine) channelSound.engine->applyNow(c);
}

void MidiKeysQueue::play(const boop_midi_event& e) BOOP_RT {
    if (!queue.tryPush(e)) dropped.fetch_add(1, std::memory_order_relaxed);
    const uint8_t type = e.status & 0xF0;
    const bool on = type == 0x90 && e.data2 > 0;
    const bool off = type == 0x80 || (type == 0x90 && e.data2 == 0);
    if (off) {
        release(e.data1);  // also for a key whose note the engine no longer holds
        return;
    }
    const bool ownSound = channelSound.engine != nullptr && channelSound.channel == (e.status & 0x0F);
    const KeysSound& k = ownSound ? channelSound : sound;
    const boop_keys_sound& s = k.sound;
    if (k.engine == nullptr || s.kind == BOOP_KEYS_SILENT) return;
    if (!on || ((s.keys[e.data1 >> 3] >> (e.data1 & 7)) & 1) == 0) return;
    Command c;
    c.noteId = kKeyNoteIds + e.data1;
    c.gain = e.data2 >= s.accent_velocity ? s.accent_gain : s.gain;
    c.timbre = static_cast<uint8_t>(s.index);
    if (s.kind == BOOP_KEYS_DRUMS) {
        c.type = Command::Type::DrumHit;
        c.noteId = e.data1;
    } else {
        // As a pattern's note: A4 = 440 Hz, and nothing at or above Nyquist.
        c.value = dsp::midiKeyHz(e.data1);
        if (c.value >= k.engine->config().sample_rate * 0.5) return;
        c.type = s.kind == BOOP_KEYS_INSTRUMENT ? Command::Type::InstrumentNoteOn : Command::Type::NoteOn;
    }
    k.engine->applyNow(c);
}

// libjack's MIDI buffer calls are not annotated: allowed by name, as the other process callbacks do.
BOOP_RT_UNCHECKED_BEGIN
uint32_t midiKeyCount(void* portBuffer) BOOP_RT { return jack_midi_get_event_count(portBuffer); }

bool midiKey(void* portBuffer, uint32_t i, uint64_t engineFrame, boop_midi_event& out, uint32_t& offset) BOOP_RT {
    jack_midi_event_t event;
    if (jack_midi_event_get(&event, portBuffer, i) != 0 || event.size < 2) return false;
    const uint8_t status = event.buffer[0];
    if (status < 0x80 || status > 0xEF) return false;
    offset = event.time;
    out = boop_midi_event{engineFrame + event.time, status, uint8_t(event.buffer[1] & 0x7F),
                          uint8_t(event.size > 2 ? event.buffer[2] & 0x7F : 0)};
    return true;
}
BOOP_RT_UNCHECKED_END

void readMidiKeys(void* portBuffer, uint64_t engineFrame, MidiKeysQueue& keys) BOOP_RT {
    const uint32_t count = midiKeyCount(portBuffer);
    for (uint32_t i = 0; i < count; ++i) {
        boop_midi_event e;
        uint32_t offset = 0;
        if (!midiKey(portBuffer, i, engineFrame, e, offset)) continue;
        if (!keys.queue.tryPush(e)) keys.dropped.fetch_add(1, std::memory_order_relaxed);
    }
}

}  // namespace boop
