#include "engine/OutputStage.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace boop {

bool OutputStage::isValid(const boop_output_config& c) noexcept {
    return std::isfinite(c.gain_db) && c.gain_db >= BOOP_GAIN_DB_MIN && c.gain_db <= BOOP_GAIN_DB_MAX &&
           std::isfinite(c.ceiling_dbtp) && c.ceiling_dbtp >= BOOP_CEILING_DBTP_MIN &&
           c.ceiling_dbtp <= BOOP_CEILING_DBTP_MAX;
}

float OutputStage::linearGain(double gainDb) noexcept { return static_cast<float>(std::pow(10.0, gainDb / 20.0)); }

void OutputStage::prepare(double sampleRate, uint32_t channels, double ceilingDbtp) {
    sampleRate_ = sampleRate;
    channels_ = channels;
    limiter_.prepare(sampleRate, static_cast<int>(channels), ceilingDbtp);
    reduction_.store(0.0f, std::memory_order_relaxed);
    toSkip_ = limiter_.latency();
    clipLevel_ = static_cast<float>(std::pow(10.0, (ceilingDbtp - kClipHeadroomDb) / 20.0));
    undelivered_ = 0;
}

void OutputStage::process(float* io, uint32_t frames) BOOP_RT {
    if (direct_) {
        const float gain = gain_.load(std::memory_order_relaxed), level = clipLevel_;
        float reduction = 0.0f;
        for (uint32_t i = 0; i < frames * channels_; ++i) {
            const float x = io[i] * gain;
            io[i] = clip(x, level);
            if (std::fabs(x) > kClipKnee * level)
                reduction = std::min(reduction, 20.0f * std::log10(std::fabs(io[i]) / std::fabs(x)));
        }
        if (reduction < reduction_.load(std::memory_order_relaxed))
            reduction_.store(reduction, std::memory_order_relaxed);
        return;
    }
    // Before the first frame the limiter applies the gain at once (a render is scaled exactly).
    limiter_.setGain(gain_.load(std::memory_order_relaxed));
    limiter_.process(io, frames);
    const float r = limiter_.takeMaxReductionDb();
    if (r < reduction_.load(std::memory_order_relaxed)) reduction_.store(r, std::memory_order_relaxed);
}

uint32_t OutputStage::processAligned(float* io, uint32_t frames) BOOP_RT {
    process(io, frames);
    const uint32_t skip = toSkip_ < frames ? static_cast<uint32_t>(toSkip_) : frames;
    toSkip_ -= skip;
    const uint32_t aligned = frames - skip;
    // Only the first blocks move anything: the stage's silent pre-roll goes.
    if (skip > 0 && aligned > 0)
        std::memmove(io, io + static_cast<size_t>(skip) * channels_, sizeof(float) * aligned * channels_);
    undelivered_ += skip;
    return aligned;
}

uint32_t OutputStage::finish(float* out) BOOP_RT {
    if (undelivered_ == 0) return 0;
    // latency() frames of silence push out every input frame still held (and, for an input
    // shorter than the look-ahead, the rest of the pre-roll with it).
    const uint32_t n = latency();
    std::memset(out, 0, sizeof(float) * n * channels_);
    const uint32_t aligned = processAligned(out, n);
    undelivered_ = 0;
    return aligned;
}

}  // namespace boop
