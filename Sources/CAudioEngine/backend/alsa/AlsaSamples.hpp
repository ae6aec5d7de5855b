#pragma once
// Float samples to an integer device's format. What reaches a device has passed the output
// stage (engine/OutputChain), whose limiter keeps every sample within its ceiling, at most
// 0 dBTP: within [-1, 1]. So the conversion only scales, as it always did (truncating, 2^31 - 1
// and 32767 at full scale); it does not limit. A float the stage cannot hand over (NaN, beyond
// full scale: a fault upstream) becomes silence, where converting it would be undefined.
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "rt/Realtime.hpp"

namespace boop {

inline int32_t sampleToS32(float v) BOOP_RT {
    // double: 2^31 - 1 is not representable as float and would overflow at +1.0.
    return std::fabs(v) <= 1.0f ? static_cast<int32_t>(static_cast<double>(v) * 2147483647.0) : 0;
}

inline int16_t sampleToS16(float v) BOOP_RT {
    return std::fabs(v) <= 1.0f ? static_cast<int16_t>(v * 32767.0f) : int16_t{0};
}

inline void convertFloatToS32(const float* in, int32_t* out, std::size_t count) BOOP_RT {
    for (std::size_t i = 0; i < count; ++i) out[i] = sampleToS32(in[i]);
}

inline void convertFloatToS16(const float* in, int16_t* out, std::size_t count) BOOP_RT {
    for (std::size_t i = 0; i < count; ++i) out[i] = sampleToS16(in[i]);
}

}  // namespace boop
