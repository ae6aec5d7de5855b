#pragma once
// Playback with no sound device (`play --midi-out --no-sound` on ALSA): a thread of its own pulls
// the source on CLOCK_MONOTONIC at the rate asked, so the engine's clock runs (the transport
// schedules by it) and what it renders is dropped. Frame f is "heard" at startNs + f / rate
// exactly: the MIDI out on the sequencer stamps its events on that line (AlsaSeqSchedule's fixed
// line), so they never drift. The thread keeps `buffer` frames rendered ahead of the heard frame,
// as a device buffer would, waking once a period.
#include <atomic>
#include <cstdint>
#include <vector>

#include "backend/Backend.hpp"
#include "backend/IoThread.hpp"
#include "include/CAudioEngine.h"
#include "rt/Realtime.hpp"

namespace boop {

class TimerPlayback final : public PlaybackBackend {
  public:
    struct Config : PeriodSettings {
        Config() noexcept : PeriodSettings(BOOP_LIMIT_TIMER_PERIOD_FRAMES, BOOP_LIMIT_TIMER_PERIODS) {}
    };

    // Where the thread reads the time and waits: CLOCK_MONOTONIC, and ppoll(2) on the stop
    // eventfd, unless another is given (a test's clock, which moves only when told).
    struct Clock {
        uint64_t (*now)() noexcept;
        // Returns after `ns`, or earlier once `stopFd` is readable.
        void (*wait)(int stopFd, uint64_t ns) noexcept;
    };
    static Clock systemClock() noexcept;

    TimerPlayback() noexcept : TimerPlayback(systemClock()) {}
    explicit TimerPlayback(Clock clock) noexcept : clock_(clock) {}
    ~TimerPlayback() override;
    TimerPlayback(const TimerPlayback&) = delete;
    TimerPlayback& operator=(const TimerPlayback&) = delete;

    // Allocates the (discarded) render buffer. INVALID_ARGUMENT for a rate or size out of range.
    boop_status open(const Config& config, double sampleRate, uint32_t channels);
    // Before start: the ns on its clock (CLOCK_MONOTONIC) at which frame 0 is heard (default:
    // when start is called).
    void startAt(uint64_t ns) noexcept { startNs_ = ns; }
    uint64_t startNs() const noexcept { return startNs_; }

    boop_status start(boop_source source) override;
    void stop(bool drain) override;
    boop_playback_info info() const override;
    int endedDescriptor() const noexcept override { return io_.endedDescriptor(); }
    boop_playback_stats stats() const override;

    // The frame heard at `nowNs` on the line from `startNs` (0 before it).
    static uint64_t heardFrame(uint64_t startNs, uint64_t nowNs, double rate) noexcept;
    // CLOCK_MONOTONIC ns at which `frame` is heard.
    static uint64_t frameNs(uint64_t startNs, uint64_t frame, double rate) noexcept;

  private:
    void run();
    void renderUpTo(uint64_t target);

    Clock clock_;
    double rate_ = 0;
    uint32_t channels_ = 0;
    uint32_t period_ = 0;
    uint32_t buffer_ = 0;
    int realtimePriority_ = 0;
    uint64_t startNs_ = 0;
    boop_source source_{};
    std::vector<float> scratch_;
    uint64_t rendered_ = 0;
    int wake_ = -1;  // eventfd: stop() wakes the thread at once

    IoThread io_;
    std::atomic<uint64_t> framesWritten_{0};
    std::atomic<int64_t> delay_{0};
};

}  // namespace boop
