#include "backend/alsa/AlsaCapture.hpp"

#include <poll.h>
#include <sys/eventfd.h>
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
// As for playback: only a long silence of the device (no data at all) means it is gone; a slow
// server (an idle null sink's monitor delivering late, a stopped server) is waited for.
constexpr int64_t kWatchdogNs = int64_t(BOOP_PLAYBACK_WATCHDOG_SECONDS) * 1'000'000'000;
}  // namespace

void convertToMono(const void* in, SampleFormat format, uint32_t channels, uint32_t frames, float* out) BOOP_RT {
    const float invCh = 1.0f / float(channels);
    switch (format) {
        case SampleFormat::Float: {
            const float* p = static_cast<const float*>(in);
            for (uint32_t i = 0; i < frames; ++i) {
                float sum = 0.0f;
                for (uint32_t c = 0; c < channels; ++c) sum += p[i * channels + c];
                float v = sum * invCh;
                out[i] = v > 1.0f ? 1.0f : (v < -1.0f ? -1.0f : (v == v ? v : 0.0f));
            }
            break;
        }
        case SampleFormat::S32: {
            const int32_t* p = static_cast<const int32_t*>(in);
            const double scale = 1.0 / (2147483648.0 * double(channels));
            for (uint32_t i = 0; i < frames; ++i) {
                int64_t sum = 0;
                for (uint32_t c = 0; c < channels; ++c) sum += p[i * channels + c];
                out[i] = static_cast<float>(double(sum) * scale);
            }
            break;
        }
        case SampleFormat::S16: {
            const int16_t* p = static_cast<const int16_t*>(in);
            const float scale = 1.0f / (32768.0f * float(channels));
            for (uint32_t i = 0; i < frames; ++i) {
                int32_t sum = 0;
                for (uint32_t c = 0; c < channels; ++c) sum += p[i * channels + c];
                out[i] = float(sum) * scale;
            }
            break;
        }
    }
}

AlsaCapture::~AlsaCapture() { stop(); }

boop_status AlsaCapture::open(const Config& config) {
    if (pcm_ != nullptr || stopped_) return BOOP_ERROR_ALREADY_RUNNING;
    if (config.device == nullptr || config.device[0] == '\0' ||
        !(config.sampleRate >= 8000 && config.sampleRate <= 384000) || config.channels < 1 || config.channels > 32 ||
        config.periodFrames < 16 || config.periodFrames > 65536 || config.periods < 2 || config.periods > 64 ||
        config.ringFrames < 1024 || config.ringFrames > (1u << 26))
        return BOOP_ERROR_INVALID_ARGUMENT;

    if (openPcmInheritingPriority(&pcm_, config.device, SND_PCM_STREAM_CAPTURE, config.realtimePriority) < 0)
        return BOOP_ERROR_DEVICE_UNAVAILABLE;

    auto fail = [this](boop_status s) {
        closePcm();
        return s;
    };
    snd_pcm_hw_params_t* hw = nullptr;
    snd_pcm_hw_params_alloca(&hw);
    snd_pcm_sw_params_t* sw = nullptr;
    snd_pcm_sw_params_alloca(&sw);

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
    format_ = chosen == SND_PCM_FORMAT_FLOAT_LE ? SampleFormat::Float
              : chosen == SND_PCM_FORMAT_S32_LE ? SampleFormat::S32
                                                : SampleFormat::S16;

    unsigned int channels = config.channels;
    if (snd_pcm_hw_params_set_channels_near(pcm_, hw, &channels) < 0) return fail(BOOP_ERROR_DEVICE_UNAVAILABLE);
    unsigned int rate = static_cast<unsigned int>(config.sampleRate + 0.5);
    if (snd_pcm_hw_params_set_rate_near(pcm_, hw, &rate, nullptr) < 0) return fail(BOOP_ERROR_DEVICE_UNAVAILABLE);
    snd_pcm_uframes_t period = config.periodFrames;
    if (snd_pcm_hw_params_set_period_size_near(pcm_, hw, &period, nullptr) < 0)
        return fail(BOOP_ERROR_DEVICE_UNAVAILABLE);
    snd_pcm_uframes_t buffer = period * config.periods;
    if (snd_pcm_hw_params_set_buffer_size_near(pcm_, hw, &buffer) < 0) return fail(BOOP_ERROR_DEVICE_UNAVAILABLE);
    if (snd_pcm_hw_params(pcm_, hw) < 0) return fail(BOOP_ERROR_DEVICE_UNAVAILABLE);
    snd_pcm_hw_params_get_channels(hw, &channels);
    snd_pcm_hw_params_get_rate(hw, &rate, nullptr);
    snd_pcm_hw_params_get_period_size(hw, &period, nullptr);
    snd_pcm_hw_params_get_buffer_size(hw, &buffer);
    if (period == 0 || channels == 0 || channels > 64) return fail(BOOP_ERROR_DEVICE_UNAVAILABLE);

    if (snd_pcm_sw_params_current(pcm_, sw) < 0) return fail(BOOP_ERROR_DEVICE_UNAVAILABLE);
    snd_pcm_sw_params_set_avail_min(pcm_, sw, period);
    snd_pcm_sw_params_set_start_threshold(pcm_, sw, 1);
    if (snd_pcm_sw_params(pcm_, sw) < 0) return fail(BOOP_ERROR_DEVICE_UNAVAILABLE);

    rate_ = rate;
    channels_ = channels;
    period_ = period;
    buffer_ = buffer;
    realtimePriority_ = config.realtimePriority;

    const int nfds = snd_pcm_poll_descriptors_count(pcm_);
    if (nfds <= 0) return fail(BOOP_ERROR_DEVICE_UNAVAILABLE);
    try {
        ring_.reset(new SampleRing(config.ringFrames));
        raw_.assign(period * channels * (format_ == SampleFormat::S16 ? 2 : 4), 0);
        mono_.assign(period, 0.0f);
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

boop_status AlsaCapture::start() {
    if (started_) return BOOP_ERROR_ALREADY_RUNNING;
    if (pcm_ == nullptr || stopped_) return BOOP_ERROR_NOT_RUNNING;
    stopRequested_.store(false);
    error_.store(BOOP_OK);
    running_.store(1);
    started_ = true;
    std::mutex m;
    std::condition_variable cv;
    bool ready = false;
    try {
        thread_ = std::thread([this, &m, &cv, &ready] {
            realtime_.store(makeCurrentThreadRealtime(realtimePriority_));
            {
                std::lock_guard<std::mutex> lock(m);
                ready = true;
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
    cv.wait(lock, [&ready] { return ready; });
    return BOOP_OK;
}

void AlsaCapture::stop() {
    if (started_) {
        stopRequested_.store(true, std::memory_order_release);
        if (wakeFd_ >= 0) {
            uint64_t one = 1;
            ssize_t ignored = write(wakeFd_, &one, sizeof one);
            (void)ignored;
        }
        if (thread_.joinable()) thread_.join();
        started_ = false;
        stopped_ = true;
    }
    closePcm();
}

void AlsaCapture::closePcm() {
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

std::size_t AlsaCapture::read(float* out, std::size_t maxFrames, uint64_t* firstFrame) noexcept {
    if (!ring_) {
        if (firstFrame != nullptr) *firstFrame = 0;
        return 0;
    }
    return ring_->read(out, maxFrames, firstFrame);
}

std::size_t AlsaCapture::wait(std::size_t minFrames, int timeoutMs) noexcept {
    if (!ring_) return 0;
    // About a period at a time: the reader is not real-time.
    const int stepMs = std::clamp(int(rate_ > 0 ? double(period_) / rate_ * 1000.0 : 5.0), 1, 20);
    return waitForFrames(*ring_, minFrames, timeoutMs, stepMs,
                         [this] { return running_.load(std::memory_order_acquire) != 0; });
}

boop_capture_info AlsaCapture::info() const {
    boop_capture_info i{};
    i.sample_rate = rate_;
    i.channels = channels_;
    i.period_frames = static_cast<uint32_t>(period_);
    i.buffer_frames = static_cast<uint32_t>(buffer_);
    i.format = format_ == SampleFormat::Float ? alsaFormatName(SND_PCM_FORMAT_FLOAT_LE)
               : format_ == SampleFormat::S32 ? alsaFormatName(SND_PCM_FORMAT_S32_LE)
                                              : alsaFormatName(SND_PCM_FORMAT_S16_LE);
    i.realtime_scheduling = realtime_.load() != BOOP_PRIORITY_NORMAL;
    return i;
}

boop_capture_stats AlsaCapture::stats() const {
    boop_capture_stats s{};
    s.frames_captured = captured_.load(std::memory_order_acquire);
    s.frames_dropped = dropped_.load(std::memory_order_relaxed);
    s.overruns = overruns_.load(std::memory_order_relaxed);
    s.suspends = suspends_.load(std::memory_order_relaxed);
    s.running = running_.load(std::memory_order_acquire);
    s.error = static_cast<boop_status>(error_.load(std::memory_order_acquire));
    return s;
}

void AlsaCapture::finish(boop_status error) {
    error_.store(error, std::memory_order_release);
    running_.store(0, std::memory_order_release);
}

// False when the device is to be treated as lost: the recovery failed, or errors came without end
// (past this second's budget the loop just waits for the next wake-up).
bool AlsaCapture::recover(int err) {
    if (!recoveries_.spend()) return !recoveries_.endless();
    if (err == -EPIPE) {
        overruns_.fetch_add(1, std::memory_order_relaxed);
    } else if (err == -ESTRPIPE) {
        suspends_.fetch_add(1, std::memory_order_relaxed);
        if (snd_pcm_resume(pcm_) == 0) return true;
    } else {
        return false;
    }
    if (snd_pcm_prepare(pcm_) < 0) return false;
    return snd_pcm_start(pcm_) == 0;
}

void AlsaCapture::run() {
    DenormalGuard denormals;
    const int nPcm = static_cast<int>(pfds_.size()) - 1;
    recoveries_.reset();
    if (snd_pcm_start(pcm_) < 0) return finish(BOOP_ERROR_DEVICE_LOST);
    int64_t lastProgress = monotonicNs();

    while (!stopRequested_.load(std::memory_order_acquire)) {
        snd_pcm_state_t st = snd_pcm_state(pcm_);
        if (st == SND_PCM_STATE_DISCONNECTED) return finish(BOOP_ERROR_DEVICE_LOST);
        if (st == SND_PCM_STATE_XRUN || st == SND_PCM_STATE_SUSPENDED) {
            if (!recover(st == SND_PCM_STATE_XRUN ? -EPIPE : -ESTRPIPE)) return finish(BOOP_ERROR_DEVICE_LOST);
            continue;
        }
        if (st == SND_PCM_STATE_PREPARED) snd_pcm_start(pcm_);

        snd_pcm_sframes_t avail = snd_pcm_avail_update(pcm_);
        if (avail < 0) {
            if (avail == -EPIPE || avail == -ESTRPIPE) {
                if (!recover(static_cast<int>(avail))) return finish(BOOP_ERROR_DEVICE_LOST);
            } else if (isDeviceGone(avail)) {
                return finish(BOOP_ERROR_DEVICE_LOST);
            }
            avail = 0;  // anything else is retried after the wait below; the watchdog ends it
        }
        while (avail > 0 && !stopRequested_.load(std::memory_order_relaxed)) {
            const snd_pcm_uframes_t want = std::min<snd_pcm_uframes_t>(static_cast<snd_pcm_uframes_t>(avail), period_);
            const snd_pcm_sframes_t got = snd_pcm_readi(pcm_, raw_.data(), want);
            if (got == -EAGAIN || got == 0) break;
            if (got < 0) {
                if (got == -EPIPE || got == -ESTRPIPE) {
                    if (!recover(static_cast<int>(got))) return finish(BOOP_ERROR_DEVICE_LOST);
                    break;
                }
                if (isDeviceGone(got)) return finish(BOOP_ERROR_DEVICE_LOST);
                break;
            }
            convertToMono(raw_.data(), format_, channels_, static_cast<uint32_t>(got), mono_.data());
            const std::size_t put = ring_->write(mono_.data(), static_cast<std::size_t>(got));
            captured_.fetch_add(put, std::memory_order_release);
            if (put < static_cast<std::size_t>(got))
                dropped_.fetch_add(static_cast<std::size_t>(got) - put, std::memory_order_relaxed);
            lastProgress = monotonicNs();
            avail -= got;
        }

        if (monotonicNs() - lastProgress > kWatchdogNs) return finish(BOOP_ERROR_DEVICE_LOST);

        const int r = poll(pfds_.data(), pfds_.size(), kPollTimeoutMs);
        if (r < 0 && errno != EINTR) return finish(BOOP_ERROR_DEVICE_LOST);
        if (pfds_.back().revents & POLLIN) {
            uint64_t v = 0;
            ssize_t ignored = ::read(wakeFd_, &v, sizeof v);
            (void)ignored;
        }
        if (r > 0) {
            unsigned short revents = 0;
            if (snd_pcm_poll_descriptors_revents(pcm_, pfds_.data(), static_cast<unsigned>(nPcm), &revents) < 0)
                return finish(BOOP_ERROR_DEVICE_LOST);
            if (revents & (POLLHUP | POLLNVAL)) return finish(BOOP_ERROR_DEVICE_LOST);
            if ((revents & POLLERR) && snd_pcm_state(pcm_) == SND_PCM_STATE_DISCONNECTED)
                return finish(BOOP_ERROR_DEVICE_LOST);
        }
    }
    snd_pcm_drop(pcm_);
    finish(BOOP_OK);
}

}  // namespace boop
