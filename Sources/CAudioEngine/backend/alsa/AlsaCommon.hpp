#pragma once
// Small helpers shared by the ALSA playback and capture I/O threads.
#include <alsa/asoundlib.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace boop {

inline int64_t monotonicNs() noexcept {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// The xrun/suspend recoveries a PCM gets per second before it counts as lost: some layers report
// a vanished device as an endless series of recoverable errors, which must not become a busy loop.
class RecoveryBudget {
public:
    static constexpr int kPerSecond = 16;

    void reset() noexcept {
        windowStartNs_ = monotonicNs();
        used_ = 0;
    }
    // False once this second's budget is spent.
    bool spend() noexcept {
        const int64_t now = monotonicNs();
        if (now - windowStartNs_ > 1'000'000'000) {
            windowStartNs_ = now;
            used_ = 0;
        }
        return ++used_ <= kPerSecond;
    }

private:
    int64_t windowStartNs_ = 0;
    int used_ = 0;
};

inline const char* alsaFormatName(snd_pcm_format_t f) noexcept {
    switch (f) {
        case SND_PCM_FORMAT_FLOAT_LE: return "FLOAT_LE";
        case SND_PCM_FORMAT_S32_LE: return "S32_LE";
        default: return "S16_LE";
    }
}

// ALSA prints its own errors on stderr ("ALSA lib confmisc.c:... Cannot get card index"), which
// would break the CLI's one-line error contract; the status codes carry the same information.
// BOOP_ALSA_DEBUG=1 keeps ALSA's messages.
inline void ignoreAlsaError(const char*, int, const char*, int, const char*, ...) {}

inline void silenceAlsaErrors() noexcept {
    static const bool once = [] {
        const char* debug = std::getenv("BOOP_ALSA_DEBUG");
        if (debug == nullptr || debug[0] == '\0' || debug[0] == '0')
            snd_lib_error_set_handler(&ignoreAlsaError);
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
        sp.sched_priority = std::clamp(realtimePriority - 1, sched_get_priority_min(SCHED_FIFO),
                                       sched_get_priority_max(SCHED_FIFO));
        raised = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp) == 0;
    }
    silenceAlsaErrors();
    const int err = snd_pcm_open(pcm, device, stream, SND_PCM_NONBLOCK);
    if (raised) pthread_setschedparam(pthread_self(), oldPolicy, &oldParam);
    if (err < 0) *pcm = nullptr;
    return err;
}

// SCHED_FIFO for the calling (I/O) thread; true on success.
inline bool makeCurrentThreadRealtime(int priority) noexcept {
    if (priority <= 0) return false;
    sched_param sp{};
    sp.sched_priority = std::clamp(priority, sched_get_priority_min(SCHED_FIFO), sched_get_priority_max(SCHED_FIFO));
    return pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp) == 0;
}

}  // namespace boop
