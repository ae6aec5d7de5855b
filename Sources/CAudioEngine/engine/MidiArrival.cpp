// Arrival-time MIDI placement (see MidiArrival.hpp).
#include "engine/MidiArrival.hpp"

#include <cmath>

namespace boop {

void MidiArrivalClock::prepare(double sampleRate, uint32_t delayFrames, double bandwidthHz) noexcept {
    nominalNsPerFrame_ = 1e9 / sampleRate;
    omegaPerFrame_ = 2.0 * M_PI * bandwidthHz / sampleRate;
    delay_ = delayFrames;
    locked_ = false;
    seq_.store(0, std::memory_order_relaxed);
}

// Each report is compared with the time the line predicts for its head; the error moves the line
// (gain b) and its slope (gain c), with the DLL's critically damped gains for the frames the
// report covers (b = sqrt(2) w, c = w^2, w = 2 pi B x the report's duration).
void MidiArrivalClock::observe(uint64_t nowNs, uint64_t head) BOOP_RT {
    const int64_t frames = static_cast<int64_t>(head - loop_.head);
    if (locked_ && frames <= 0) return;  // no progress: nothing to learn
    if (locked_) {
        const double predicted = double(frames) * loop_.nsPerFrame;
        const double error = double(static_cast<int64_t>(nowNs - loop_.timeNs)) - predicted;
        if (std::fabs(error) <= double(kResetNs)) {
            const double w = omegaPerFrame_ * double(frames);
            loop_.timeNs += static_cast<uint64_t>(static_cast<int64_t>(std::llround(predicted + M_SQRT2 * w * error)));
            loop_.head = head;
            loop_.nsPerFrame += w * w * error / double(frames);
            // The device's clock is within a few hundred ppm of the system's; a slope further off
            // is the loop misled (a burst of reports), not the hardware.
            loop_.nsPerFrame =
                std::fmin(std::fmax(loop_.nsPerFrame, nominalNsPerFrame_ * 0.99), nominalNsPerFrame_ * 1.01);
            publish();
            return;
        }
        restarts_.fetch_add(1, std::memory_order_relaxed);
    }
    loop_ = Line{nowNs, head, nominalNsPerFrame_};
    locked_ = true;
    publish();
}

void MidiArrivalClock::publish() BOOP_RT {
    const uint32_t s = seq_.load(std::memory_order_relaxed);
    seq_.store(s + 1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
    pubTime_.store(loop_.timeNs, std::memory_order_relaxed);
    pubHead_.store(loop_.head, std::memory_order_relaxed);
    pubNsPerFrame_.store(loop_.nsPerFrame, std::memory_order_relaxed);
    seq_.store(s + 2, std::memory_order_release);
}

bool MidiArrivalClock::line(Line& out) const noexcept {
    for (;;) {
        const uint32_t before = seq_.load(std::memory_order_acquire);
        if (before == 0) return false;
        if (before & 1u) continue;  // a report is being written: a few stores, soon done
        out.timeNs = pubTime_.load(std::memory_order_relaxed);
        out.head = pubHead_.load(std::memory_order_relaxed);
        out.nsPerFrame = pubNsPerFrame_.load(std::memory_order_relaxed);
        std::atomic_thread_fence(std::memory_order_acquire);
        if (seq_.load(std::memory_order_relaxed) == before) return true;
    }
}

uint64_t MidiArrivalClock::place(const Line& line, uint64_t arrivalNs, uint32_t delayFrames) noexcept {
    const double sinceNs = double(static_cast<int64_t>(arrivalNs - line.timeNs));
    const int64_t frames = std::llround(sinceNs / line.nsPerFrame);
    return line.head + static_cast<uint64_t>(frames) + delayFrames;
}

bool MidiArrivalScheduler::arrive(uint64_t arrivalNs, const MidiMessage& message) noexcept {
    TimedMidi event;
    event.message = message;
    MidiArrivalClock::Line line;
    if (clock_.line(line))
        event.frame = MidiArrivalClock::place(line, arrivalNs, clock_.delay());
    else
        event.atOnce = true;
    if (queue_.tryPush(event)) return true;
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return false;
}

bool MidiArrivalScheduler::next(uint64_t blockStart, uint32_t frames, uint32_t done, uint32_t& at,
                                MidiMessage& out) BOOP_RT {
    const TimedMidi* event = queue_.peek();
    if (event == nullptr) return false;
    int64_t offset = event->atOnce ? 0 : static_cast<int64_t>(event->frame - blockStart);
    if (offset >= int64_t(frames)) return false;  // due in a later block
    if (offset < 0) {
        late_.fetch_add(1, std::memory_order_relaxed);
        offset = 0;
    }
    at = offset < int64_t(done) ? done : static_cast<uint32_t>(offset);
    out = event->message;
    TimedMidi taken;
    queue_.tryPop(taken);
    return true;
}

}  // namespace boop
