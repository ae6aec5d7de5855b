#pragma once
// A tuning as the engine sounds it: the frequency of each MIDI key, computed once from a Scala
// scale placed on the keyboard by a mapping (CAudioEngineKeys.h, "Tunings"). Reading it is a
// table look-up, so the audio thread may ask for any key.
#include <string>

#include "engine/ScalaFile.hpp"
#include "rt/Realtime.hpp"

namespace boop {

class Tuning {
  public:
    static constexpr int kKeys = 128;

    // Places `scale` by `mapping`; false with `why` when the mapping's reference key is unmapped.
    bool build(const scala::Scale& scale, const scala::Mapping& mapping, std::string& why);

    // 0 for an unmapped key or one outside 0 ... 127.
    double keyHz(int key) const BOOP_RT { return key >= 0 && key < kKeys ? hz_[key] : 0.0; }
    const std::string& description() const { return description_; }
    unsigned degreeCount() const { return degrees_; }

  private:
    double hz_[kKeys] = {};
    std::string description_;
    unsigned degrees_ = 0;
};

}  // namespace boop
