#pragma once
#include <atomic>
#include <cmath>
#include <cstdint>
#include <vector>

#include "include/CAudioEngine.h"
#include "rt/Realtime.hpp"

namespace boop {

// Plays one source and, on request, crossfades into another with equal-power gains (cos/sin),
// so two uncorrelated pieces at the same loudness keep that loudness through the fade. The
// control thread hands the next source over through an atomic sequence number; the audio thread
// picks it up at the start of a block and, when the fade is over, publishes that the old source
// is no longer rendered so its owner may free it.
class SourceCrossfader {
  public:
    // Allocates the mixing buffers for `first`'s block size. Control thread.
    explicit SourceCrossfader(const boop_source& first)
        : current_(first),
          channels_(first.channels),
          maxFrames_(first.max_block_frames),
          scratch_(static_cast<size_t>(first.max_block_frames) * first.channels) {}

    // Control thread. False while a fade is still running (one at a time).
    bool fadeTo(const boop_source& next, double seconds) noexcept {
        if (!idle()) return false;
        pending_ = next;
        pendingFrames_ = static_cast<std::uint64_t>(std::fmax(1.0, seconds * next.sample_rate));
        requested_.fetch_add(1, std::memory_order_release);
        return true;
    }

    // Any thread: true when no fade is pending or running (the previous source is free).
    bool idle() const noexcept {
        return retired_.load(std::memory_order_acquire) == requested_.load(std::memory_order_acquire);
    }

    // Audio thread. The sources' render functions are real-time safe where they are defined;
    // the calls through their pointers cannot be checked here.
    boop_status render(float* out, std::uint32_t frames) noexcept {
        const std::uint32_t seq = requested_.load(std::memory_order_acquire);
        if (seq != taken_ && !fading_) {
            taken_ = seq;
            incoming_ = pending_;
            fadeFrames_ = pendingFrames_;
            fadeAt_ = 0;
            fading_ = true;
        }
        const boop_status s = current_.render(current_.context, out, frames);
        if (s != BOOP_OK) return s;
        if (!fading_) return BOOP_OK;
        float* in = scratch_.data();
        if (frames > maxFrames_ || incoming_.render(incoming_.context, in, frames) != BOOP_OK) {
            for (size_t i = 0; i < static_cast<size_t>(frames) * channels_; ++i) in[i] = 0.0f;
        }
        const double quarter = 1.5707963267948966 / static_cast<double>(fadeFrames_);
        for (std::uint32_t i = 0; i < frames; ++i) {
            const double phase = static_cast<double>(fadeAt_ < fadeFrames_ ? fadeAt_ : fadeFrames_) * quarter;
            const auto gOut = static_cast<float>(std::cos(phase)), gIn = static_cast<float>(std::sin(phase));
            for (std::uint32_t c = 0; c < channels_; ++c) {
                float& o = out[static_cast<size_t>(i) * channels_ + c];
                o = o * gOut + in[static_cast<size_t>(i) * channels_ + c] * gIn;
            }
            if (fadeAt_ < fadeFrames_) ++fadeAt_;
        }
        if (fadeAt_ >= fadeFrames_) {
            current_ = incoming_;
            fading_ = false;
            retired_.store(taken_, std::memory_order_release);
        }
        return BOOP_OK;
    }

    std::uint32_t channels() const noexcept { return channels_; }
    std::uint32_t maxFrames() const noexcept { return maxFrames_; }
    double sampleRate() const noexcept { return current_.sample_rate; }

  private:
    boop_source current_;
    boop_source incoming_{};
    boop_source pending_{};  // written by the control thread before requested_ is bumped
    std::uint64_t pendingFrames_ = 1, fadeFrames_ = 1, fadeAt_ = 0;
    std::uint32_t channels_, maxFrames_;
    std::vector<float> scratch_;
    std::atomic<std::uint32_t> requested_{0}, retired_{0};
    std::uint32_t taken_ = 0;
    bool fading_ = false;
};

}  // namespace boop
