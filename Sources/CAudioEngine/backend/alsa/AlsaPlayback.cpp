#include "backend/alsa/AlsaPlayback.hpp"

#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <mutex>

#include "backend/RealtimePriority.hpp"
#include "backend/alsa/AlsaCommon.hpp"
#include "rt/Denormals.hpp"

namespace boop {

namespace {

constexpr int kPollTimeoutMs = 100;
// No progress from the device for this long means it is gone: a dead server can keep the PCM
// "running" without ever taking data. A slow one is survived: an idle PulseAudio sink takes up
// to 2 s to start a stream (and again after each underrun), a stopped server as long as it is
// stopped.
constexpr int64_t kWatchdogNs = int64_t(BOOP_PLAYBACK_WATCHDOG_SECONDS) * 1'000'000'000;
// Adaptive buffering grows the fill level when a second xrun follows the first within this time.
constexpr int64_t kXrunBurstNs = 10'000'000'000;

}  // namespace

void convertFloatToS32(const float* in, int32_t* out, std::size_t count) BOOP_RT {
    for (std::size_t i = 0; i < count; ++i) {
        float v = in[i];
        v = v > 1.0f ? 1.0f : (v < -1.0f ? -1.0f : v);
        // double: 2^31 - 1 is not representable as float and would overflow at +1.0.
        out[i] = static_cast<int32_t>(static_cast<double>(v) * 2147483647.0);
    }
}

void convertFloatToS16(const float* in, int16_t* out, std::size_t count) BOOP_RT {
    for (std::size_t i = 0; i < count; ++i) {
        float v = in[i];
        v = v > 1.0f ? 1.0f : (v < -1.0f ? -1.0f : v);
        out[i] = static_cast<int16_t>(v * 32767.0f);
    }
}

AlsaPlayback::~AlsaPlayback() {
    stop(false);
    closePcm();
}

boop_status AlsaPlayback::open(const Config& config, double sampleRate, uint32_t channels) {
    if (pcm_ != nullptr) return BOOP_ERROR_ALREADY_RUNNING;
    if (config.device == nullptr || config.device[0] == '\0' || !(sampleRate >= 8000 && sampleRate <= 384000) ||
        channels < 1 || channels > 32 || config.periodFrames < 16 || config.periodFrames > 65536 ||
        config.periods < 2 || config.periods > 64)
        return BOOP_ERROR_INVALID_ARGUMENT;

    const int openErr =
        openPcmInheritingPriority(&pcm_, config.device, SND_PCM_STREAM_PLAYBACK, config.realtimePriority);
    if (openErr < 0) {
        pcm_ = nullptr;
        return BOOP_ERROR_DEVICE_UNAVAILABLE;
    }

    auto fail = [this](boop_status s) {
        closePcm();
        return s;
    };
    const boop_status configured = configure(sampleRate, channels, config.periodFrames, config.periods);
    if (configured != BOOP_OK) return fail(configured);
    startPeriod_ = period_;
    startBuffer_ = buffer_;
    adaptive_ = config.adaptive;
    realtimePriority_ = config.realtimePriority;
    // Room for the largest period adaptive buffering may choose, so growing never allocates.
    const snd_pcm_uframes_t maxPeriod = std::max<snd_pcm_uframes_t>(period_, ceilingFrames());
    try {
        floatBuf_.assign(maxPeriod * channels, 0.0f);
        convBuf_.assign(format_ == Format::Float ? 0 : maxPeriod * channels * (format_ == Format::S32 ? 4 : 2), 0);
        pfds_.reserve(kMaxPollFds + 1);
    } catch (...) {
        return fail(BOOP_ERROR_OUT_OF_MEMORY);
    }
    if (!fetchPollDescriptors()) return fail(BOOP_ERROR_DEVICE_UNAVAILABLE);
    return BOOP_OK;
}

snd_pcm_uframes_t AlsaPlayback::ceilingFrames() const {
    return static_cast<snd_pcm_uframes_t>(rate_ * BOOP_PLAYBACK_MAX_LATENCY_MS / 1000.0);
}

// Negotiates access, format (FLOAT_LE, else S32_LE, else S16_LE; kept when renegotiating), channels,
// rate, period and buffer, then the software parameters. Also used to grow the buffer.
boop_status AlsaPlayback::configure(double sampleRate, uint32_t channels, snd_pcm_uframes_t periodFrames,
                                    uint32_t periods) {
    snd_pcm_hw_params_t* hw = nullptr;
    snd_pcm_hw_params_alloca(&hw);
    snd_pcm_sw_params_t* sw = nullptr;
    snd_pcm_sw_params_alloca(&sw);

    if (snd_pcm_hw_params_any(pcm_, hw) < 0) return BOOP_ERROR_DEVICE_UNAVAILABLE;
    snd_pcm_hw_params_set_rate_resample(pcm_, hw, 1);
    if (snd_pcm_hw_params_set_access(pcm_, hw, SND_PCM_ACCESS_RW_INTERLEAVED) < 0) return BOOP_ERROR_DEVICE_UNAVAILABLE;

    if (rate_ == 0) {
        const snd_pcm_format_t candidates[] = {SND_PCM_FORMAT_FLOAT_LE, SND_PCM_FORMAT_S32_LE, SND_PCM_FORMAT_S16_LE};
        snd_pcm_format_t chosen = SND_PCM_FORMAT_UNKNOWN;
        for (snd_pcm_format_t f : candidates) {
            if (snd_pcm_hw_params_test_format(pcm_, hw, f) == 0) {
                chosen = f;
                break;
            }
        }
        if (chosen == SND_PCM_FORMAT_UNKNOWN) return BOOP_ERROR_DEVICE_UNAVAILABLE;
        format_ = chosen == SND_PCM_FORMAT_FLOAT_LE ? Format::Float
                  : chosen == SND_PCM_FORMAT_S32_LE ? Format::S32
                                                    : Format::S16;
    }
    const snd_pcm_format_t format = format_ == Format::Float ? SND_PCM_FORMAT_FLOAT_LE
                                    : format_ == Format::S32 ? SND_PCM_FORMAT_S32_LE
                                                             : SND_PCM_FORMAT_S16_LE;
    if (snd_pcm_hw_params_set_format(pcm_, hw, format) < 0) return BOOP_ERROR_DEVICE_UNAVAILABLE;
    if (snd_pcm_hw_params_set_channels(pcm_, hw, channels) < 0) return BOOP_ERROR_DEVICE_UNAVAILABLE;

    unsigned int rate = static_cast<unsigned int>(sampleRate + 0.5);
    if (snd_pcm_hw_params_set_rate_near(pcm_, hw, &rate, nullptr) < 0) return BOOP_ERROR_DEVICE_UNAVAILABLE;
    snd_pcm_uframes_t period = periodFrames;
    if (snd_pcm_hw_params_set_period_size_near(pcm_, hw, &period, nullptr) < 0) return BOOP_ERROR_DEVICE_UNAVAILABLE;
    snd_pcm_uframes_t buffer = period * periods;
    if (snd_pcm_hw_params_set_buffer_size_near(pcm_, hw, &buffer) < 0) return BOOP_ERROR_DEVICE_UNAVAILABLE;
    if (snd_pcm_hw_params(pcm_, hw) < 0) return BOOP_ERROR_DEVICE_UNAVAILABLE;

    snd_pcm_hw_params_get_rate(hw, &rate, nullptr);
    snd_pcm_hw_params_get_period_size(hw, &period, nullptr);
    snd_pcm_hw_params_get_buffer_size(hw, &buffer);
    if (period == 0 || buffer < period) return BOOP_ERROR_DEVICE_UNAVAILABLE;
    if (rate_ != 0 && (rate != rate_ || period > floatBuf_.size() / channels)) return BOOP_ERROR_DEVICE_UNAVAILABLE;

    if (snd_pcm_sw_params_current(pcm_, sw) < 0) return BOOP_ERROR_DEVICE_UNAVAILABLE;
    // Start only once the whole buffer is primed; the loop also starts explicitly when the
    // buffer is not a whole number of periods.
    snd_pcm_sw_params_set_start_threshold(pcm_, sw, (buffer / period) * period);
    snd_pcm_sw_params_set_avail_min(pcm_, sw, period);
    if (snd_pcm_sw_params(pcm_, sw) < 0) return BOOP_ERROR_DEVICE_UNAVAILABLE;

    rate_ = rate;
    channels_ = channels;
    period_ = period;
    buffer_ = buffer;
    latency_.store(static_cast<uint32_t>(buffer), std::memory_order_relaxed);
    return BOOP_OK;
}

// The PCM's descriptors (a renegotiation may change them) plus the wake eventfd, last.
bool AlsaPlayback::fetchPollDescriptors() {
    const int nfds = snd_pcm_poll_descriptors_count(pcm_);
    if (nfds <= 0 || nfds > kMaxPollFds) return false;
    if (wakeFd_ < 0) wakeFd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (wakeFd_ < 0) return false;
    pfds_.resize(static_cast<std::size_t>(nfds) + 1);  // within the capacity reserved at open
    if (snd_pcm_poll_descriptors(pcm_, pfds_.data(), static_cast<unsigned>(nfds)) != nfds) return false;
    pfds_.back() = pollfd{wakeFd_, POLLIN, 0};
    return true;
}

boop_status AlsaPlayback::start(boop_source source) {
    if (pcm_ == nullptr) return BOOP_ERROR_NOT_RUNNING;
    if (started_) return BOOP_ERROR_ALREADY_RUNNING;
    if (source.render == nullptr || source.channels != channels_ || source.max_block_frames == 0)
        return BOOP_ERROR_INVALID_ARGUMENT;
    source_ = source;
    stopRequested_.store(false);
    drainRequested_.store(false);
    error_.store(BOOP_OK);
    running_.store(1);
    started_ = true;

    std::mutex m;
    std::condition_variable cv;
    try {
        thread_ = std::thread([this, &m, &cv] {
            // Scheduling is settled before start() returns so info() can report it.
            realtime_.store(makeCurrentThreadRealtime(realtimePriority_));
            {
                std::lock_guard<std::mutex> lock(m);
                threadReady_.store(true);
            }
            cv.notify_one();
            run();
        });
    } catch (...) {
        running_.store(0);
        started_ = false;
        return BOOP_ERROR_INTERNAL;
    }
    std::unique_lock<std::mutex> lock(m);
    cv.wait(lock, [this] { return threadReady_.load(); });
    return BOOP_OK;
}

void AlsaPlayback::stop(bool drain) {
    if (started_) {
        drainRequested_.store(drain);
        stopRequested_.store(true, std::memory_order_release);
        if (wakeFd_ >= 0) {
            uint64_t one = 1;
            ssize_t ignored = write(wakeFd_, &one, sizeof one);
            (void)ignored;
        }
        if (thread_.joinable()) thread_.join();
        started_ = false;
    }
    closePcm();
}

void AlsaPlayback::closePcm() {
    if (pcm_ != nullptr) {
        snd_pcm_drop(pcm_);
        snd_pcm_close(pcm_);
        pcm_ = nullptr;
    }
    if (wakeFd_ >= 0) {
        ::close(wakeFd_);
        wakeFd_ = -1;
    }
}

boop_playback_info AlsaPlayback::info() const {
    boop_playback_info i{};
    i.sample_rate = rate_;
    i.channels = channels_;
    i.period_frames = static_cast<uint32_t>(startPeriod_);
    i.buffer_frames = static_cast<uint32_t>(startBuffer_);
    i.device_buffer_frames = static_cast<uint32_t>(adaptive_ ? std::max(startBuffer_, ceilingFrames()) : startBuffer_);
    i.priority = static_cast<boop_priority>(realtime_.load());
    i.format = format_ == Format::Float ? alsaFormatName(SND_PCM_FORMAT_FLOAT_LE)
               : format_ == Format::S32 ? alsaFormatName(SND_PCM_FORMAT_S32_LE)
                                        : alsaFormatName(SND_PCM_FORMAT_S16_LE);
    i.realtime_scheduling = realtime_.load() != BOOP_PRIORITY_NORMAL;
    return i;
}

boop_playback_stats AlsaPlayback::stats() const {
    boop_playback_stats s{};
    s.frames_written = framesWritten_.load(std::memory_order_acquire);
    s.delay_frames = delay_.load(std::memory_order_acquire);
    s.xruns = xruns_.load(std::memory_order_relaxed);
    s.suspends = suspends_.load(std::memory_order_relaxed);
    s.running = running_.load(std::memory_order_acquire);
    s.error = static_cast<boop_status>(error_.load(std::memory_order_acquire));
    s.stalls = stalls_.load(std::memory_order_relaxed);
    s.longest_stall_seconds = double(longestStallNs_.load(std::memory_order_relaxed)) * 1e-9;
    s.latency_frames = latency_.load(std::memory_order_relaxed);
    s.latency_growths = growths_.load(std::memory_order_relaxed);
    return s;
}

void AlsaPlayback::finish(boop_status error) {
    error_.store(error, std::memory_order_release);
    running_.store(0, std::memory_order_release);
}

// A second xrun soon after the first is a burst: when adaptive, the recovery renegotiates a buffer
// of twice the period (up to the ceiling) instead of only preparing the stream again. The stream
// is stopped by the xrun anyway, so the larger buffer adds no gap of its own.
bool AlsaPlayback::noteXrun() {
    xruns_.fetch_add(1, std::memory_order_relaxed);
    const int64_t now = monotonicNs();
    const bool burst = lastXrunNs_ != 0 && now - lastXrunNs_ < kXrunBurstNs;
    lastXrunNs_ = now;
    if (!adaptive_ || !burst) return false;
    const uint32_t periods = static_cast<uint32_t>(buffer_ / period_);
    const snd_pcm_uframes_t period = period_ * 2;
    if (period * periods > std::max(ceilingFrames(), startBuffer_)) return false;
    snd_pcm_drop(pcm_);
    snd_pcm_hw_free(pcm_);
    if (configure(rate_, channels_, period, periods) != BOOP_OK || !fetchPollDescriptors()) return false;
    growths_.fetch_add(1, std::memory_order_relaxed);
    lastXrunNs_ = 0;  // the next growth needs a new burst
    return true;
}

// Counts and recovers an xrun or suspend. Lost: the recovery failed, or errors came without end.
AlsaPlayback::Recovery AlsaPlayback::recover(int err) {
    if (!recoveries_.spend()) return recoveries_.endless() ? Recovery::lost : Recovery::later;

    if (err == -EPIPE) {
        noteXrun();  // may renegotiate a larger buffer first
        return snd_pcm_prepare(pcm_) == 0 ? Recovery::done : Recovery::lost;
    }
    if (err == -ESTRPIPE) {
        suspends_.fetch_add(1, std::memory_order_relaxed);
        // snd_pcm_recover would sleep(1) in a loop while the device resumes; try once and fall
        // back to prepare so the I/O thread never parks for seconds.
        int r = snd_pcm_resume(pcm_);
        if (r == 0) return Recovery::done;
        return snd_pcm_prepare(pcm_) == 0 ? Recovery::done : Recovery::lost;
    }
    return Recovery::lost;
}

// Renders `frames` (≤ one period), converts, writes. False with fatal=false means "try later".
bool AlsaPlayback::fillAndWrite(snd_pcm_uframes_t frames, bool& fatal) {
    fatal = false;
    const uint32_t ch = channels_;
    uint32_t done = 0;
    while (done < frames) {
        const uint32_t n = std::min<uint32_t>(static_cast<uint32_t>(frames) - done, source_.max_block_frames);
        float* dst = floatBuf_.data() + static_cast<std::size_t>(done) * ch;
        if (source_.render(source_.context, dst, n) != BOOP_OK) std::fill(dst, dst + std::size_t(n) * ch, 0.0f);
        done += n;
    }
    const void* data = floatBuf_.data();
    const std::size_t samples = std::size_t(frames) * ch;
    if (format_ == Format::S32) {
        convertFloatToS32(floatBuf_.data(), reinterpret_cast<int32_t*>(convBuf_.data()), samples);
        data = convBuf_.data();
    } else if (format_ == Format::S16) {
        convertFloatToS16(floatBuf_.data(), reinterpret_cast<int16_t*>(convBuf_.data()), samples);
        data = convBuf_.data();
    }
    const std::size_t bytesPerFrame = ch * (format_ == Format::S16 ? 2u : 4u);

    snd_pcm_uframes_t off = 0;
    int spins = 0;
    while (off < frames) {
        snd_pcm_sframes_t w =
            snd_pcm_writei(pcm_, static_cast<const uint8_t*>(data) + off * bytesPerFrame, frames - off);
        if (w > 0) {
            off += static_cast<snd_pcm_uframes_t>(w);
            framesWritten_.fetch_add(static_cast<uint64_t>(w), std::memory_order_release);
            continue;
        }
        if (w == -EAGAIN || w == 0) {
            // Only happens if space vanished between avail and write; the rest of this block is
            // dropped rather than parking the I/O thread.
            if (++spins > 2) return true;
            continue;
        }
        if (w == -EPIPE || w == -ESTRPIPE) {
            const Recovery r = recover(static_cast<int>(w));
            if (r == Recovery::lost) {
                fatal = true;
                return false;
            }
            if (r == Recovery::later) return false;
            continue;  // the stream is prepared again; keep writing the block
        }
        // Anything else but a vanished device is retried on the next wake-up; it ends in "lost"
        // only through the watchdog (no progress for BOOP_PLAYBACK_WATCHDOG_SECONDS).
        fatal = isDeviceGone(w);
        return false;
    }
    return true;
}

void AlsaPlayback::drainOut() {
    snd_pcm_state_t st = snd_pcm_state(pcm_);
    if (st == SND_PCM_STATE_PREPARED && framesWritten_.load() > 0) {
        snd_pcm_start(pcm_);
        st = snd_pcm_state(pcm_);
    }
    if (st != SND_PCM_STATE_RUNNING) return;
    const int64_t deadline = monotonicNs() + int64_t(double(buffer_) / rate_ * 1e9) + 250'000'000;
    const int periodMs = std::max(1, int(double(period_) / rate_ * 1000.0));
    while (monotonicNs() < deadline) {
        snd_pcm_sframes_t d = 0;
        if (snd_pcm_delay(pcm_, &d) < 0 || d <= 0) break;
        if (snd_pcm_state(pcm_) != SND_PCM_STATE_RUNNING) break;
        delay_.store(d, std::memory_order_release);
        poll(nullptr, 0, std::min(periodMs, 5));
    }
}

void AlsaPlayback::run() {
    DenormalGuard denormals;
    int64_t lastProgress = monotonicNs();
    recoveries_.reset();

    while (!stopRequested_.load(std::memory_order_acquire)) {
        const Step step = serviceDevice();
        if (step == Step::lost) return finish(BOOP_ERROR_DEVICE_LOST);
        const int64_t now = monotonicNs();
        if (step == Step::progressed) {
            const int64_t quiet = now - lastProgress;
            // Quiet for longer than the fill level lasts: the device stalled (a slow or stopped
            // server, a sink waking up) and has come back.
            if (quiet > std::max<int64_t>(int64_t(double(buffer_) / rate_ * 2e9), 50'000'000)) {
                stalls_.fetch_add(1, std::memory_order_relaxed);
                if (quiet > longestStallNs_.load(std::memory_order_relaxed))
                    longestStallNs_.store(quiet, std::memory_order_relaxed);
            }
            lastProgress = now;
        } else if (now - lastProgress > kWatchdogNs) {
            return finish(BOOP_ERROR_DEVICE_LOST);
        }
        if (!waitForDevice(step == Step::retry ? 10 : kPollTimeoutMs)) return finish(BOOP_ERROR_DEVICE_LOST);
    }

    if (drainRequested_.load()) drainOut();
    snd_pcm_drop(pcm_);
    finish(BOOP_OK);
}

// One wake-up's work: recover the stream if needed, top it up to the fill level, start it.
AlsaPlayback::Step AlsaPlayback::serviceDevice() {
    snd_pcm_state_t st = snd_pcm_state(pcm_);
    if (st == SND_PCM_STATE_DISCONNECTED) return Step::lost;
    if (st == SND_PCM_STATE_XRUN || st == SND_PCM_STATE_SUSPENDED) {
        const Recovery r = recover(st == SND_PCM_STATE_XRUN ? -EPIPE : -ESTRPIPE);
        return r == Recovery::lost ? Step::lost : Step::retry;
    }
    snd_pcm_sframes_t avail = snd_pcm_avail_update(pcm_);
    if (avail < 0) {
        if (avail == -EPIPE || avail == -ESTRPIPE) {
            const Recovery r = recover(static_cast<int>(avail));
            return r == Recovery::lost ? Step::lost : Step::retry;
        }
        return isDeviceGone(avail) ? Step::lost : Step::retry;
    }

    // Top the buffer up completely whenever woken (not only in whole periods): with a
    // 3-period buffer every frame of headroom counts against scheduling jitter.
    bool wrote = false;
    while (avail > 0 && !stopRequested_.load(std::memory_order_relaxed)) {
        const snd_pcm_uframes_t n = std::min<snd_pcm_uframes_t>(static_cast<snd_pcm_uframes_t>(avail), period_);
        bool fatal = false;
        if (!fillAndWrite(n, fatal)) {
            if (fatal) return Step::lost;
            break;
        }
        wrote = true;
        avail -= static_cast<snd_pcm_sframes_t>(n);
    }
    if (snd_pcm_state(pcm_) == SND_PCM_STATE_PREPARED && framesWritten_.load(std::memory_order_relaxed) > 0 &&
        static_cast<snd_pcm_uframes_t>(avail) < period_)
        snd_pcm_start(pcm_);

    snd_pcm_sframes_t d = 0;
    if (snd_pcm_delay(pcm_, &d) == 0) delay_.store(d, std::memory_order_release);
    return wrote ? Step::progressed : Step::idle;
}

// Waits for the device (or stop()); false when the device reports that it is gone.
bool AlsaPlayback::waitForDevice(int timeoutMs) {
    const int nPcm = static_cast<int>(pfds_.size()) - 1;
    const int r = poll(pfds_.data(), pfds_.size(), timeoutMs);
    if (r < 0) return errno == EINTR;
    if (pfds_.back().revents & POLLIN) {
        uint64_t v = 0;
        ssize_t ignored = read(wakeFd_, &v, sizeof v);
        (void)ignored;
    }
    if (r == 0) return true;
    unsigned short revents = 0;
    if (snd_pcm_poll_descriptors_revents(pcm_, pfds_.data(), static_cast<unsigned>(nPcm), &revents) < 0)
        return snd_pcm_state(pcm_) != SND_PCM_STATE_DISCONNECTED;
    if (revents & (POLLHUP | POLLNVAL)) return false;
    // POLLERR with an xrun/suspend state is recovered on the next service; anything else that
    // repeats ends with the watchdog.
    return snd_pcm_state(pcm_) != SND_PCM_STATE_DISCONNECTED;
}

}  // namespace boop
