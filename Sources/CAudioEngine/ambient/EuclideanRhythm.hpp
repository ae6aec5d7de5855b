#pragma once
#include <cstdint>
#include "rt/Realtime.hpp"

namespace boop::ambient {

// Euclidean rhythm E(k, n): k onsets spread as evenly as possible over n steps, built with
// Bjorklund's algorithm in Toussaint's sequence-pairing form (E(3,8) = x..x..x., E(5,8) =
// x.xx.xx.), then rotated. Groups are bit strings in a fixed array, so set() is real-time safe
// and the composer can change the pattern from the audio thread.
class EuclideanRhythm {
  public:
    static constexpr int kMaxSteps = 64;

    // pulses is clamped to 0 ... steps, steps to 1 ... 64; rotation shifts the pattern left
    // (step i plays what step i + rotation of the unrotated pattern plays).
    void set(int pulses, int steps, int rotation) BOOP_RT {
        if (steps < 1) steps = 1;
        if (steps > kMaxSteps) steps = kMaxSteps;
        if (pulses < 0) pulses = 0;
        if (pulses > steps) pulses = steps;
        steps_ = steps;
        pulses_ = pulses;
        rotation_ = ((rotation % steps) + steps) % steps;

        struct Group {
            std::uint64_t bits;
            int len;
        };
        Group a[kMaxSteps], b[kMaxSteps];
        int na = pulses, nb = steps - pulses;
        for (int i = 0; i < na; ++i) a[i] = {1u, 1};
        for (int i = 0; i < nb; ++i) b[i] = {0u, 1};
        // A single leftover zero is still paired once (E(3,4) = x.xx, as in Toussaint's table);
        // after that, pairing continues while more than one remainder group is left.
        bool first = nb == 1 && na > 1;
        while ((nb > 1 || first) && na > 0) {
            first = false;
            const int m = na < nb ? na : nb;
            Group na_[kMaxSteps], nb_[kMaxSteps];
            for (int i = 0; i < m; ++i) na_[i] = {a[i].bits | (b[i].bits << a[i].len), a[i].len + b[i].len};
            int rest = 0;
            if (na > nb)
                for (int i = m; i < na; ++i) nb_[rest++] = a[i];
            else
                for (int i = m; i < nb; ++i) nb_[rest++] = b[i];
            for (int i = 0; i < m; ++i) a[i] = na_[i];
            for (int i = 0; i < rest; ++i) b[i] = nb_[i];
            na = m;
            nb = rest;
        }
        std::uint64_t bits = 0;
        int len = 0;
        for (int i = 0; i < na; ++i) {
            bits |= a[i].bits << len;
            len += a[i].len;
        }
        for (int i = 0; i < nb; ++i) {
            bits |= b[i].bits << len;
            len += b[i].len;
        }
        pattern_ = bits;
    }

    bool onset(std::uint64_t step) const BOOP_RT {
        const int i =
            static_cast<int>((step + static_cast<std::uint64_t>(rotation_)) % static_cast<std::uint64_t>(steps_));
        return (pattern_ >> i) & 1u;
    }
    int steps() const BOOP_RT { return steps_; }
    int pulses() const BOOP_RT { return pulses_; }

  private:
    std::uint64_t pattern_ = 1;  // bit i = step i of the unrotated pattern
    int steps_ = 1, pulses_ = 1, rotation_ = 0;
};

}  // namespace boop::ambient
