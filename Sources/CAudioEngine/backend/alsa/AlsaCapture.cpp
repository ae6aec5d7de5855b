#include "backend/alsa/AlsaCapture.hpp"

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "backend/alsa/AlsaCommon.hpp"
#include "rt/Denormals.hpp"

namespace boop {

namespace {
constexpr int kPollTimeoutMs = 100;
// As for playback: only a long silence of the device (no data at all) means it is gone; a slow
// server (an idle null sink's monitor delivering late) is waited for, and time during which the
// process was stopped does not count (RunningClock).
constexpr int64_t kWatchdogNs = int64_t(BOOP_PLAYBACK_WATCHDOG_SECONDS) * 1'000'000'000;

// The mean of the channels of integer frames, summed in `Sum` (wide enough for every channel) and
// scaled in `Scale`'s precision.
template <class Sample, class Sum, class Scale>
void mixIntegers(const void* in, uint32_t channels, uint32_t frames, Scale scale, float* out) BOOP_RT {
    const Sample* p = static_cast<const Sample*>(in);
    for (uint32_t i = 0; i < frames; ++i) {
        Sum sum = 0;
        for (uint32_t c = 0; c < channels; ++c) sum += p[i * channels + c];
        out[i] = static_cast<float>(static_cast<Scale>(sum) * scale);
    }
}
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
        case SampleFormat::S32:  // in double: a 32-bit sample has more bits than a float's mantissa
            mixIntegers<int32_t, int64_t>(in, channels, frames, 1.0 / (2147483648.0 * double(channels)), out);
            break;
        case SampleFormat::S16:
            mixIntegers<int16_t, int32_t>(in, channels, frames, 1.0f / (32768.0f * float(channels)), out);
            break;
    }
}

AlsaCapture::~AlsaCapture() { stop(); }

boop_status AlsaCapture::open(const Config& config) {
    if (pcm_.isOpen() || stopped_) return BOOP_ERROR_ALREADY_RUNNING;
    if (!AlsaPcm::validRequest(config.device, config.sampleRate, config.channels, config.periodFrames,
                               config.periods) ||
        config.ringFrames < 1024 || config.ringFrames > (1u << 26))
        return BOOP_ERROR_INVALID_ARGUMENT;

    AlsaPcm::Params params;
    params.rate = config.sampleRate;
    params.channels = config.channels;
    params.exactChannels = false;  // a stereo-only device is mixed down to mono anyway
    params.period = config.periodFrames;
    params.periods = config.periods;
    boop_status s = pcm_.openAndNegotiate(config.device, SND_PCM_STREAM_CAPTURE, config.realtimePriority, openWhy_,
                                          [&] { return pcm_.negotiate(params); });
    if (s != BOOP_OK) return s;
    auto fail = [this](boop_status status) {
        pcm_.close();
        return status;
    };
    realtimePriority_ = config.realtimePriority;
    try {
        ring_.reset(new SampleRing(config.ringFrames));
        raw_.assign(pcm_.period() * pcm_.channels() * bytesPerSample(pcm_.format()), 0);
        mono_.assign(pcm_.period(), 0.0f);
    } catch (...) {
        return fail(BOOP_ERROR_OUT_OF_MEMORY);
    }
    s = pcm_.fetchPollDescriptors(false);
    if (s != BOOP_OK) return fail(s);
    return BOOP_OK;
}

boop_status AlsaCapture::start() {
    if (io_.started()) return BOOP_ERROR_ALREADY_RUNNING;
    if (!pcm_.isOpen() || stopped_) return BOOP_ERROR_NOT_RUNNING;
    return io_.start(realtimePriority_, [this] { run(); });
}

void AlsaCapture::stop() {
    if (pcm_.stopAndClose(io_)) stopped_ = true;
}

boop_capture_info AlsaCapture::info() const {
    return streamInfo<boop_capture_info>(pcm_.rate(), pcm_.channels(), static_cast<uint32_t>(pcm_.period()),
                                         static_cast<uint32_t>(pcm_.buffer()), sampleFormatName(pcm_.format()),
                                         io_.realtimeScheduling());
}

boop_capture_stats AlsaCapture::stats() const {
    boop_capture_stats s = threadStats<boop_capture_stats>(io_.running(), io_.error(), pcm_.suspends());
    s.frames_captured = captured_.load(std::memory_order_acquire);
    s.frames_dropped = dropped_.load(std::memory_order_relaxed);
    s.overruns = overruns_.load(std::memory_order_relaxed);
    return s;
}

// False when the device is to be treated as lost: the recovery failed, or errors came without end
// (past this second's budget the loop just waits for the next wake-up).
bool AlsaCapture::recover(int err) {
    const auto r = pcm_.recover(err, true, [this] { overruns_.fetch_add(1, std::memory_order_relaxed); });
    return r != AlsaPcm::Recovery::lost;
}

// Waits for the device (or stop()); false when it is gone: it hung up, its events could not be
// read, or it reports an error while disconnected. A disconnection without an error is found by
// the state check at the top of the loop.
bool AlsaCapture::waitForDevice() {
    unsigned short revents = 0;
    switch (pcm_.waitForDevice(kPollTimeoutMs, revents)) {
        case AlsaPcm::Wait::quiet:
            return true;
        case AlsaPcm::Wait::failed:
        case AlsaPcm::Wait::unreadable:
            return false;
        case AlsaPcm::Wait::events:
            break;
    }
    if (revents & (POLLHUP | POLLNVAL)) return false;
    return !((revents & POLLERR) && snd_pcm_state(pcm_.handle()) == SND_PCM_STATE_DISCONNECTED);
}

bool AlsaCapture::drain(snd_pcm_sframes_t avail) {
    snd_pcm_t* pcm = pcm_.handle();
    while (avail > 0 && !io_.stopRequested(std::memory_order_relaxed)) {
        const snd_pcm_uframes_t want =
            std::min<snd_pcm_uframes_t>(static_cast<snd_pcm_uframes_t>(avail), pcm_.period());
        const snd_pcm_sframes_t got = snd_pcm_readi(pcm, raw_.data(), want);
        if (got == -EAGAIN || got == 0) break;
        if (got < 0) {
            if (got == -EPIPE || got == -ESTRPIPE) return recover(static_cast<int>(got));
            return !isDeviceGone(got);
        }
        convertToMono(raw_.data(), pcm_.format(), pcm_.channels(), static_cast<uint32_t>(got), mono_.data());
        const std::size_t put = ring_->write(mono_.data(), static_cast<std::size_t>(got));
        captured_.fetch_add(put, std::memory_order_release);
        if (put < static_cast<std::size_t>(got))
            dropped_.fetch_add(static_cast<std::size_t>(got) - put, std::memory_order_relaxed);
        avail -= got;
    }
    return true;
}

void AlsaCapture::run() {
    DenormalGuard denormals;
    snd_pcm_t* pcm = pcm_.handle();
    pcm_.resetRecoveryBudget();
    if (snd_pcm_start(pcm) < 0) return io_.finish(BOOP_ERROR_DEVICE_LOST);
    RunningClock clock;
    clock.reset();
    int64_t lastProgress = clock.now();

    while (!io_.stopRequested()) {
        snd_pcm_state_t st = snd_pcm_state(pcm);
        if (st == SND_PCM_STATE_DISCONNECTED) return io_.finish(BOOP_ERROR_DEVICE_LOST);
        if (st == SND_PCM_STATE_XRUN || st == SND_PCM_STATE_SUSPENDED) {
            if (!recover(st == SND_PCM_STATE_XRUN ? -EPIPE : -ESTRPIPE)) return io_.finish(BOOP_ERROR_DEVICE_LOST);
            continue;
        }
        if (st == SND_PCM_STATE_PREPARED) snd_pcm_start(pcm);

        snd_pcm_sframes_t avail = snd_pcm_avail_update(pcm);
        if (avail < 0) {
            if (avail == -EPIPE || avail == -ESTRPIPE) {
                if (!recover(static_cast<int>(avail))) return io_.finish(BOOP_ERROR_DEVICE_LOST);
            } else if (isDeviceGone(avail)) {
                return io_.finish(BOOP_ERROR_DEVICE_LOST);
            }
            avail = 0;  // anything else is retried after the wait below; the watchdog ends it
        }
        const uint64_t before = captured_.load(std::memory_order_relaxed) + dropped_.load(std::memory_order_relaxed);
        if (!drain(avail)) return io_.finish(BOOP_ERROR_DEVICE_LOST);
        const int64_t now = clock.now();
        // A stopped process finds its stream overrun: one recovery, not errors without end.
        if (clock.skippedNs() > 0) pcm_.resetRecoveryBudget();
        if (captured_.load(std::memory_order_relaxed) + dropped_.load(std::memory_order_relaxed) != before)
            lastProgress = now;

        if (now - lastProgress > kWatchdogNs) return io_.finish(BOOP_ERROR_DEVICE_LOST);
        if (!waitForDevice()) return io_.finish(BOOP_ERROR_DEVICE_LOST);
    }
    snd_pcm_drop(pcm);
    io_.finish(BOOP_OK);
}

}  // namespace boop
