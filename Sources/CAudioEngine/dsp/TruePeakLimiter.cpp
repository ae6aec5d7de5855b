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
    // A request made at detector index m concerns the input about TruePeak::kDelay samples before
    // m; it is fully applied lookahead_ - 1 samples later, centred in the hold window.
    latency_ = lookahead_ + 1 + TruePeak::kDelay;
    release_ = static_cast<float>(std::exp(-1.0 / (releaseSeconds * sampleRate)));
    gainStep_ = static_cast<float>(1.0 / (0.02 * sampleRate));
    for (auto& d : detectors_) d.prepare();
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
}

float TruePeakLimiter::takeMaxReductionDb() BOOP_RT {
    const float g = minGainSeen_;
    minGainSeen_ = 1.0f;
    return g < 1.0f ? 20.0f * std::log10(g) : 0.0f;
}

void TruePeakLimiter::process(float* io, std::uint32_t frames) BOOP_RT {
    const std::uint32_t slots = latency_;
    for (std::uint32_t i = 0; i < frames; ++i) {
        // The plain gain glides to its target, so a change made while playing does not click.
        if (inputGain_ != targetGain_) {
            const float d = targetGain_ - inputGain_;
            const float step = gainStep_ * std::fmax(std::fabs(targetGain_), 1e-3f);
            inputGain_ = std::fabs(d) <= step ? targetGain_ : inputGain_ + (d > 0 ? step : -step);
        }
        float peak = 0.0f;
        float* frame = io + static_cast<size_t>(i) * channels_;
        for (int c = 0; c < channels_; ++c) {
            const float x = frame[c] * inputGain_;
            frame[c] = x;
            const float p = detectors_[c].process(x);
            peak = p > peak ? p : peak;
        }
        const float request = peak > ceiling_ ? ceiling_ / peak : 1.0f;

        // Running minimum of the requests over the last hold_ samples.
        const std::uint64_t n = index_++;
        while (minSize_ > 0) {
            const std::uint32_t last = (minHead_ + minSize_ - 1) % hold_;
            if (minValue_[last] < request) break;
            --minSize_;
        }
        const std::uint32_t slot = (minHead_ + minSize_) % hold_;
        minValue_[slot] = request;
        minIndex_[slot] = n;
        ++minSize_;
        if (minIndex_[minHead_] + hold_ <= n) {
            minHead_ = (minHead_ + 1) % hold_;
            --minSize_;
        }
        const float held = minValue_[minHead_];

        // Moving average over lookahead_ samples: the attack ramp.
        avgSum_ += static_cast<double>(held) - static_cast<double>(avgRing_[avgAt_]);
        avgRing_[avgAt_] = held;
        avgAt_ = avgAt_ + 1 == lookahead_ ? 0 : avgAt_ + 1;
        float smooth = static_cast<float>(avgSum_ / lookahead_);
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

        // Swap the new input into the delay line and emit the oldest frame, gained.
        float* line = delay_.data() + static_cast<size_t>(delayAt_) * channels_;
        for (int c = 0; c < channels_; ++c) {
            const float oldest = line[c];
            line[c] = frame[c];
            // Exactly unity when not limiting, so a signal under the ceiling passes bit for bit.
            frame[c] = gain_ == 1.0f ? oldest : oldest * gain_;
        }
        delayAt_ = delayAt_ + 1 == slots ? 0 : delayAt_ + 1;
    }
}

}  // namespace boop
