#pragma once
// Real-time pacing for playback devices without a clock of their own. ALSA's null PCM (and any
// plugin that drops what it is given) takes every write at once and always reports its whole
// buffer free, so an I/O thread that writes whenever the device has room renders as fast as the
// CPU allows: 100 % of a core, and a "5 s" tone over in half a second. A real device consumes
// frames at its sample rate; this measures what the device has consumed (frames written minus its
// delay) against CLOCK_MONOTONIC and, when that runs ahead of real time by more than `slack`
// frames, says how long to wait before the next write. Used by the I/O thread only (not the
// render path): plain arithmetic, no state shared with other threads.
#include <cstdint>

namespace boop {

class RealTimePace {
  public:
    // Forgets the reference point (after a recovery that dropped buffered frames, which the device
    // never played): the next measurement starts a new one.
    void forget() noexcept { anchored_ = false; }

    // `consumed`: the frames the device has taken out of its buffer by `nowNs`. Returns how many
    // nanoseconds to wait before writing more (0: write now).
    //
    // The reference point follows the device whenever it is at or behind real time (a sink that
    // takes seconds to start, a stall, a process stopped and continued, a device clock slower
    // than the system's), so only a lead built up since then counts.
    int64_t waitNs(int64_t nowNs, int64_t consumed, double rate, int64_t slack) noexcept {
        if (!(rate > 0)) return 0;
        if (!anchored_) {
            anchor(nowNs, consumed);
            return 0;
        }
        const double pace = rate * (1 + kTolerance);
        const double due = double(anchorFrames_) + double(nowNs - anchorNs_) * pace * 1e-9;
        const double lead = double(consumed) - due;
        if (lead <= 0) {
            anchor(nowNs, consumed);
            return 0;
        }
        if (lead <= double(slack)) return 0;
        return int64_t((lead - double(slack)) / pace * 1e9) + 1;
    }

    // Real time allows this much more than the nominal rate. A sound card's clock is within
    // ±100 ppm of the system's; a device behind a server follows one. Were real time held to
    // the nominal rate, a device clock even slightly fast would build a lead without end (a
    // wait does not stop it consuming) and be starved once it passed the slack; this way only
    // a device 0.5 % fast or more is ever held back, and a clockless one plays 0.5 % fast.
    static constexpr double kTolerance = 0.005;

  private:
    void anchor(int64_t nowNs, int64_t consumed) noexcept {
        anchored_ = true;
        anchorNs_ = nowNs;
        anchorFrames_ = consumed;
    }

    bool anchored_ = false;
    int64_t anchorNs_ = 0;
    int64_t anchorFrames_ = 0;
};

}  // namespace boop
