#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include "dsp/Lowpass.hpp"
#include "rt/Realtime.hpp"

namespace boop {
namespace dsp {

// The K-weighting of ITU-R BS.1770-4: a high shelf (+4 dB above ~1.7 kHz, the head's effect) and
// a high-pass (~38 Hz, RLB), both as biquads designed for the actual sample rate (the standard
// lists coefficients for 48 kHz only; these formulas reproduce them there). Double precision: the
// high-pass sits at 38 Hz, where single precision biquads lose accuracy at high rates.
struct KWeighting {
    struct Biquad {
        double b0 = 1, b1 = 0, b2 = 0, a1 = 0, a2 = 0;
        double z1 = 0, z2 = 0;
        double process(double x) BOOP_RT { return biquadStep(*this, x, z1, z2); }
    };
    Biquad shelf, highpass;

    void prepare(double sampleRate) noexcept;
    void reset() noexcept { shelf.z1 = shelf.z2 = highpass.z1 = highpass.z2 = 0; }
    double process(double x) BOOP_RT { return highpass.process(shelf.process(x)); }
};

// Loudness after ITU-R BS.1770-4 / EBU R128 for mono or stereo: K-weighted mean square per
// channel, summed with weight 1 (left, right), in 400 ms blocks overlapping by 75 %. Integrated
// loudness gates blocks absolutely (-70 LUFS) and relatively (10 LU below the absolutely gated
// mean). Block energies go into a histogram of 0.01 LU bins from -70 to +10 LUFS holding each
// bin's exact energy sum, so memory stays fixed however long the meter runs and the integrated
// value is exact except for the blocks that share the relative gate's bin.
// prepare() allocates; add() is real-time safe.
class LoudnessMeter {
  public:
    static constexpr int kMaxChannels = 2;

    void prepare(double sampleRate, int channels);
    void reset() noexcept;
    // Interleaved frames.
    void add(const float* interleaved, std::uint64_t frames) BOOP_RT;

    // LUFS; -HUGE_VAL when no block passed the gates (silence, or shorter than 400 ms).
    double integrated() const noexcept;
    // The last full 400 ms block (momentary) and the last 3 s (short-term), LUFS.
    double momentary() const noexcept { return momentary_; }
    double shortTerm() const noexcept;
    std::uint64_t blocks() const noexcept { return blockCount_; }

    static double loudnessOf(double energy) BOOP_RT;  // -0.691 + 10 log10(energy)

  private:
    static constexpr double kMinLufs = -70.0, kMaxLufs = 10.0, kBinLu = 0.01;
    static constexpr int kShortTermSubblocks = 30;

    int channels_ = 1;
    std::uint32_t subblockFrames_ = 4800;  // 100 ms
    KWeighting filters_[kMaxChannels];
    double subSum_ = 0;  // energy of the 100 ms sub-block being filled
    std::uint32_t subFilled_ = 0;
    double recent_[kShortTermSubblocks] = {};  // the last sub-block energies (mean squares), ring
    int recentAt_ = 0;
    std::uint64_t subblocks_ = 0;
    std::uint64_t blockCount_ = 0;
    double momentary_ = -HUGE_VAL;
    std::vector<double> binEnergy_;
    std::vector<std::uint64_t> binCount_;
};

}  // namespace dsp
}  // namespace boop
