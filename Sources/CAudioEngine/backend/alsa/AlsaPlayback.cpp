#include "backend/alsa/AlsaPlayback.hpp"

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "backend/alsa/AlsaCommon.hpp"
#include "backend/alsa/AlsaSamples.hpp"
#include "rt/Denormals.hpp"

namespace boop {

namespace {

constexpr int kPollTimeoutMs = 100;
// No progress from the device for this long means it is gone: a dead server can keep the PCM
// "running" without ever taking data. A slow one is survived: an idle PulseAudio sink takes up
// to 2 s to start a stream (and again after each underrun). Counted in the I/O thread's own
// running time (RunningClock): a process stopped for any time (SIGSTOP, a debugger) and continued
// recovers its stream (from an xrun, when the layer reports one) and plays on.
constexpr int64_t kWatchdogNs = int64_t(BOOP_PLAYBACK_WATCHDOG_SECONDS) * 1'000'000'000;
// Adaptive buffering grows the fill level when a second xrun follows the first within this time.
constexpr int64_t kXrunBurstNs = 10'000'000'000;
// A device may run this far (beyond its buffer) ahead of the system clock before it is paced:
// more than any real device's delay reporting errs by, so only a clockless one is.
constexpr double kPaceSlackSeconds = 0.1;

}  // namespace

AlsaPlayback::~AlsaPlayback() { stop(false); }

boop_status AlsaPlayback::open(const Config& config, double sampleRate, uint32_t channels) {
    if (pcm_.isOpen()) return BOOP_ERROR_ALREADY_RUNNING;
    if (!AlsaPcm::validRequest(config.device, sampleRate, channels, config.periodFrames, config.periods))
        return BOOP_ERROR_INVALID_ARGUMENT;

    requestedRate_ = sampleRate;
    requestedChannels_ = channels;
    const boop_status opened =
        pcm_.openAndNegotiate(config.device, SND_PCM_STREAM_PLAYBACK, config.realtimePriority, openWhy_,
                              [&] { return configure(config.periodFrames, config.periods); });
    if (opened != BOOP_OK) return opened;
    auto fail = [this](boop_status s) {
        pcm_.close();
        return s;
    };
    startPeriod_ = pcm_.period();
    startBuffer_ = pcm_.buffer();
    adaptive_ = config.adaptive;
    realtimePriority_ = config.realtimePriority;
    // Room for the largest period adaptive buffering may choose, so growing never allocates.
    const snd_pcm_uframes_t maxPeriod = std::max<snd_pcm_uframes_t>(pcm_.period(), ceilingFrames());
    try {
        floatBuf_.assign(maxPeriod * channels, 0.0f);
        convBuf_.assign(pcm_.format() == SampleFormat::Float ? 0 : maxPeriod * channels * bytesPerSample(pcm_.format()),
                        0);
    } catch (...) {
        return fail(BOOP_ERROR_OUT_OF_MEMORY);
    }
    const boop_status polled = pcm_.fetchPollDescriptors(true);
    // Playback reports any failure to set up its wait, the wake eventfd's included, as an
    // unavailable device.
    if (polled != BOOP_OK) return fail(polled == BOOP_ERROR_OUT_OF_MEMORY ? polled : BOOP_ERROR_DEVICE_UNAVAILABLE);
    return BOOP_OK;
}

snd_pcm_uframes_t AlsaPlayback::ceilingFrames() const {
    return static_cast<snd_pcm_uframes_t>(pcm_.rate() * BOOP_PLAYBACK_MAX_LATENCY_MS / 1000.0);
}

// Negotiates the PCM (the rate and format of the first negotiation are kept when the buffer is
// grown later, and a grown period must fit the render buffer), to start only once the whole
// buffer is primed; the loop also starts it explicitly when the buffer is not a whole number of
// periods.
boop_status AlsaPlayback::configure(snd_pcm_uframes_t periodFrames, uint32_t periods) {
    AlsaPcm::Params params;
    params.rate = pcm_.rate() != 0 ? pcm_.rate() : requestedRate_;
    params.channels = requestedChannels_;
    params.period = periodFrames;
    params.periods = periods;
    params.startWhenPrimed = true;
    params.maxPeriod = floatBuf_.size() / requestedChannels_;
    const boop_status s = pcm_.negotiate(params);
    if (s != BOOP_OK) return s;
    latency_.store(static_cast<uint32_t>(pcm_.buffer()), std::memory_order_relaxed);
    return BOOP_OK;
}

boop_status AlsaPlayback::start(boop_source source) {
    if (!pcm_.isOpen()) return BOOP_ERROR_NOT_RUNNING;
    if (io_.started()) return BOOP_ERROR_ALREADY_RUNNING;
    if (source.render == nullptr || source.channels != pcm_.channels() || source.max_block_frames == 0)
        return BOOP_ERROR_INVALID_ARGUMENT;
    source_ = source;
    drainRequested_.store(false);
    return io_.start(realtimePriority_, [this] { run(); });
}

void AlsaPlayback::stop(bool drain) {
    if (io_.started()) drainRequested_.store(drain);
    pcm_.stopAndClose(io_);
}

boop_playback_info AlsaPlayback::info() const {
    return playbackInfo(pcm_.rate(), pcm_.channels(), static_cast<uint32_t>(startPeriod_),
                        static_cast<uint32_t>(startBuffer_),
                        static_cast<uint32_t>(adaptive_ ? std::max(startBuffer_, ceilingFrames()) : startBuffer_),
                        sampleFormatName(pcm_.format()), io_.priority());
}

boop_playback_stats AlsaPlayback::stats() const {
    boop_playback_stats s = threadStats<boop_playback_stats>(io_.running(), io_.error(), pcm_.suspends());
    s.frames_written = framesWritten_.load(std::memory_order_acquire);
    s.delay_frames = delay_.load(std::memory_order_acquire);
    s.xruns = xruns_.load(std::memory_order_relaxed);
    s.stalls = stalls_.load(std::memory_order_relaxed);
    s.longest_stall_seconds = double(longestStallNs_.load(std::memory_order_relaxed)) * 1e-9;
    s.latency_frames = latency_.load(std::memory_order_relaxed);
    s.latency_growths = growths_.load(std::memory_order_relaxed);
    s.resumes = resumes_.load(std::memory_order_relaxed);
    return s;
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
    const uint32_t periods = static_cast<uint32_t>(pcm_.buffer() / pcm_.period());
    const snd_pcm_uframes_t period = pcm_.period() * 2;
    if (period * periods > std::max(ceilingFrames(), startBuffer_)) return false;
    snd_pcm_drop(pcm_.handle());
    snd_pcm_hw_free(pcm_.handle());
    if (configure(period, periods) != BOOP_OK || pcm_.fetchPollDescriptors(true) != BOOP_OK) return false;
    growths_.fetch_add(1, std::memory_order_relaxed);
    lastXrunNs_ = 0;  // the next growth needs a new burst
    return true;
}

// Counts and recovers an xrun (renegotiating a larger buffer first when that is due) or suspend.
AlsaPcm::Recovery AlsaPlayback::recover(int err) {
    // A recovery may drop frames the device never played; measure its pace afresh.
    pace_.forget();
    return pcm_.recover(err, false, [this] { noteXrun(); });
}

// Renders `frames` (≤ one period) and converts them to the device's format: what to write.
const uint8_t* AlsaPlayback::render(snd_pcm_uframes_t frames) {
    const uint32_t ch = pcm_.channels();
    uint32_t done = 0;
    while (done < frames) {
        const uint32_t n = std::min<uint32_t>(static_cast<uint32_t>(frames) - done, source_.max_block_frames);
        float* dst = floatBuf_.data() + static_cast<std::size_t>(done) * ch;
        if (source_.render(source_.context, dst, n) != BOOP_OK) std::fill(dst, dst + std::size_t(n) * ch, 0.0f);
        done += n;
    }
    rendered_ += frames;
    if (line_ != nullptr) line_->observe(uint64_t(monotonicNs()), rendered_);
    const std::size_t samples = std::size_t(frames) * ch;
    if (pcm_.format() == SampleFormat::S32) {
        convertFloatToS32(floatBuf_.data(), reinterpret_cast<int32_t*>(convBuf_.data()), samples);
        return convBuf_.data();
    }
    if (pcm_.format() == SampleFormat::S16) {
        convertFloatToS16(floatBuf_.data(), reinterpret_cast<int16_t*>(convBuf_.data()), samples);
        return convBuf_.data();
    }
    return reinterpret_cast<const uint8_t*>(floatBuf_.data());
}

// Renders `frames` (≤ one period), converts, writes. False with fatal=false means "try later".
bool AlsaPlayback::fillAndWrite(snd_pcm_uframes_t frames, bool& fatal) {
    fatal = false;
    const uint8_t* data = render(frames);
    const std::size_t bytesPerFrame = pcm_.channels() * bytesPerSample(pcm_.format());
    snd_pcm_uframes_t off = 0;
    int spins = 0;
    while (off < frames) {
        snd_pcm_sframes_t w = snd_pcm_writei(pcm_.handle(), data + off * bytesPerFrame, frames - off);
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
            const AlsaPcm::Recovery r = recover(static_cast<int>(w));
            if (r == AlsaPcm::Recovery::lost) {
                fatal = true;
                return false;
            }
            if (r == AlsaPcm::Recovery::later) return false;
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
    snd_pcm_t* pcm = pcm_.handle();
    snd_pcm_state_t st = snd_pcm_state(pcm);
    if (st == SND_PCM_STATE_PREPARED && framesWritten_.load() > 0) {
        snd_pcm_start(pcm);
        st = snd_pcm_state(pcm);
    }
    if (st != SND_PCM_STATE_RUNNING) return;
    const double rate = pcm_.rate();
    const int64_t deadline = monotonicNs() + int64_t(double(pcm_.buffer()) / rate * 1e9) + 250'000'000;
    const int periodMs = std::max(1, int(double(pcm_.period()) / rate * 1000.0));
    while (monotonicNs() < deadline) {
        snd_pcm_sframes_t d = 0;
        if (snd_pcm_delay(pcm, &d) < 0 || d <= 0) break;
        if (snd_pcm_state(pcm) != SND_PCM_STATE_RUNNING) break;
        delay_.store(d, std::memory_order_release);
        poll(nullptr, 0, std::min(periodMs, 5));
    }
}

void AlsaPlayback::run() {
    DenormalGuard denormals;
    RunningClock clock;
    clock.reset();
    int64_t lastProgress = clock.now();
    pcm_.resetRecoveryBudget();

    while (!io_.stopRequested()) {
        const Step step = serviceDevice();
        if (step == Step::lost) return io_.finish(BOOP_ERROR_DEVICE_LOST);
        const int64_t now = clock.now();
        if (clock.skippedNs() > 0) {
            // The process was stopped: the recoveries its stream needs now are one event, not a
            // device failing without end.
            pcm_.resetRecoveryBudget();
            resumes_.fetch_add(1, std::memory_order_relaxed);
        }
        if (step == Step::progressed) {
            const int64_t quiet = now - lastProgress;
            // Quiet for longer than the fill level lasts: the device stalled (a slow or stopped
            // server, a sink waking up) and has come back.
            if (quiet > std::max<int64_t>(int64_t(double(pcm_.buffer()) / pcm_.rate() * 2e9), 50'000'000)) {
                stalls_.fetch_add(1, std::memory_order_relaxed);
                if (quiet > longestStallNs_.load(std::memory_order_relaxed))
                    longestStallNs_.store(quiet, std::memory_order_relaxed);
            }
            lastProgress = now;
            keepRealTime();
        } else if (now - lastProgress > kWatchdogNs) {
            return io_.finish(BOOP_ERROR_DEVICE_LOST);
        }
        if (!waitForDevice(step == Step::retry ? 10 : kPollTimeoutMs)) return io_.finish(BOOP_ERROR_DEVICE_LOST);
    }

    if (drainRequested_.load()) drainOut();
    snd_pcm_drop(pcm_.handle());
    io_.finish(BOOP_OK);
}

// A device that has consumed more than real time allows (ALSA's null PCM takes every write at
// once and is always ready, so the wait below would return at once and the loop would render as
// fast as the CPU goes) is given nothing more until the system clock catches up. The pause ends
// early on stop(). A device with a clock of its own is never ahead and never waits here.
void AlsaPlayback::keepRealTime() {
    const int64_t delay = std::max<int64_t>(0, delay_.load(std::memory_order_relaxed));
    const int64_t consumed = int64_t(framesWritten_.load(std::memory_order_relaxed)) - delay;
    const double rate = pcm_.rate();
    const int64_t slack = int64_t(pcm_.buffer()) + int64_t(rate * kPaceSlackSeconds);
    pcm_.pause(pace_.waitNs(monotonicNs(), consumed, rate, slack));
}

// One wake-up's work: recover the stream if needed, top it up to the fill level, start it.
AlsaPlayback::Step AlsaPlayback::serviceDevice() {
    snd_pcm_t* pcm = pcm_.handle();
    snd_pcm_state_t st = snd_pcm_state(pcm);
    if (st == SND_PCM_STATE_DISCONNECTED) return Step::lost;
    if (st == SND_PCM_STATE_XRUN || st == SND_PCM_STATE_SUSPENDED) {
        const AlsaPcm::Recovery r = recover(st == SND_PCM_STATE_XRUN ? -EPIPE : -ESTRPIPE);
        return r == AlsaPcm::Recovery::lost ? Step::lost : Step::retry;
    }
    snd_pcm_sframes_t avail = snd_pcm_avail_update(pcm);
    if (avail < 0) {
        if (avail == -EPIPE || avail == -ESTRPIPE) {
            const AlsaPcm::Recovery r = recover(static_cast<int>(avail));
            return r == AlsaPcm::Recovery::lost ? Step::lost : Step::retry;
        }
        return isDeviceGone(avail) ? Step::lost : Step::retry;
    }

    // Top the buffer up completely whenever woken (not only in whole periods): with a
    // 3-period buffer every frame of headroom counts against scheduling jitter.
    bool wrote = false;
    while (avail > 0 && !io_.stopRequested(std::memory_order_relaxed)) {
        const snd_pcm_uframes_t n = std::min<snd_pcm_uframes_t>(static_cast<snd_pcm_uframes_t>(avail), pcm_.period());
        bool fatal = false;
        if (!fillAndWrite(n, fatal)) {
            if (fatal) return Step::lost;
            break;
        }
        wrote = true;
        avail -= static_cast<snd_pcm_sframes_t>(n);
    }
    if (snd_pcm_state(pcm) == SND_PCM_STATE_PREPARED && framesWritten_.load(std::memory_order_relaxed) > 0 &&
        static_cast<snd_pcm_uframes_t>(avail) < pcm_.period())
        snd_pcm_start(pcm);

    snd_pcm_sframes_t d = 0;
    if (snd_pcm_delay(pcm, &d) == 0) delay_.store(d, std::memory_order_release);
    return wrote ? Step::progressed : Step::idle;
}

// Waits for the device (or stop()); false when it reports that it is gone. POLLERR with an xrun or
// suspend state is recovered on the next service; anything else that repeats ends with the
// watchdog.
bool AlsaPlayback::waitForDevice(int timeoutMs) {
    unsigned short revents = 0;
    switch (pcm_.waitForDevice(timeoutMs, revents)) {
        case AlsaPcm::Wait::quiet:
            return true;
        case AlsaPcm::Wait::failed:
            return false;
        case AlsaPcm::Wait::events:
            if (revents & (POLLHUP | POLLNVAL)) return false;
            break;
        case AlsaPcm::Wait::unreadable:
            break;
    }
    return snd_pcm_state(pcm_.handle()) != SND_PCM_STATE_DISCONNECTED;
}

}  // namespace boop
