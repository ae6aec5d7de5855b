#include "backend/alsa/AlsaPcm.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>

namespace boop {

namespace {

snd_pcm_format_t alsaFormat(SampleFormat f) noexcept {
    switch (f) {
        case SampleFormat::Float:
            return SND_PCM_FORMAT_FLOAT_LE;
        case SampleFormat::S32:
            return SND_PCM_FORMAT_S32_LE;
        case SampleFormat::S16:
            break;
    }
    return SND_PCM_FORMAT_S16_LE;
}

}  // namespace

const char* sampleFormatName(SampleFormat f) noexcept { return alsaFormatName(alsaFormat(f)); }

bool AlsaPcm::validRequest(const char* device, double rate, uint32_t channels, uint32_t periodFrames,
                           uint32_t periods) noexcept {
    return device != nullptr && device[0] != '\0' && rate >= BOOP_ENGINE_RATE_MIN && rate <= BOOP_ENGINE_RATE_MAX &&
           channels >= 1 && channels <= BOOP_DEVICE_CHANNELS_MAX && periodFrames >= BOOP_PERIOD_FRAMES_MIN &&
           periodFrames <= BOOP_PERIOD_FRAMES_MAX && periods >= BOOP_PERIODS_MIN && periods <= BOOP_PERIODS_MAX;
}

boop_status AlsaPcm::open(const char* device, snd_pcm_stream_t stream, int realtimePriority) {
    if (pcm_ != nullptr) return BOOP_ERROR_ALREADY_RUNNING;
    const int err = openPcmInheritingPriority(&pcm_, device, stream, realtimePriority);
    if (err < 0) {
        pcm_ = nullptr;
        openError_ = snd_strerror(err);
        return BOOP_ERROR_DEVICE_UNAVAILABLE;
    }
    openError_ = "";
    negotiated_ = false;
    rate_ = 0;
    return BOOP_OK;
}

boop_status AlsaPcm::negotiate(const Params& p) {
    Granted g;
    boop_status s = setHardware(p, g);
    if (s != BOOP_OK) return s;
    if (negotiated_ && (g.rate != rate_ || (p.maxPeriod != 0 && g.period > p.maxPeriod)))
        return BOOP_ERROR_DEVICE_UNAVAILABLE;
    s = setSoftware(p.startWhenPrimed ? (g.buffer / g.period) * g.period : 1, g.period);
    if (s != BOOP_OK) return s;
    negotiated_ = true;
    format_ = g.format;
    rate_ = g.rate;
    channels_ = g.channels;
    period_ = g.period;
    buffer_ = g.buffer;
    return BOOP_OK;
}

// The first format of FLOAT_LE, S32_LE, S16_LE the device takes: float needs no conversion, and
// S32 keeps more of it than S16.
bool AlsaPcm::chooseFormat(snd_pcm_hw_params_t* hw, SampleFormat& format) {
    for (SampleFormat f : {SampleFormat::Float, SampleFormat::S32, SampleFormat::S16}) {
        if (snd_pcm_hw_params_test_format(pcm_, hw, alsaFormat(f)) == 0) {
            format = f;
            return true;
        }
    }
    return false;
}

boop_status AlsaPcm::setHardware(const Params& p, Granted& g) {
    snd_pcm_hw_params_t* hw = nullptr;
    snd_pcm_hw_params_alloca(&hw);
    if (snd_pcm_hw_params_any(pcm_, hw) < 0) return BOOP_ERROR_DEVICE_UNAVAILABLE;
    snd_pcm_hw_params_set_rate_resample(pcm_, hw, 1);
    if (snd_pcm_hw_params_set_access(pcm_, hw, SND_PCM_ACCESS_RW_INTERLEAVED) < 0) return BOOP_ERROR_DEVICE_UNAVAILABLE;
    g.format = format_;
    if (!negotiated_ && !chooseFormat(hw, g.format)) return BOOP_ERROR_DEVICE_UNAVAILABLE;
    if (snd_pcm_hw_params_set_format(pcm_, hw, alsaFormat(g.format)) < 0) return BOOP_ERROR_DEVICE_UNAVAILABLE;
    unsigned int channels = p.channels;
    const int channelsErr = p.exactChannels ? snd_pcm_hw_params_set_channels(pcm_, hw, channels)
                                            : snd_pcm_hw_params_set_channels_near(pcm_, hw, &channels);
    if (channelsErr < 0) return BOOP_ERROR_DEVICE_UNAVAILABLE;
    unsigned int rate = static_cast<unsigned int>(p.rate + 0.5);
    if (snd_pcm_hw_params_set_rate_near(pcm_, hw, &rate, nullptr) < 0) return BOOP_ERROR_DEVICE_UNAVAILABLE;
    snd_pcm_uframes_t period = p.period;
    if (snd_pcm_hw_params_set_period_size_near(pcm_, hw, &period, nullptr) < 0) return BOOP_ERROR_DEVICE_UNAVAILABLE;
    snd_pcm_uframes_t buffer = period * p.periods;
    if (snd_pcm_hw_params_set_buffer_size_near(pcm_, hw, &buffer) < 0) return BOOP_ERROR_DEVICE_UNAVAILABLE;
    if (snd_pcm_hw_params(pcm_, hw) < 0) return BOOP_ERROR_DEVICE_UNAVAILABLE;

    snd_pcm_hw_params_get_channels(hw, &g.channels);
    snd_pcm_hw_params_get_rate(hw, &g.rate, nullptr);
    snd_pcm_hw_params_get_period_size(hw, &g.period, nullptr);
    snd_pcm_hw_params_get_buffer_size(hw, &g.buffer);
    if (g.period == 0 || g.buffer < g.period || g.channels == 0 || g.channels > 64)
        return BOOP_ERROR_DEVICE_UNAVAILABLE;
    return BOOP_OK;
}

boop_status AlsaPcm::setSoftware(snd_pcm_uframes_t startThreshold, snd_pcm_uframes_t availMin) {
    snd_pcm_sw_params_t* sw = nullptr;
    snd_pcm_sw_params_alloca(&sw);
    if (snd_pcm_sw_params_current(pcm_, sw) < 0) return BOOP_ERROR_DEVICE_UNAVAILABLE;
    snd_pcm_sw_params_set_start_threshold(pcm_, sw, startThreshold);
    snd_pcm_sw_params_set_avail_min(pcm_, sw, availMin);
    if (snd_pcm_sw_params(pcm_, sw) < 0) return BOOP_ERROR_DEVICE_UNAVAILABLE;
    return BOOP_OK;
}

boop_status AlsaPcm::fetchPollDescriptors(bool renegotiable) {
    const int nfds = snd_pcm_poll_descriptors_count(pcm_);
    if (nfds <= 0 || (renegotiable && nfds > kMaxPollFds)) return BOOP_ERROR_DEVICE_UNAVAILABLE;
    const std::size_t needed = static_cast<std::size_t>(renegotiable ? kMaxPollFds : nfds) + 1;
    if (pfds_.capacity() < needed) {
        // Only at open: a renegotiation on the I/O thread finds the room reserved then.
        try {
            pfds_.reserve(needed);
        } catch (...) {
            return BOOP_ERROR_OUT_OF_MEMORY;
        }
    }
    pfds_.resize(static_cast<std::size_t>(nfds) + 1);
    if (snd_pcm_poll_descriptors(pcm_, pfds_.data(), static_cast<unsigned>(nfds)) != nfds)
        return BOOP_ERROR_DEVICE_UNAVAILABLE;
    if (wakeFd_ < 0) wakeFd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (wakeFd_ < 0) return BOOP_ERROR_INTERNAL;
    pfds_.back() = pollfd{wakeFd_, POLLIN, 0};
    return BOOP_OK;
}

void AlsaPcm::wake() noexcept {
    if (wakeFd_ < 0) return;
    uint64_t one = 1;
    ssize_t ignored = write(wakeFd_, &one, sizeof one);
    (void)ignored;
}

AlsaPcm::Wait AlsaPcm::waitForDevice(int timeoutMs, unsigned short& revents) {
    revents = 0;
    const int nPcm = static_cast<int>(pfds_.size()) - 1;
    const int r = poll(pfds_.data(), pfds_.size(), timeoutMs);
    if (r < 0) return errno == EINTR ? Wait::quiet : Wait::failed;
    if (pfds_.back().revents & POLLIN) {
        uint64_t v = 0;
        ssize_t ignored = read(wakeFd_, &v, sizeof v);
        (void)ignored;
    }
    if (r == 0) return Wait::quiet;
    if (snd_pcm_poll_descriptors_revents(pcm_, pfds_.data(), static_cast<unsigned>(nPcm), &revents) < 0)
        return Wait::unreadable;
    return Wait::events;
}

void AlsaPcm::pause(int64_t ns) {
    if (ns <= 0 || wakeFd_ < 0) return;
    pollfd wake{wakeFd_, POLLIN, 0};
    const timespec ts{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
    // The wake is left readable: the loop's next wait sees it too, and stop() is checked first.
    ppoll(&wake, 1, &ts, nullptr);
}

bool AlsaPcm::stopAndClose(IoThread& io) {
    const bool ran = io.started();
    if (ran) {
        io.requestStop();
        wake();
        io.join();
    }
    close();
    return ran;
}

void AlsaPcm::close() noexcept {
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

}  // namespace boop
