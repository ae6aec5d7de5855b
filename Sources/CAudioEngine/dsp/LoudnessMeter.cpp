#include "dsp/LoudnessMeter.hpp"

#include <algorithm>
#include <cmath>

namespace boop {
namespace dsp {

void KWeighting::prepare(double sampleRate) noexcept {
    const double pi = 3.14159265358979323846;
    {
        // Stage 1: the high shelf. Parameters fitted to BS.1770's 48 kHz coefficients.
        const double f0 = 1681.974450955533, gainDb = 3.999843853973347, q = 0.7071752369554196;
        const double k = std::tan(pi * f0 / sampleRate);
        const double vh = std::pow(10.0, gainDb / 20.0);
        const double vb = std::pow(vh, 0.4996667741545416);
        const double a0 = 1.0 + k / q + k * k;
        shelf.b0 = (vh + vb * k / q + k * k) / a0;
        shelf.b1 = 2.0 * (k * k - vh) / a0;
        shelf.b2 = (vh - vb * k / q + k * k) / a0;
        shelf.a1 = 2.0 * (k * k - 1.0) / a0;
        shelf.a2 = (1.0 - k / q + k * k) / a0;
    }
    {
        // Stage 2: the RLB high-pass.
        const double f0 = 38.13547087602444, q = 0.5003270373238773;
        const double k = std::tan(pi * f0 / sampleRate);
        const double a0 = 1.0 + k / q + k * k;
        highpass.b0 = 1.0;
        highpass.b1 = -2.0;
        highpass.b2 = 1.0;
        highpass.a1 = 2.0 * (k * k - 1.0) / a0;
        highpass.a2 = (1.0 - k / q + k * k) / a0;
    }
    reset();
}

double LoudnessMeter::loudnessOf(double energy) BOOP_RT {
    return energy > 0 ? -0.691 + 10.0 * std::log10(energy) : -HUGE_VAL;
}

void LoudnessMeter::prepare(double sampleRate, int channels) {
    channels_ = std::clamp(channels, 1, kMaxChannels);
    subblockFrames_ = static_cast<std::uint32_t>(std::lround(sampleRate * 0.1));
    for (auto& f : filters_) f.prepare(sampleRate);
    const auto bins = static_cast<size_t>((kMaxLufs - kMinLufs) / kBinLu) + 1;
    binEnergy_.assign(bins, 0.0);
    binCount_.assign(bins, 0);
    reset();
}

void LoudnessMeter::reset() noexcept {
    for (auto& f : filters_) f.reset();
    subSum_ = 0;
    subFilled_ = 0;
    std::fill(std::begin(recent_), std::end(recent_), 0.0);
    recentAt_ = 0;
    subblocks_ = 0;
    blockCount_ = 0;
    momentary_ = -HUGE_VAL;
    std::fill(binEnergy_.begin(), binEnergy_.end(), 0.0);
    std::fill(binCount_.begin(), binCount_.end(), 0);
}

void LoudnessMeter::add(const float* in, std::uint64_t frames) BOOP_RT {
    for (std::uint64_t i = 0; i < frames; ++i) {
        double e = 0;
        for (int c = 0; c < channels_; ++c) {
            const double y = filters_[c].process(in[i * channels_ + c]);
            e += y * y;  // every channel weighs 1 (left, right, centre)
        }
        subSum_ += e;
        if (++subFilled_ < subblockFrames_) continue;
        // A 100 ms sub-block is complete: the 400 ms block ending here is the mean of the last four.
        recent_[recentAt_] = subSum_ / subblockFrames_;
        recentAt_ = (recentAt_ + 1) % kShortTermSubblocks;
        subSum_ = 0;
        subFilled_ = 0;
        if (++subblocks_ < 4) continue;
        double block = 0;
        for (int k = 1; k <= 4; ++k) block += recent_[(recentAt_ - k + kShortTermSubblocks) % kShortTermSubblocks];
        block *= 0.25;
        ++blockCount_;
        momentary_ = loudnessOf(block);
        if (momentary_ < kMinLufs) continue;  // the absolute gate
        const double clamped = std::min(momentary_, kMaxLufs);
        const auto bin = static_cast<size_t>((clamped - kMinLufs) / kBinLu);
        binEnergy_[bin] += block;
        binCount_[bin] += 1;
    }
}

double LoudnessMeter::shortTerm() const noexcept {
    if (subblocks_ < kShortTermSubblocks) return -HUGE_VAL;
    double sum = 0;
    for (double e : recent_) sum += e;
    return loudnessOf(sum / kShortTermSubblocks);
}

double LoudnessMeter::integrated() const noexcept {
    double energy = 0;
    std::uint64_t count = 0;
    for (size_t b = 0; b < binCount_.size(); ++b) {
        energy += binEnergy_[b];
        count += binCount_[b];
    }
    if (count == 0) return -HUGE_VAL;
    const double relativeGate = loudnessOf(energy / static_cast<double>(count)) - 10.0;
    // Blocks strictly above the relative gate; a block's bin holds loudnesses [lo, lo + 0.01).
    energy = 0;
    count = 0;
    const auto first = static_cast<size_t>(std::max(0.0, std::floor((relativeGate - kMinLufs) / kBinLu)));
    for (size_t b = first; b < binCount_.size(); ++b) {
        energy += binEnergy_[b];
        count += binCount_[b];
    }
    return count == 0 ? -HUGE_VAL : loudnessOf(energy / static_cast<double>(count));
}

}  // namespace dsp
}  // namespace boop
