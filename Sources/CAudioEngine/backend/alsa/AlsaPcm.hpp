#pragma once
// One ALSA PCM as playback and capture both use it: opened non-blocking (with the plugin's helper
// thread at real-time priority), its hardware and software parameters negotiated, its poll
// descriptors plus a wake eventfd so stop() is prompt, the wait on them, and the recovery from
// xruns and suspends within a budget.
#include <alsa/asoundlib.h>
#include <poll.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "backend/IoThread.hpp"
#include "backend/alsa/AlsaCommon.hpp"
#include "include/CAudioEngine.h"

namespace boop {

enum class SampleFormat { Float, S32, S16 };

inline std::size_t bytesPerSample(SampleFormat f) noexcept { return f == SampleFormat::S16 ? 2 : 4; }
const char* sampleFormatName(SampleFormat f) noexcept;

class AlsaPcm {
  public:
    struct Params {
        double rate = 44100;
        uint32_t channels = 2;
        bool exactChannels = true;  // playback renders exactly this many; capture takes the nearest
        snd_pcm_uframes_t period = 128;
        uint32_t periods = 3;
        // Playback starts the stream once the buffer is primed (in whole periods), so the first
        // period is not an underrun; capture starts at once.
        bool startWhenPrimed = false;
        // A renegotiation (a larger buffer) must fit the I/O buffers sized at open: a larger
        // granted period is refused, as is a different rate. 0: no limit.
        snd_pcm_uframes_t maxPeriod = 0;
    };
    enum class Recovery { done, later, lost };
    // What a wait saw: nothing (a timeout, a wake, a signal), the PCM's events, events the PCM
    // could not translate, or a failed poll().
    enum class Wait { quiet, events, unreadable, failed };

    AlsaPcm() = default;
    ~AlsaPcm() { close(); }
    AlsaPcm(const AlsaPcm&) = delete;
    AlsaPcm& operator=(const AlsaPcm&) = delete;

    // What playback and capture both check before opening (INVALID_ARGUMENT otherwise): a device
    // name, and the rate, channels, period and periods inside the limits table's rows.
    static bool validRequest(const char* device, double rate, uint32_t channels, uint32_t periodFrames,
                             uint32_t periods) noexcept;
    // DEVICE_UNAVAILABLE when the device cannot be opened; `openError` then says why in ALSA's
    // words ("No such file or directory", "Device or resource busy", ...).
    boop_status open(const char* device, snd_pcm_stream_t stream, int realtimePriority);
    const char* openError() const noexcept { return openError_; }
    // open(), then the stream's own negotiation (`negotiate`, returning a boop_status); after a
    // failure of either the PCM is closed and `why` says which ("" when both succeed).
    template <class Negotiate>
    boop_status openAndNegotiate(const char* device, snd_pcm_stream_t stream, int realtimePriority, const char*& why,
                                 Negotiate negotiate) {
        boop_status s = open(device, stream, realtimePriority);
        if (s != BOOP_OK) {
            why = openError();
            return s;
        }
        s = negotiate();
        if (s != BOOP_OK) {
            why = "it refused the access, format, channels, rate or period asked for";
            close();
        }
        return s;
    }
    // Control thread: ends `io`'s loop when it runs (asked to stop, woken, joined), then closes
    // the PCM. True when the loop ran.
    bool stopAndClose(IoThread& io);
    // Interleaved access; FLOAT_LE, else S32_LE, else S16_LE (chosen at the first negotiation and
    // kept when the buffer is renegotiated); channels; the nearest rate, period and buffer; then
    // the software parameters (wake-ups a period apart). The granted values are taken only when
    // everything succeeded, so a failed renegotiation leaves the old ones in place.
    boop_status negotiate(const Params& params);
    // The PCM's descriptors (a renegotiation may change them) plus the wake eventfd, last.
    // `renegotiable`: the first call reserves room for kMaxPollFds descriptors (refusing a PCM
    // that needs more), so a later call on the I/O thread never allocates. DEVICE_UNAVAILABLE,
    // OUT_OF_MEMORY, or INTERNAL when no eventfd can be made.
    boop_status fetchPollDescriptors(bool renegotiable);
    // Any thread: ends the I/O thread's current wait.
    void wake() noexcept;
    // The I/O thread: waits for the device (or a wake); on `events`, the PCM's poll events are in
    // `revents`. What counts as "gone" is the caller's.
    Wait waitForDevice(int timeoutMs, unsigned short& revents);
    // The I/O thread: waits `ns` nanoseconds (CLOCK_MONOTONIC, via ppoll) or until a wake,
    // whichever comes first, without looking at the device (a clockless one is always ready).
    void pause(int64_t ns);
    // The I/O thread: recovers from an xrun (-EPIPE; `onXrun` runs first, it may renegotiate) or a
    // suspend (-ESTRPIPE), restarting the stream when `restart` (capture). Past this second's
    // budget: `later`, and `lost` once errors have come without end.
    template <class OnXrun>
    Recovery recover(int err, bool restart, OnXrun onXrun) {
        if (!budget_.spend()) return budget_.endless() ? Recovery::lost : Recovery::later;
        if (err == -EPIPE) {
            onXrun();
        } else if (err == -ESTRPIPE) {
            suspends_.fetch_add(1, std::memory_order_relaxed);
            // snd_pcm_recover would sleep(1) in a loop while the device resumes; try once and fall
            // back to prepare so the I/O thread never parks for seconds.
            if (snd_pcm_resume(pcm_) == 0) return Recovery::done;
        } else {
            return Recovery::lost;
        }
        if (snd_pcm_prepare(pcm_) < 0) return Recovery::lost;
        if (restart && snd_pcm_start(pcm_) < 0) return Recovery::lost;
        return Recovery::done;
    }
    void resetRecoveryBudget() noexcept { budget_.reset(); }
    void close() noexcept;

    snd_pcm_t* handle() const noexcept { return pcm_; }
    bool isOpen() const noexcept { return pcm_ != nullptr; }
    SampleFormat format() const noexcept { return format_; }
    double rate() const noexcept { return rate_; }
    uint32_t channels() const noexcept { return channels_; }
    snd_pcm_uframes_t period() const noexcept { return period_; }
    snd_pcm_uframes_t buffer() const noexcept { return buffer_; }
    uint64_t suspends() const noexcept { return suspends_.load(std::memory_order_relaxed); }

  private:
    static constexpr int kMaxPollFds = 16;

    struct Granted {
        SampleFormat format = SampleFormat::Float;
        unsigned int rate = 0;
        unsigned int channels = 0;
        snd_pcm_uframes_t period = 0;
        snd_pcm_uframes_t buffer = 0;
    };
    boop_status setHardware(const Params& params, Granted& granted);
    bool chooseFormat(snd_pcm_hw_params_t* hw, SampleFormat& format);
    boop_status setSoftware(snd_pcm_uframes_t startThreshold, snd_pcm_uframes_t availMin);

    snd_pcm_t* pcm_ = nullptr;
    const char* openError_ = "";  // a static string of ALSA's (snd_strerror)
    bool negotiated_ = false;
    SampleFormat format_ = SampleFormat::Float;
    double rate_ = 0;
    uint32_t channels_ = 0;
    snd_pcm_uframes_t period_ = 0;
    snd_pcm_uframes_t buffer_ = 0;
    std::vector<struct pollfd> pfds_;
    int wakeFd_ = -1;
    std::atomic<uint64_t> suspends_{0};
    // Some layers report a vanished device as a recoverable xrun, forever.
    RecoveryBudget budget_;
};

}  // namespace boop
