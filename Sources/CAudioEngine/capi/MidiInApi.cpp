// C shim for the MIDI keyboard input of CAudioEngine.h (boop edit --midi): the sequencer reader
// thread fills a mailbox (lock-free queue + eventfd), so the control loop never blocks on the
// sequencer and the reader never waits on the loop. On JACK the process callback's lock-free queue
// is read by the loop itself (no thread between: the audio thread may not make the system call
// that would wake anyone, so the loop takes the notes when it wakes at the screen's cadence).
#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "backend/alsa/AlsaSeqInput.hpp"
#include "backend/alsa/AlsaSeqMailbox.hpp"
#include "backend/jack/JackMidiKeys.hpp"
#include "include/CAudioEngine.h"

struct boop_midi_in {
    boop::AlsaSeqMailbox mailbox;  // declared first: destroyed after the reader has stopped
    boop::AlsaSeqInput input;
    std::string source;
    // JACK: the process callback's queue, read by boop_midi_in_read (its one consumer).
    std::shared_ptr<boop::MidiKeysQueue> keys;
};

namespace boop {
std::shared_ptr<MidiKeysQueue> midiKeysOf(const boop_midi_in* input) {
    return input != nullptr ? input->keys : nullptr;
}
}  // namespace boop

namespace {

void copyWhy(const std::string& text, char* why, size_t size) {
    if (why == nullptr || size == 0) return;
    const size_t n = std::min(text.size(), size - 1);
    std::memcpy(why, text.data(), n);
    why[n] = '\0';
}

void deliver(void* context, uint64_t arrivalNs, const snd_seq_event_t& event) {
    static_cast<boop::AlsaSeqMailbox*>(context)->post(arrivalNs, event);
}

}  // namespace

boop_status boop_midi_in_open(const char* client_name, const char* source, boop_midi_in** out_input, char* why,
                              size_t why_size) {
    if (out_input == nullptr || source == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    *out_input = nullptr;
    auto* in = new (std::nothrow) boop_midi_in;
    if (in == nullptr) return BOOP_ERROR_OUT_OF_MEMORY;
    std::string reason;
    boop::AlsaSeqInput::Config config;
    config.clientName = client_name != nullptr ? client_name : "boop";
    config.realtimePriority = 0;  // the editor's keys, not a synth's frames: no real-time priority needed
    boop_status status = in->mailbox.descriptor() < 0 ? BOOP_ERROR_INTERNAL : in->input.open(config, reason);
    if (status == BOOP_OK) status = in->input.subscribe(source, reason);
    if (status == BOOP_OK) in->source = reason;
    if (status == BOOP_OK) status = in->input.start(deliver, &in->mailbox);
    if (status != BOOP_OK) {
        copyWhy(reason, why, why_size);
        delete in;
        return status;
    }
    *out_input = in;
    return BOOP_OK;
}

boop_status boop_midi_in_open_jack(const char* source, boop_midi_in** out_input) {
    if (out_input == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    *out_input = nullptr;
    auto* in = new (std::nothrow) boop_midi_in;
    if (in == nullptr) return BOOP_ERROR_OUT_OF_MEMORY;
    try {
        in->source = source != nullptr ? source : "";
        in->keys = std::make_shared<boop::MidiKeysQueue>();
    } catch (const std::bad_alloc&) {
        delete in;
        return BOOP_ERROR_OUT_OF_MEMORY;
    } catch (...) {
        delete in;
        return BOOP_ERROR_INTERNAL;
    }
    *out_input = in;
    return BOOP_OK;
}

int boop_midi_in_descriptor(const boop_midi_in* input) {
    return input != nullptr && !input->keys ? input->mailbox.descriptor() : -1;
}

const char* boop_midi_in_source(const boop_midi_in* input) { return input != nullptr ? input->source.c_str() : ""; }

uint32_t boop_midi_in_read(boop_midi_in* input, boop_midi_event* out_events, uint32_t max) {
    if (input == nullptr || out_events == nullptr) return 0;
    if (!input->keys) return input->mailbox.take(out_events, max);
    uint32_t n = 0;
    while (n < max && input->keys->queue.tryPop(out_events[n])) ++n;
    return n;
}

uint64_t boop_midi_in_dropped(const boop_midi_in* input) {
    if (input == nullptr) return 0;
    return input->mailbox.dropped() + (input->keys ? input->keys->dropped.load(std::memory_order_relaxed) : 0);
}

void boop_midi_in_destroy(boop_midi_in* input) {
    if (input == nullptr) return;
    input->input.stop();  // joins the reader before the mailbox goes
    delete input;
}
