#include "dsp/TruePeakLimiter.hpp"

#include <algorithm>
#include <cmath>

namespace boop {

void TruePeakLimiter::prepare(double sampleRate, int channels, double ceilingDbtp, double lookaheadSeconds,
                              double releaseSeconds) {
    channels_ = std::clamp(channels, 1, kMaxChannels);
    // The detector reads 0.1 dB low at worst near the top of the band, and the gain may change a
    // little between neighbouring samples: aim 0.15 dB under the ceiling so the result is under it.
    ceiling_ = static_cast<float>(std::pow(10.0, (ceilingDbtp - 0.15) / 20.0));
    lookahead_ = std::max<std::uint32_t>(8, static_cast<std::uint32_t>(std::lround(lookaheadSeconds * sampleRate)));
    // The held request also covers two detector positions either side of the aligned one.
    hold_ = lookahead_ + 4;
    perLookahead_ = 1.0 / lookahead_;
    // A request made at detector index m concerns the input about TruePeak::kDelay samples before
    // m; it is fully applied lookahead_ - 1 samples later, centred in the hold window.
    latency_ = lookahead_ + 1 + TruePeak::kDelay;
    release_ = static_cast<float>(std::exp(-1.0 / (releaseSeconds * sampleRate)));
    gainStep_ = static_cast<float>(1.0 / (0.02 * sampleRate));
    for (auto& d : detectors_) d.prepare();
    // 0.1 % below the exact bound covers the rounding of the detector's float sums.
    quietLevel_ = ceiling_ / (detectors_[0].maxGain * 1.001f);
    delay_.assign(static_cast<size_t>(latency_) * channels_, 0.0f);
    minValue_.assign(hold_, 1.0f);
    minIndex_.assign(hold_, 0);
    avgRing_.assign(lookahead_, 1.0f);
    reset();
}

void TruePeakLimiter::reset() noexcept {
    for (auto& d : detectors_) d.reset();
    std::fill(delay_.begin(), delay_.end(), 0.0f);
    delayAt_ = 0;
    minHead_ = minSize_ = 0;
    index_ = 0;
    std::fill(avgRing_.begin(), avgRing_.end(), 1.0f);
    avgAt_ = 0;
    avgSum_ = static_cast<double>(lookahead_);
    gain_ = 1.0f;
    inputGain_ = targetGain_;
    minGainSeen_ = 1.0f;
    quietRun_ = TruePeak::kTaps;  // the detectors' history is all zeros
}

float TruePeakLimiter::takeMaxReductionDb() BOOP_RT {
    const float g = minGainSeen_;
    minGainSeen_ = 1.0f;
    return g < 1.0f ? 20.0f * std::log10(g) : 0.0f;
}

float TruePeakLimiter::detect(const float* frame) BOOP_RT {
    bool loud = false;
    for (int c = 0; c < channels_; ++c) {
        detectors_[c].push(frame[c]);
        loud |= !(std::fabs(frame[c]) < quietLevel_);  // NaN counts as loud
    }
    quietRun_ = loud ? 0 : (quietRun_ < TruePeak::kTaps ? quietRun_ + 1 : quietRun_);
    if (quietRun_ >= TruePeak::kTaps) return 1.0f;
    float peak = 0.0f;
    for (int c = 0; c < channels_; ++c) {
        const float p = detectors_[c].peak();
        peak = p > peak ? p : peak;
    }
    return peak > ceiling_ ? ceiling_ / peak : 1.0f;
}

// Running minimum, moving average and release for one request; returns the gain to apply.
float TruePeakLimiter::applyRequest(float request) BOOP_RT {
    // Running minimum of the requests over the last hold_ samples.
    const std::uint64_t n = index_++;
    while (minSize_ > 0) {
        std::uint32_t last = minHead_ + minSize_ - 1;
        last = last >= hold_ ? last - hold_ : last;
        if (minValue_[last] < request) break;
        --minSize_;
    }
    std::uint32_t slot = minHead_ + minSize_;
    slot = slot >= hold_ ? slot - hold_ : slot;
    minValue_[slot] = request;
    minIndex_[slot] = n;
    ++minSize_;
    if (minIndex_[minHead_] + hold_ <= n) {
        minHead_ = minHead_ + 1 == hold_ ? 0 : minHead_ + 1;
        --minSize_;
    }
    const float held = minValue_[minHead_];

    // Moving average over lookahead_ samples: the attack ramp.
    avgSum_ += static_cast<double>(held) - static_cast<double>(avgRing_[avgAt_]);
    avgRing_[avgAt_] = held;
    avgAt_ = avgAt_ + 1 == lookahead_ ? 0 : avgAt_ + 1;
    float smooth = static_cast<float>(avgSum_ * perLookahead_);
    if (avgAt_ == 0) {
        // Re-sum once per lap so rounding never accumulates.
        double s = 0;
        for (float v : avgRing_) s += v;
        avgSum_ = s;
    }
    smooth = smooth > 1.0f ? 1.0f : smooth;
    // Down at once (the ramp is already smooth), up with the release.
    gain_ = smooth < gain_ ? smooth : smooth - (smooth - gain_) * release_;
    minGainSeen_ = gain_ < minGainSeen_ ? gain_ : minGainSeen_;
    return gain_;
}

// A run of frames that asks for nothing: settled, quiet for a whole detector window already, and
// every frame of the run quiet too. The limiter then only delays: the gained frames are swapped
// through the delay line and the last window's worth fed to the detectors. What applyRequest
// would have done is a no-op apart from the positions, which are advanced here.
void TruePeakLimiter::passQuietRun(float* io, std::uint32_t frames) BOOP_RT {
    const int channels = channels_;
    const std::uint32_t first = frames > TruePeak::kTaps ? frames - TruePeak::kTaps : 0;
    for (std::uint32_t i = first; i < frames; ++i)
        for (int c = 0; c < channels; ++c) detectors_[c].push(io[static_cast<size_t>(i) * channels + c]);
    std::uint32_t done = 0;
    while (done < frames) {
        const std::uint32_t run = std::min(frames - done, latency_ - delayAt_);
        float* line = delay_.data() + static_cast<size_t>(delayAt_) * channels;
        std::swap_ranges(line, line + static_cast<size_t>(run) * channels, io + static_cast<size_t>(done) * channels);
        done += run;
        delayAt_ = delayAt_ + run == latency_ ? 0 : delayAt_ + run;
    }
    index_ += frames;
    minIndex_[minHead_] = index_ - 1;
    avgAt_ = static_cast<std::uint32_t>((avgAt_ + frames) % lookahead_);
}

// Frames from `from` on whose every sample is under quietLevel_ (at most `frames`). Eight
// frames' worth of samples at a time, branch-free inside, so the scan costs little per sample.
std::uint32_t TruePeakLimiter::quietFrames(const float* io, std::uint32_t from, std::uint32_t frames) const BOOP_RT {
    const size_t channels = static_cast<size_t>(channels_);
    size_t at = from * channels;
    const size_t end = static_cast<size_t>(frames) * channels;
    constexpr size_t kGroup = 8;
    while (at + kGroup <= end) {
        float loudest = 0.0f;
        for (size_t k = 0; k < kGroup; ++k) loudest = std::fmax(loudest, std::fabs(io[at + k]));
        if (!(loudest < quietLevel_)) break;
        at += kGroup;
    }
    while (at < end && std::fabs(io[at]) < quietLevel_) ++at;
    return static_cast<std::uint32_t>(at / channels) - from;
}

void TruePeakLimiter::process(float* io, std::uint32_t frames) BOOP_RT {
    const std::uint32_t slots = latency_;
    // A steady plain gain scales the block in one pass; a gliding one is stepped per frame below.
    const bool steady = inputGain_ == targetGain_;
    if (steady && inputGain_ != 1.0f)
        for (size_t k = 0; k < static_cast<size_t>(frames) * channels_; ++k) io[k] *= inputGain_;
    for (std::uint32_t i = 0; i < frames; ++i) {
        if (steady && quietRun_ >= TruePeak::kTaps && settled()) {
            const std::uint32_t run = quietFrames(io, i, frames);
            if (run > 0) {
                passQuietRun(io + static_cast<size_t>(i) * channels_, run);
                i += run - 1;
                continue;
            }
        }
        float* frame = io + static_cast<size_t>(i) * channels_;
        if (!steady) {
            // The plain gain glides to its target, so a change made while playing does not click.
            const float d = targetGain_ - inputGain_;
            const float step = gainStep_ * std::fmax(std::fabs(targetGain_), 1e-3f);
            inputGain_ = std::fabs(d) <= step ? targetGain_ : inputGain_ + (d > 0 ? step : -step);
            for (int c = 0; c < channels_; ++c) frame[c] *= inputGain_;
        }
        const float request = detect(frame);

        float gain = 1.0f;
        if (request == 1.0f && settled()) {
            // What applyRequest would do with nothing to limit, without the arithmetic: the
            // queue holds this one request, the average stays a sum of ones.
            minValue_[minHead_] = 1.0f;
            minIndex_[minHead_] = index_++;
            avgAt_ = avgAt_ + 1 == lookahead_ ? 0 : avgAt_ + 1;
        } else {
            gain = applyRequest(request);
        }

        // Swap the new input into the delay line and emit the oldest frame, gained.
        float* line = delay_.data() + static_cast<size_t>(delayAt_) * channels_;
        for (int c = 0; c < channels_; ++c) {
            const float oldest = line[c];
            line[c] = frame[c];
            // Exactly unity when not limiting, so a signal under the ceiling passes bit for bit.
            frame[c] = gain == 1.0f ? oldest : oldest * gain;
        }
        delayAt_ = delayAt_ + 1 == slots ? 0 : delayAt_ + 1;
    }
}

}  // namespace boop
