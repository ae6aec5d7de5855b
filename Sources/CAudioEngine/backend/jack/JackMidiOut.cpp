// MIDI out on JACK (see JackMidiOut.hpp).
#include "backend/jack/JackMidiOut.hpp"

namespace boop {

// jack_midi_* work on the port's shared-memory buffer (no system call, no lock) but are not
// annotated: allowed by name, as the JACK process callbacks do.
BOOP_RT_UNCHECKED_BEGIN
void MidiOutWriter::write(void* buffer, uint32_t offset, const uint8_t* bytes, uint8_t size) BOOP_RT {
    if (jack_midi_event_write(buffer, offset, bytes, size) == 0) {
        written_.fetch_add(1, std::memory_order_relaxed);
        track(bytes, size);
    }
}

bool MidiOutWriter::quietCycle(void* buffer) BOOP_RT {
    jack_midi_clear_buffer(buffer);
    const uint64_t panics = panics_.load(std::memory_order_acquire);
    if (panics == panicsDone_.load(std::memory_order_relaxed)) return false;
    carryOutPanic(buffer);
    panicsDone_.store(panics, std::memory_order_release);
    return true;
}

void MidiOutWriter::writeCycle(void* buffer, uint64_t clock, uint32_t frames) BOOP_RT {
    if (!quietCycle(buffer)) writeSpan(buffer, clock, frames, 0);
}

void MidiOutWriter::writeSpan(void* buffer, uint64_t clock, uint32_t frames, uint32_t at) BOOP_RT {
    uint32_t last = at;
    while (const MidiOutEvent* next = queue_.peek()) {
        if (next->frame >= clock + frames) break;
        MidiOutEvent e;
        queue_.tryPop(e);
        ++popped_;
        uint32_t offset = at;
        if (e.frame >= clock)
            offset = at + static_cast<uint32_t>(e.frame - clock);
        else
            late_.fetch_add(1, std::memory_order_relaxed);
        // JACK keeps a cycle's events in time order; the queue is in frame order, so this only
        // holds a late event at the span's start.
        if (offset < last) offset = last;
        last = offset;
        write(buffer, offset, e.bytes, e.size);
    }
}
BOOP_RT_UNCHECKED_END

void MidiOutWriter::track(const uint8_t* b, uint8_t size) BOOP_RT {
    if (size == 1) {
        if (b[0] == 0xFA || b[0] == 0xFB) clockRunning_ = true;
        if (b[0] == kStop) clockRunning_ = false;
        return;
    }
    if (size < 3) return;
    const uint8_t kind = b[0] & 0xF0, ch = b[0] & 0x0F, key = b[1] & 0x7F;
    const uint64_t bit = uint64_t(1) << (key & 63);
    if (kind == 0x90 && b[2] > 0)
        held_[ch][key >> 6] |= bit;
    else if (kind == 0x80 || kind == 0x90)
        held_[ch][key >> 6] &= ~bit;
}

void MidiOutWriter::carryOutPanic(void* buffer) BOOP_RT {
    const uint64_t upTo = panicUpTo_.load(std::memory_order_relaxed);
    for (MidiOutEvent dropped; popped_ < upTo && queue_.tryPop(dropped);) ++popped_;
    for (uint8_t ch = 0; ch < 16; ++ch)
        for (uint8_t key = 0; key < 128; ++key)
            if (held_[ch][key >> 6] & (uint64_t(1) << (key & 63))) {
                const uint8_t off[3] = {uint8_t(0x80 | ch), key, 0x40};
                write(buffer, 0, off, 3);
            }
    if (clockRunning_) {
        const uint8_t stop = kStop;
        write(buffer, 0, &stop, 1);
    }
}

}  // namespace boop
