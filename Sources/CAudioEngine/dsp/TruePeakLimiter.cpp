#include "dsp/TruePeakLimiter.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "dsp/OnePole.hpp"
#include "dsp/SimdTypes.hpp"

namespace boop {
namespace dsp {

namespace {

// Tap j of one phase, and the inputs j samples older than eight consecutive frames' newest: the
// accessors TruePeak::interpolate sums for eight frames at once.
struct OnePhase {
    const TruePeak::Phases* taps;
    int p;
    BOOP_SIMD_INLINE float operator()(int j) const noexcept { return taps[j][p]; }
};
struct NewestEight {
    const float* newest;
    BOOP_SIMD_INLINE simd::f8 operator()(int j) const noexcept {
        return *reinterpret_cast<const simd::f8u*>(newest - j);
    }
};

// The four interpolated points of eight consecutive frames, each phase summed as TruePeak::peak
// sums it (TruePeak::interpolate), so the baseline build gives its bits.
template <class Line>
__attribute__((always_inline)) inline void peaksOfEight(const Line* lin, int channels, std::uint32_t at,
                                                        const TruePeak::Phases* taps, float* peaks) noexcept {
    using simd::f8;
    constexpr int kTaps = TruePeak::kTaps;
    f8 peak = simd::splat(0.0f);
    for (int c = 0; c < channels; ++c) {
        // Frame at + k's window ends at line position at + k + kTaps - 1 (the newest input).
        const float* newest = lin[c] + at + kTaps - 1;
        for (int p = 0; p < TruePeak::kPhases; ++p) {
            const f8 y = TruePeak::interpolate<f8>(OnePhase{taps, p}, NewestEight{newest});
            peak = simd::max(peak, simd::abs(y));
        }
    }
    for (int k = 0; k < 8; ++k) peaks[k] = peak[k];
}

template <class Line>
void peaksBaseline(const Line* lin, int channels, std::uint32_t at, const TruePeak::Phases* taps,
                   float* peaks) BOOP_RT {
    peaksOfEight(lin, channels, at, taps, peaks);
}
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define BOOP_HAVE_AVX2_PEAKS 1
template <class Line>
__attribute__((target("avx2,fma"))) void peaksAvx2(const Line* lin, int channels, std::uint32_t at,
                                                   const TruePeak::Phases* taps, float* peaks) BOOP_RT {
    peaksOfEight(lin, channels, at, taps, peaks);
}
#endif

}  // namespace

TruePeakLimiter::PeakKernel TruePeakLimiter::choosePeakKernel() noexcept {
    using Line = float[kLine];
#if defined(BOOP_HAVE_AVX2_PEAKS)
    if (simd::useAvx2()) return peaksAvx2<Line>;
#endif
    return peaksBaseline<Line>;
}

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
    release_ = static_cast<float>(onePoleRetention(releaseSeconds, sampleRate));
    gainStep_ = static_cast<float>(1.0 / (0.02 * sampleRate));
    detector_.prepare();
    peakKernel_ = choosePeakKernel();
    // 0.1 % below the exact bound covers the rounding of the detector's float sums.
    quietLevel_ = ceiling_ / (detector_.maxGain * 1.001f);
    delay_.assign(static_cast<size_t>(latency_) * channels_, 0.0f);
    minValue_.assign(hold_, 1.0f);
    minIndex_.assign(hold_, 0);
    avgRing_.assign(lookahead_, 1.0f);
    reset();
}

void TruePeakLimiter::reset() noexcept {
    for (auto& line : lin_) std::fill(std::begin(line), std::end(line), 0.0f);
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

// Running minimum, moving average and release for one request; returns the gain to apply.
float TruePeakLimiter::applyRequest(float request) BOOP_RT {
    // Running minimum of the requests over the last hold_ samples. The request that leaves the
    // window goes before the new one comes in: requests rising for hold_ samples running (a loud
    // note decaying above the ceiling) fill all hold_ slots, and a push into a full ring wrote
    // over its oldest entry, kept the count at hold_ + 1 and then wrote past the ring's end on
    // the audio thread (heap corruption found by boop edit).
    const std::uint64_t n = index_++;
    if (minSize_ > 0 && minIndex_[minHead_] + hold_ <= n) {
        minHead_ = minHead_ + 1 == hold_ ? 0 : minHead_ + 1;
        --minSize_;
    }
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

// A run of frames that asks for nothing while the limiter is settled: the limiter only delays.
// The frames are swapped through the delay line; what applyRequest would have done is a no-op
// apart from the positions, which are advanced here.
void TruePeakLimiter::passRun(float* io, std::uint32_t frames) BOOP_RT {
    const int channels = channels_;
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

// The plain gain: a steady one scales the block in one pass; a change glides per frame, so a
// change made while playing does not click.
void TruePeakLimiter::applyInputGain(float* io, std::uint32_t frames) BOOP_RT {
    const size_t channels = static_cast<size_t>(channels_);
    if (inputGain_ == targetGain_) {
        if (inputGain_ != 1.0f)
            for (size_t k = 0; k < frames * channels; ++k) io[k] *= inputGain_;
        return;
    }
    for (std::uint32_t i = 0; i < frames; ++i) {
        const float d = targetGain_ - inputGain_;
        const float step = gainStep_ * std::fmax(std::fabs(targetGain_), 1e-3f);
        inputGain_ = std::fabs(d) <= step ? targetGain_ : inputGain_ + (d > 0 ? step : -step);
        for (size_t c = 0; c < channels; ++c) io[i * channels + c] *= inputGain_;
    }
}

// Each frame's request (ceiling / true peak, or 1). A frame whose whole detector window is under
// quietLevel_ cannot reach the ceiling; groups of eight frames with any other frame get the
// interpolation, eight frames per vector.
void TruePeakLimiter::computeRequests(const float* io, std::uint32_t frames) BOOP_RT {
    constexpr std::uint32_t kHistory = TruePeak::kTaps - 1;
    const int channels = channels_;
    if (channels == 1) {
        std::memcpy(lin_[0] + kHistory, io, frames * sizeof(float));
    } else if (channels == 2) {
        // Stereo split with constant strides, which the compiler vectorises (a copy either way).
        float* __restrict left = lin_[0] + kHistory;
        float* __restrict right = lin_[1] + kHistory;
        for (std::uint32_t i = 0; i < frames; ++i) {
            left[i] = io[2 * i];
            right[i] = io[2 * i + 1];
        }
    } else {
        for (int c = 0; c < channels; ++c)
            for (std::uint32_t i = 0; i < frames; ++i)
                lin_[c][kHistory + i] = io[static_cast<size_t>(i) * channels + c];
    }
    // Most blocks of most music: every sample quiet after a quiet window. One pass decides it.
    blockQuiet_ = false;
    if (quietRun_ >= TruePeak::kTaps) {
        int loud = 0;
        for (int c = 0; c < channels; ++c)
            for (std::uint32_t i = 0; i < frames; ++i) loud |= !(std::fabs(lin_[c][kHistory + i]) < quietLevel_);
        blockQuiet_ = loud == 0;
    }
    if (blockQuiet_) {
        for (int c = 0; c < channels; ++c) std::memmove(lin_[c], lin_[c] + frames, kHistory * sizeof(float));
        return;
    }
    for (std::uint32_t g = 0; g < frames; g += 8) {
        const std::uint32_t m = std::min<std::uint32_t>(8, frames - g);
        // The common case first: a quiet window stays quiet through a quiet group (a NaN is loud).
        bool quiet = true;
        for (int c = 0; c < channels; ++c)
            for (std::uint32_t k = 0; k < m; ++k) quiet &= std::fabs(lin_[c][kHistory + g + k]) < quietLevel_;
        if (quiet && quietRun_ >= TruePeak::kTaps) {
            for (std::uint32_t k = 0; k < m; ++k) requests_[g + k] = 1.0f;
            continue;
        }
        bool any = false;
        for (std::uint32_t k = 0; k < m; ++k) {
            bool loud = false;
            for (int c = 0; c < channels; ++c) loud |= !(std::fabs(lin_[c][kHistory + g + k]) < quietLevel_);
            quietRun_ = loud ? 0 : (quietRun_ < TruePeak::kTaps ? quietRun_ + 1 : quietRun_);
            any |= quietRun_ < TruePeak::kTaps;
        }
        if (!any) {
            for (std::uint32_t k = 0; k < m; ++k) requests_[g + k] = 1.0f;
            continue;
        }
        float peaks[8];
        peakKernel_(lin_, channels, g, detector_.taps, peaks);
        for (std::uint32_t k = 0; k < m; ++k) requests_[g + k] = peaks[k] > ceiling_ ? ceiling_ / peaks[k] : 1.0f;
    }
    for (int c = 0; c < channels; ++c) std::memmove(lin_[c], lin_[c] + frames, kHistory * sizeof(float));
}

void TruePeakLimiter::processBlock(float* io, std::uint32_t frames) BOOP_RT {
    applyInputGain(io, frames);
    computeRequests(io, frames);
    if (blockQuiet_ && settled()) return passRun(io, frames);
    if (blockQuiet_) std::fill(requests_, requests_ + frames, 1.0f);
    const std::uint32_t slots = latency_;
    for (std::uint32_t i = 0; i < frames;) {
        if (requests_[i] == 1.0f && settled()) {
            std::uint32_t j = i + 1;
            while (j < frames && requests_[j] == 1.0f) ++j;
            passRun(io + static_cast<size_t>(i) * channels_, j - i);
            i = j;
            continue;
        }
        const float gain = applyRequest(requests_[i]);
        // Swap the new input into the delay line and emit the oldest frame, gained.
        float* frame = io + static_cast<size_t>(i) * channels_;
        float* line = delay_.data() + static_cast<size_t>(delayAt_) * channels_;
        for (int c = 0; c < channels_; ++c) {
            const float oldest = line[c];
            line[c] = frame[c];
            // Exactly unity when not limiting, so a signal under the ceiling passes bit for bit.
            frame[c] = gain == 1.0f ? oldest : oldest * gain;
        }
        delayAt_ = delayAt_ + 1 == slots ? 0 : delayAt_ + 1;
        ++i;
    }
}

void TruePeakLimiter::process(float* io, std::uint32_t frames) BOOP_RT {
    for (std::uint32_t done = 0; done < frames;) {
        const std::uint32_t n = std::min(frames - done, kBlock);
        processBlock(io + static_cast<size_t>(done) * channels_, n);
        done += n;
    }
}

}  // namespace dsp
}  // namespace boop
