// The sequencer-to-control-loop hand-over (see AlsaSeqMailbox.hpp).
#include "backend/alsa/AlsaSeqMailbox.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include "backend/alsa/AlsaSeqEvents.hpp"

namespace boop {

AlsaSeqMailbox::AlsaSeqMailbox() : wake_(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {}

AlsaSeqMailbox::~AlsaSeqMailbox() {
    if (wake_ >= 0) ::close(wake_);
}

void AlsaSeqMailbox::signal() noexcept {
    const uint64_t one = 1;
    if (write(wake_, &one, sizeof one) < 0) {
        // only when the counter is at its maximum: the loop is woken already
    }
}

void AlsaSeqMailbox::post(uint64_t arrivalNs, const snd_seq_event_t& event) noexcept {
    MidiMessage m{};
    if (!seqEventToMidi(event, m)) return;
    post(boop_midi_event{arrivalNs, m.status, m.data1, m.data2});
}

void AlsaSeqMailbox::post(const boop_midi_event& event) noexcept {
    if (!queue_.tryPush(event)) {
        dropped_.fetch_add(1, std::memory_order_relaxed);
        return;
    }
    signal();
}

uint32_t AlsaSeqMailbox::take(boop_midi_event* out, uint32_t max) noexcept {
    uint64_t count = 0;
    if (read(wake_, &count, sizeof count) < 0) {
        // EAGAIN: nothing was signalled; the queue is read all the same
    }
    uint32_t n = 0;
    while (n < max && queue_.tryPop(out[n])) ++n;
    if (n == max) signal();  // more may wait: the loop comes back for them
    return n;
}

}  // namespace boop
