#pragma once
#include <cstdint>
#include <type_traits>
#include "dsp/SimdTypes.hpp"
#include "rt/Realtime.hpp"

namespace boop {
namespace dsp {

// SplitMix64: turns a user seed (often small: 1, 2, 7 ...) into well-mixed state words, and
// derives independent per-unit streams so adding a draw in one unit never shifts another's.
inline std::uint64_t splitMix64(std::uint64_t& x) BOOP_RT {
    x += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// The one random number generator of the DSP units, with two named algorithms. Both are
// deterministic across platforms: only integer arithmetic, and the float conversions use exact
// power-of-two scaling. Never std::rand (global, unspecified).
//
// - xoshiro256** (Blackman & Vigna), the object itself: seeded per stream through SplitMix64,
//   for everything the ambient composition and its units draw.
// - xorshift32 (Marsaglia's 13, 17, 5 triple), the static xorshift32(): a 32-bit state the caller
//   keeps, for the drums' white noise. It is kept as the drums' algorithm because every drum hit
//   of every rendered file is made of its bits; one template serves one stream (uint32_t) and
//   eight side by side as vector lanes (simd::u8), the same steps.
struct Rng {
    std::uint64_t s[4] = {1, 2, 3, 4};

    Rng() = default;
    explicit Rng(std::uint64_t seed, std::uint64_t stream = 0) noexcept { seedWith(seed, stream); }

    void seedWith(std::uint64_t seed, std::uint64_t stream = 0) BOOP_RT {
        std::uint64_t x = seed ^ (stream * 0xD1B54A32D192ED03ull);
        for (auto& w : s) w = splitMix64(x);
        if ((s[0] | s[1] | s[2] | s[3]) == 0) s[0] = 1;  // the all-zero state is a fixed point
    }

    static std::uint64_t rotl(std::uint64_t x, int k) BOOP_RT { return (x << k) | (x >> (64 - k)); }

    std::uint64_t next() BOOP_RT {
        const std::uint64_t result = rotl(s[1] * 5, 7) * 9;
        const std::uint64_t t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = rotl(s[3], 45);
        return result;
    }

    // [0, 1) with 24 bits: exact in float.
    float uniform() BOOP_RT { return static_cast<float>(next() >> 40) * (1.0f / 16777216.0f); }
    // [-1, 1)
    float bipolar() BOOP_RT { return uniform() * 2.0f - 1.0f; }
    // [lo, hi)
    float range(float lo, float hi) BOOP_RT { return lo + (hi - lo) * uniform(); }
    // 0 ... n-1 (n >= 1); the multiply-shift keeps it unbiased enough for music and branch-free.
    std::uint32_t below(std::uint32_t n) BOOP_RT {
        return static_cast<std::uint32_t>(((next() >> 32) * static_cast<std::uint64_t>(n)) >> 32);
    }

    // One xorshift32 step of `state` (uint32_t, or simd::u8 for eight streams), returned as white
    // noise in [-1, 1): the new state read as a signed 32-bit integer, times 2^-31.
    template <class U>
    BOOP_SIMD_INLINE static auto xorshift32(U& state) noexcept {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        if constexpr (std::is_same_v<U, std::uint32_t>) {
            return static_cast<float>(static_cast<std::int32_t>(state)) * (1.0f / 2147483648.0f);
        } else {
            return __builtin_convertvector(reinterpret_cast<const simd::i8&>(state), simd::f8) * (1.0f / 2147483648.0f);
        }
    }
};

// Stream identifiers: one per consumer of randomness.
enum RngStream : std::uint64_t {
    kStreamHarmony = 1,
    kStreamLead = 2,
    kStreamGrain = 3,
    kStreamOcean = 4,
    kStreamDrift = 5,
    kStreamPad = 6,
};

}  // namespace dsp
}  // namespace boop
