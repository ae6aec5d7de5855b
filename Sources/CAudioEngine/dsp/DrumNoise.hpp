#pragma once
#include <cstdint>
#include <memory>

#include "dsp/DrumRecipe.hpp"
#include "rt/Realtime.hpp"

namespace boop {
namespace dsp {

// The drums' noise, filtered once instead of on every hit. Each drum kind's noise is white
// xorshift noise through that kind's lowpass (or the lowpass's complement), the same definition
// the reference DrumVoice (Tests/CAudioEngineTests/reference) computes sample by sample; here it is computed for a loop
// of about 1.5 s when the engine is prepared, and a hit reads it from a start chosen by its seed. The filter and the
// noise generator were half of a drum lane's work, and as recurrences they kept the vector kernel waiting; reading the
// table costs a load per eight frames.
//
// A hit's noise is heard for at most 0.96 s above -80 dB (the snare's; open hats 0.35 s at
// -30 dB, the cymbal's tail repeats 1.5 s later 18 dB down, under its own decay), so the loop
// never repeats within a hit's audible life except in the cymbal's faint tail. Each table is
// followed by a copy of its first eight values, so eight frames from any start read straight on.
class DrumNoiseTables {
  public:
    // Allocates and fills the tables (about 1.5 MB at 44.1 kHz); not for the audio thread.
    void prepare(double sampleRate);

    // The kind's table, or nullptr for a kind without noise (toms).
    const float* table(DrumRecipe::Kind kind) const noexcept { return tables_[static_cast<int>(kind)]; }
    uint32_t mask() const noexcept { return mask_; }
    // Where a hit with this seed starts reading (any frame of the loop).
    uint32_t start(uint32_t seed) const noexcept { return (seed * 2654435761u + 0x9e3779b9u) & mask_; }

  private:
    static constexpr int kKinds = 8;
    std::unique_ptr<float[]> storage_;
    const float* tables_[kKinds] = {};
    uint32_t mask_ = 0;
};

}  // namespace dsp
}  // namespace boop
