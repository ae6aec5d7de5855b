// C shim for the MIDI keyboard input of CAudioEngine.h (boop edit --midi): the sequencer reader
// thread fills a lock-free queue and wakes the control loop through an eventfd, so the loop never
// blocks on the sequencer and the reader never waits on the loop.
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <new>
#include <string>

#include "backend/alsa/AlsaSeqEvents.hpp"
#include "backend/alsa/AlsaSeqInput.hpp"
#include "include/CAudioEngine.h"
#include "rt/LockFreeQueue.hpp"

struct boop_midi_in {
    boop::AlsaSeqInput input;
    boop::LockFreeQueue<boop_midi_event> queue{1024};
    int wake = -1;
    std::atomic<uint64_t> dropped{0};
    std::string source;

    ~boop_midi_in() {
        input.stop();  // joins the reader before the queue and the descriptor go
        if (wake >= 0) ::close(wake);
    }
};

namespace {

void copyWhy(const std::string& text, char* why, size_t size) {
    if (why == nullptr || size == 0) return;
    const size_t n = std::min(text.size(), size - 1);
    std::memcpy(why, text.data(), n);
    why[n] = '\0';
}

// On the reader thread: one event in, the loop woken.
void deliver(void* context, uint64_t arrivalNs, const snd_seq_event_t& event) {
    auto* in = static_cast<boop_midi_in*>(context);
    boop::MidiMessage m{};
    if (!boop::seqEventToMidi(event, m)) return;
    if (!in->queue.tryPush(boop_midi_event{arrivalNs, m.status, m.data1, m.data2})) {
        in->dropped.fetch_add(1, std::memory_order_relaxed);
        return;
    }
    const uint64_t one = 1;
    if (write(in->wake, &one, sizeof one) < 0) {
        // only when the counter is at its maximum: the loop is woken already
    }
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
    boop_status status = in->input.open(config, reason);
    if (status == BOOP_OK) {
        in->wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
        if (in->wake < 0) status = BOOP_ERROR_INTERNAL;
    }
    if (status == BOOP_OK) status = in->input.subscribe(source, reason);
    if (status == BOOP_OK) in->source = reason;
    if (status == BOOP_OK) status = in->input.start(deliver, in);
    if (status != BOOP_OK) {
        copyWhy(reason, why, why_size);
        delete in;
        return status;
    }
    *out_input = in;
    return BOOP_OK;
}

int boop_midi_in_descriptor(const boop_midi_in* input) { return input != nullptr ? input->wake : -1; }

const char* boop_midi_in_source(const boop_midi_in* input) { return input != nullptr ? input->source.c_str() : ""; }

uint32_t boop_midi_in_read(boop_midi_in* input, boop_midi_event* out_events, uint32_t max) {
    if (input == nullptr || out_events == nullptr) return 0;
    uint64_t count = 0;
    if (read(input->wake, &count, sizeof count) < 0) {
        // EAGAIN: nothing was signalled; the queue is read all the same
    }
    uint32_t n = 0;
    while (n < max && input->queue.tryPop(out_events[n])) ++n;
    if (n == max) {
        // More may wait: the descriptor stays readable so the loop comes back for them.
        const uint64_t one = 1;
        if (write(input->wake, &one, sizeof one) < 0) {}
    }
    return n;
}

uint64_t boop_midi_in_dropped(const boop_midi_in* input) {
    return input != nullptr ? input->dropped.load(std::memory_order_relaxed) : 0;
}

void boop_midi_in_destroy(boop_midi_in* input) { delete input; }
