// Playback on a timer, no sound device (see TimerPlayback.hpp).
#include "backend/TimerPlayback.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

#include "backend/alsa/AlsaCommon.hpp"
#include "backend/alsa/AlsaSeqSchedule.hpp"
#include "rt/Denormals.hpp"

namespace boop {

TimerPlayback::Clock TimerPlayback::systemClock() noexcept {
    return Clock{[]() noexcept { return uint64_t(monotonicNs()); },
                 [](int stopFd, uint64_t ns) noexcept {
                     pollfd fd{stopFd, POLLIN, 0};
                     const timespec ts{time_t(ns / 1'000'000'000), long(ns % 1'000'000'000)};
                     ppoll(&fd, 1, &ts, nullptr);
                 }};
}

TimerPlayback::~TimerPlayback() { stop(false); }

boop_status TimerPlayback::open(const Config& config, double sampleRate, uint32_t channels) {
    if (!(sampleRate >= BOOP_ENGINE_RATE_MIN && sampleRate <= BOOP_ENGINE_RATE_MAX) || channels < 1 ||
        channels > BOOP_DEVICE_CHANNELS_MAX || config.periodFrames < BOOP_PERIOD_FRAMES_MIN ||
        config.periodFrames > BOOP_PERIOD_FRAMES_MAX || config.periods < BOOP_PERIODS_MIN ||
        config.periods > BOOP_PERIODS_MAX)
        return BOOP_ERROR_INVALID_ARGUMENT;
    rate_ = sampleRate;
    channels_ = channels;
    period_ = config.periodFrames;
    buffer_ = config.periodFrames * config.periods;
    realtimePriority_ = config.realtimePriority;
    try {
        scratch_.assign(std::size_t(period_) * channels_, 0.0f);
    } catch (...) {
        return BOOP_ERROR_OUT_OF_MEMORY;
    }
    wake_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    return wake_ < 0 ? BOOP_ERROR_INTERNAL : BOOP_OK;
}

// The last frame whose time (frameNs, rounded to the nearest ns) has come: the inverse of frameNs.
uint64_t TimerPlayback::heardFrame(uint64_t startNs, uint64_t nowNs, double rate) noexcept {
    if (nowNs <= startNs) return 0;
    const auto whole = static_cast<uint64_t>(rate);
    uint64_t f = double(whole) == rate
                     ? static_cast<uint64_t>(static_cast<unsigned __int128>(nowNs - startNs) * whole / 1'000'000'000u)
                     : static_cast<uint64_t>(std::floor(double(nowNs - startNs) * rate / 1e9));
    while (frameNs(startNs, f + 1, rate) <= nowNs) ++f;
    while (f > 0 && frameNs(startNs, f, rate) > nowNs) --f;
    return f;
}

uint64_t TimerPlayback::frameNs(uint64_t startNs, uint64_t frame, double rate) noexcept {
    return AlsaSeqSchedule::fixedFrameTimeNs(startNs, frame, rate);
}

boop_status TimerPlayback::start(boop_source source) {
    if (wake_ < 0) return BOOP_ERROR_NOT_RUNNING;
    if (io_.started()) return BOOP_ERROR_ALREADY_RUNNING;
    if (source.render == nullptr || source.channels != channels_ || source.max_block_frames == 0)
        return BOOP_ERROR_INVALID_ARGUMENT;
    source_ = source;
    if (startNs_ == 0) startNs_ = clock_.now();
    return io_.start(realtimePriority_, [this] { run(); });
}

void TimerPlayback::stop(bool) {
    if (io_.started()) {
        io_.requestStop();
        const uint64_t one = 1;
        [[maybe_unused]] const ssize_t w = write(wake_, &one, sizeof one);
        io_.join();
    }
    if (wake_ >= 0) close(wake_);
    wake_ = -1;
}

// Renders (and drops) up to `target` frames, a period at most per call of the source.
void TimerPlayback::renderUpTo(uint64_t target) {
    while (rendered_ < target) {
        const uint32_t n = uint32_t(std::min<uint64_t>({target - rendered_, period_, source_.max_block_frames}));
        if (source_.render(source_.context, scratch_.data(), n) != BOOP_OK) break;
        rendered_ += n;
    }
    framesWritten_.store(rendered_, std::memory_order_release);
}

// Every period: the frames heard by now plus the buffer are rendered, then the thread sleeps until
// the heard frame has moved on a period (or stop() writes the eventfd).
void TimerPlayback::run() {
    DenormalGuard denormals;
    while (!io_.stopRequested()) {
        const uint64_t now = clock_.now();
        const uint64_t heard = heardFrame(startNs_, now, rate_);
        renderUpTo(heard + buffer_);
        delay_.store(int64_t(rendered_) - int64_t(heard), std::memory_order_release);
        const uint64_t next = (rendered_ >= heard + buffer_ ? rendered_ - buffer_ : heard) + period_;
        const uint64_t due = frameNs(startNs_, next, rate_);
        clock_.wait(wake_, due > now ? due - now : 0);
    }
    io_.finish(BOOP_OK);
}

boop_playback_info TimerPlayback::info() const {
    return playbackInfo(rate_, channels_, period_, buffer_, buffer_, "none", io_.priority());
}

boop_playback_stats TimerPlayback::stats() const {
    boop_playback_stats s = threadStats<boop_playback_stats>(io_.running(), BOOP_OK, 0);
    s.frames_written = framesWritten_.load(std::memory_order_acquire);
    s.delay_frames = delay_.load(std::memory_order_acquire);
    s.latency_frames = buffer_;
    return s;
}

}  // namespace boop
