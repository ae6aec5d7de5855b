#pragma once
// Small helpers shared by the ALSA playback and capture I/O threads.
#include <alsa/asoundlib.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>

namespace boop {

inline int64_t monotonicNs() noexcept {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// The time the I/O thread itself has been running, for the watchdogs: a device that takes no
// data for that long is gone, but time during which the process did not run is no evidence
// against the device. CLOCK_MONOTONIC already leaves out a system suspend (CLOCK_BOOTTIME would
// count it, so it is the wrong clock here), but it keeps going while the process is stopped
// (SIGSTOP or SIGTSTP, a debugger, a frozen cgroup), and a watchdog counting that time would call
// the device lost the moment the process continues. SIGCONT cannot tell when a stop began (SIGSTOP
// cannot be caught) and not every stop ends with one, so the loop reads this clock once per turn
// and counts at most `maxStepNs` of any one turn: a turn waits at most its poll timeout (100 ms)
// plus a little work, so anything much longer is time the thread was not running (stopped, or
// starved of CPU) and is left out. A device call that blocks for long is counted up to the cap
// per turn, so a device that keeps hanging still ends with the watchdog. The clock it reads is
// CLOCK_MONOTONIC unless another is given (a test's, which moves only when told).
class RunningClock {
  public:
    static constexpr int64_t kMaxStepNs = 1'000'000'000;
    using Source = int64_t (*)() noexcept;

    explicit RunningClock(Source source = monotonicNs) noexcept : source_(source) {}
    Source source() const noexcept { return source_; }

    void reset() noexcept { resetAt(source_()); }
    // The running time now. Call once per loop turn, from the I/O thread only.
    int64_t now() noexcept { return advanceTo(source_()); }

    // The same at a given reading of the source (tests replay a stop with these).
    void resetAt(int64_t t) noexcept {
        last_ = t;
        running_ = 0;
        skippedNs_ = 0;
    }
    int64_t advanceTo(int64_t t) noexcept {
        const int64_t step = t - last_;
        last_ = t;
        if (step > kMaxStepNs) {
            skippedNs_ = step - kMaxStepNs;
            running_ += kMaxStepNs;
        } else {
            skippedNs_ = 0;
            running_ += step;
        }
        return running_;
    }
    // How much of the last turn was left out (0 when the process ran throughout).
    int64_t skippedNs() const noexcept { return skippedNs_; }

  private:
    Source source_;
    int64_t last_ = 0;
    int64_t running_ = 0;
    int64_t skippedNs_ = 0;
};

// The xrun/suspend recoveries a PCM gets per second. Some layers report a vanished device as an
// endless series of recoverable errors, which must neither become a busy loop nor be mistaken for
// a busy machine: past the budget the I/O thread waits a little instead of recovering at once,
// and only errors that exhaust the budget in kEndlessSeconds consecutive seconds mean "lost".
class RecoveryBudget {
  public:
    static constexpr int kPerSecond = 16;
    static constexpr int kEndlessSeconds = 3;

    void reset() noexcept {
        windowStartNs_ = monotonicNs();
        used_ = 0;
        exhaustedWindows_ = 0;
    }
    // False once this second's budget is spent (the caller then waits before trying again).
    bool spend() noexcept {
        const int64_t now = monotonicNs();
        if (now - windowStartNs_ > 1'000'000'000) {
            // A window that ended over budget continues a run; one under budget ends it.
            exhaustedWindows_ = used_ > kPerSecond ? exhaustedWindows_ + 1 : 0;
            windowStartNs_ = now;
            used_ = 0;
        }
        return ++used_ <= kPerSecond;
    }
    // True when errors have come faster than the budget for kEndlessSeconds seconds running.
    bool endless() const noexcept { return exhaustedWindows_ >= kEndlessSeconds; }

  private:
    int64_t windowStartNs_ = 0;
    int used_ = 0;
    int exhaustedWindows_ = 0;
};

// Errors after which a PCM is gone for good: no recovery is tried.
inline bool isDeviceGone(long err) noexcept {
    return err == -ENODEV || err == -EBADFD || err == -ENXIO || err == -ESHUTDOWN || err == -ENOTCONN;
}

inline const char* alsaFormatName(snd_pcm_format_t f) noexcept {
    switch (f) {
        case SND_PCM_FORMAT_FLOAT_LE:
            return "FLOAT_LE";
        case SND_PCM_FORMAT_S32_LE:
            return "S32_LE";
        default:
            return "S16_LE";
    }
}

// ALSA prints its own errors on stderr ("ALSA lib confmisc.c:... Cannot get card index"), which
// would break the CLI's one-line error contract; the status codes carry the same information.
// BOOP_ALSA_DEBUG=1 keeps ALSA's messages.
inline void ignoreAlsaError(const char*, int, const char*, int, const char*, ...) {}

inline void silenceAlsaErrors() noexcept {
    static const bool once = [] {
        const char* debug = std::getenv("BOOP_ALSA_DEBUG");
        if (debug == nullptr || debug[0] == '\0' || debug[0] == '0') snd_lib_error_set_handler(&ignoreAlsaError);
        return true;
    }();
    (void)once;
}

// Plugins such as `pulse` start their own helper thread inside snd_pcm_open, and that thread is
// on the audio path (it relays the server's requests). Threads inherit their creator's policy,
// so open under SCHED_FIFO when permitted, then restore the caller's policy.
inline int openPcmInheritingPriority(snd_pcm_t** pcm, const char* device, snd_pcm_stream_t stream,
                                     int realtimePriority) noexcept {
    int oldPolicy = SCHED_OTHER;
    sched_param oldParam{};
    bool raised = false;
    if (realtimePriority > 0 && pthread_getschedparam(pthread_self(), &oldPolicy, &oldParam) == 0 &&
        oldPolicy == SCHED_OTHER) {
        sched_param sp{};
        sp.sched_priority =
            std::clamp(realtimePriority - 1, sched_get_priority_min(SCHED_FIFO), sched_get_priority_max(SCHED_FIFO));
        raised = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp) == 0;
    }
    silenceAlsaErrors();
    const int err = snd_pcm_open(pcm, device, stream, SND_PCM_NONBLOCK);
    if (raised) pthread_setschedparam(pthread_self(), oldPolicy, &oldParam);
    if (err < 0) *pcm = nullptr;
    return err;
}

}  // namespace boop
