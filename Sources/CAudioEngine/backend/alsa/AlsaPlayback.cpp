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

#include "backend/alsa/AlsaCommon.hpp"
#include "rt/Denormals.hpp"

namespace boop {

namespace {

constexpr int kPollTimeoutMs = 100;
// No progress from the device for this long means it is gone (a frozen or dead server keeps
// the PCM "running" but never frees space). Well under the one second the contract allows.
constexpr int64_t kStallLimitNs = 700'000'000;
// Until the device has taken more than the primed buffer, allow for servers that start late
// (an idle PulseAudio null sink wakes only every 2 s).
constexpr int64_t kStartupStallLimitNs = 2'500'000'000;

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

    const int openErr = openPcmInheritingPriority(&pcm_, config.device, SND_PCM_STREAM_PLAYBACK,
                                                  config.realtimePriority);
    if (openErr < 0) {
        pcm_ = nullptr;
        return BOOP_ERROR_DEVICE_UNAVAILABLE;
    }

    snd_pcm_hw_params_t* hw = nullptr;
    snd_pcm_hw_params_alloca(&hw);
    snd_pcm_sw_params_t* sw = nullptr;
    snd_pcm_sw_params_alloca(&sw);

    auto fail = [this](boop_status s) {
        closePcm();
        return s;
    };

    if (snd_pcm_hw_params_any(pcm_, hw) < 0) return fail(BOOP_ERROR_DEVICE_UNAVAILABLE);
    snd_pcm_hw_params_set_rate_resample(pcm_, hw, 1);
    if (snd_pcm_hw_params_set_access(pcm_, hw, SND_PCM_ACCESS_RW_INTERLEAVED) < 0)
        return fail(BOOP_ERROR_DEVICE_UNAVAILABLE);

    const snd_pcm_format_t candidates[] = {SND_PCM_FORMAT_FLOAT_LE, SND_PCM_FORMAT_S32_LE, SND_PCM_FORMAT_S16_LE};
    snd_pcm_format_t chosen = SND_PCM_FORMAT_UNKNOWN;
    for (snd_pcm_format_t f : candidates) {
        if (snd_pcm_hw_params_test_format(pcm_, hw, f) == 0) {
            chosen = f;
            break;
        }
    }
    if (chosen == SND_PCM_FORMAT_UNKNOWN || snd_pcm_hw_params_set_format(pcm_, hw, chosen) < 0)
        return fail(BOOP_ERROR_DEVICE_UNAVAILABLE);
    format_ = chosen == SND_PCM_FORMAT_FLOAT_LE ? Format::Float : chosen == SND_PCM_FORMAT_S32_LE ? Format::S32 : Format::S16;

    if (snd_pcm_hw_params_set_channels(pcm_, hw, channels) < 0) return fail(BOOP_ERROR_DEVICE_UNAVAILABLE);

    unsigned int rate = static_cast<unsigned int>(sampleRate + 0.5);
    if (snd_pcm_hw_params_set_rate_near(pcm_, hw, &rate, nullptr) < 0) return fail(BOOP_ERROR_DEVICE_UNAVAILABLE);

    snd_pcm_uframes_t period = config.periodFrames;
    if (snd_pcm_hw_params_set_period_size_near(pcm_, hw, &period, nullptr) < 0)
        return fail(BOOP_ERROR_DEVICE_UNAVAILABLE);
    snd_pcm_uframes_t buffer = period * config.periods;
    if (snd_pcm_hw_params_set_buffer_size_near(pcm_, hw, &buffer) < 0) return fail(BOOP_ERROR_DEVICE_UNAVAILABLE);
    if (snd_pcm_hw_params(pcm_, hw) < 0) return fail(BOOP_ERROR_DEVICE_UNAVAILABLE);

    snd_pcm_hw_params_get_rate(hw, &rate, nullptr);
    snd_pcm_hw_params_get_period_size(hw, &period, nullptr);
    snd_pcm_hw_params_get_buffer_size(hw, &buffer);
    if (period == 0 || buffer < period) return fail(BOOP_ERROR_DEVICE_UNAVAILABLE);

    if (snd_pcm_sw_params_current(pcm_, sw) < 0) return fail(BOOP_ERROR_DEVICE_UNAVAILABLE);
    // Start only once the whole buffer is primed; the loop also starts explicitly when the
    // buffer is not a whole number of periods.
    snd_pcm_sw_params_set_start_threshold(pcm_, sw, (buffer / period) * period);
    snd_pcm_sw_params_set_avail_min(pcm_, sw, period);
    if (snd_pcm_sw_params(pcm_, sw) < 0) return fail(BOOP_ERROR_DEVICE_UNAVAILABLE);

    rate_ = rate;
    channels_ = channels;
    period_ = period;
    buffer_ = buffer;
    realtimePriority_ = config.realtimePriority;

    const int nfds = snd_pcm_poll_descriptors_count(pcm_);
    if (nfds <= 0) return fail(BOOP_ERROR_DEVICE_UNAVAILABLE);
    try {
        floatBuf_.assign(period * channels, 0.0f);
        convBuf_.assign(format_ == Format::Float ? 0 : period * channels * (format_ == Format::S32 ? 4 : 2), 0);
        pfds_.assign(static_cast<std::size_t>(nfds) + 1, pollfd{});
    } catch (...) {
        return fail(BOOP_ERROR_OUT_OF_MEMORY);
    }
    if (snd_pcm_poll_descriptors(pcm_, pfds_.data(), static_cast<unsigned>(nfds)) != nfds)
        return fail(BOOP_ERROR_DEVICE_UNAVAILABLE);
    wakeFd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (wakeFd_ < 0) return fail(BOOP_ERROR_INTERNAL);
    pfds_.back() = pollfd{wakeFd_, POLLIN, 0};
    return BOOP_OK;
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
            realtime_.store(makeCurrentThreadRealtime(realtimePriority_) ? 1 : 0);
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
    i.period_frames = static_cast<uint32_t>(period_);
    i.buffer_frames = static_cast<uint32_t>(buffer_);
    i.format = format_ == Format::Float ? alsaFormatName(SND_PCM_FORMAT_FLOAT_LE)
               : format_ == Format::S32 ? alsaFormatName(SND_PCM_FORMAT_S32_LE)
                                        : alsaFormatName(SND_PCM_FORMAT_S16_LE);
    i.realtime_scheduling = realtime_.load();
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
    return s;
}

void AlsaPlayback::finish(boop_status error) {
    error_.store(error, std::memory_order_release);
    running_.store(0, std::memory_order_release);
}

// Counts and recovers an xrun or suspend. False means the device is to be treated as lost.
bool AlsaPlayback::recover(int err) {
    if (!recoveries_.spend()) return false;

    if (err == -EPIPE) {
        xruns_.fetch_add(1, std::memory_order_relaxed);
        return snd_pcm_prepare(pcm_) == 0;
    }
    if (err == -ESTRPIPE) {
        suspends_.fetch_add(1, std::memory_order_relaxed);
        // snd_pcm_recover would sleep(1) in a loop while the device resumes; try once and fall
        // back to prepare so the I/O thread never parks for seconds.
        int r = snd_pcm_resume(pcm_);
        if (r == 0) return true;
        return snd_pcm_prepare(pcm_) == 0;
    }
    return false;
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
        snd_pcm_sframes_t w = snd_pcm_writei(pcm_, static_cast<const uint8_t*>(data) + off * bytesPerFrame, frames - off);
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
            if (!recover(static_cast<int>(w))) {
                fatal = true;
                return false;
            }
            continue;  // the stream is prepared again; keep writing the block
        }
        fatal = true;
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
    const int nPcm = static_cast<int>(pfds_.size()) - 1;
    int64_t lastProgress = monotonicNs();
    recoveries_.reset();

    while (!stopRequested_.load(std::memory_order_acquire)) {
        snd_pcm_state_t st = snd_pcm_state(pcm_);
        if (st == SND_PCM_STATE_DISCONNECTED) return finish(BOOP_ERROR_DEVICE_LOST);
        if (st == SND_PCM_STATE_XRUN || st == SND_PCM_STATE_SUSPENDED) {
            if (!recover(st == SND_PCM_STATE_XRUN ? -EPIPE : -ESTRPIPE)) return finish(BOOP_ERROR_DEVICE_LOST);
            continue;
        }

        snd_pcm_sframes_t avail = snd_pcm_avail_update(pcm_);
        if (avail < 0) {
            if (avail == -EPIPE || avail == -ESTRPIPE) {
                if (!recover(static_cast<int>(avail))) return finish(BOOP_ERROR_DEVICE_LOST);
                continue;
            }
            return finish(BOOP_ERROR_DEVICE_LOST);
        }

        // Top the buffer up completely whenever woken (not only in whole periods): with a
        // 3-period buffer every frame of headroom counts against scheduling jitter.
        bool wrote = false;
        while (avail > 0 && !stopRequested_.load(std::memory_order_relaxed)) {
            const snd_pcm_uframes_t n = std::min<snd_pcm_uframes_t>(static_cast<snd_pcm_uframes_t>(avail), period_);
            bool fatal = false;
            if (!fillAndWrite(n, fatal)) {
                if (fatal) return finish(BOOP_ERROR_DEVICE_LOST);
                break;
            }
            wrote = true;
            avail -= static_cast<snd_pcm_sframes_t>(n);
        }
        if (wrote) lastProgress = monotonicNs();

        if (snd_pcm_state(pcm_) == SND_PCM_STATE_PREPARED && framesWritten_.load(std::memory_order_relaxed) > 0 &&
            static_cast<snd_pcm_uframes_t>(avail) < period_)
            snd_pcm_start(pcm_);

        snd_pcm_sframes_t d = 0;
        if (snd_pcm_delay(pcm_, &d) == 0) delay_.store(d, std::memory_order_release);

        const bool started = framesWritten_.load(std::memory_order_relaxed) > buffer_;
        if (monotonicNs() - lastProgress > (started ? kStallLimitNs : kStartupStallLimitNs))
            return finish(BOOP_ERROR_DEVICE_LOST);

        int r = poll(pfds_.data(), pfds_.size(), kPollTimeoutMs);
        if (r < 0 && errno != EINTR) return finish(BOOP_ERROR_DEVICE_LOST);
        if (pfds_.back().revents & POLLIN) {
            uint64_t v = 0;
            ssize_t ignored = read(wakeFd_, &v, sizeof v);
            (void)ignored;
        }
        if (r > 0) {
            unsigned short revents = 0;
            if (snd_pcm_poll_descriptors_revents(pcm_, pfds_.data(), static_cast<unsigned>(nPcm), &revents) < 0)
                return finish(BOOP_ERROR_DEVICE_LOST);
            if (revents & (POLLERR | POLLHUP | POLLNVAL)) {
                st = snd_pcm_state(pcm_);
                if (st == SND_PCM_STATE_DISCONNECTED || (revents & (POLLHUP | POLLNVAL)))
                    return finish(BOOP_ERROR_DEVICE_LOST);
                // POLLERR with an xrun/suspend state is handled at the top of the loop; anything
                // else repeating is caught by the stall watchdog.
            }
        }
    }

    if (drainRequested_.load()) drainOut();
    snd_pcm_drop(pcm_);
    finish(BOOP_OK);
}

}  // namespace boop
