#pragma once
#include <cmath>
#include "rt/Realtime.hpp"

namespace boop::reference {

// The reference sine oscillator of the original design: phase accumulated in double, std::sin per sample.
// The engine's fast path (engine/VoiceBank.hpp) must agree with it; tests compare the two.
struct Oscillator {
    void prepare(double sampleRate) noexcept {
        sampleRate_ = sampleRate;
        setFrequency(frequency_);
    }
    void setFrequency(double hz) noexcept {
        frequency_ = hz;
        increment_ = hz / sampleRate_;  // in turns per sample
    }
    double frequency() const noexcept { return frequency_; }
    void reset() noexcept { phase_ = 0.0; }

    float process() BOOP_RT {
        const float out = static_cast<float>(std::sin(kTwoPi * phase_));
        phase_ += increment_;
        if (phase_ >= 1.0) phase_ -= 1.0;
        return out;
    }

  private:
    static constexpr double kTwoPi = 6.283185307179586476925286766559;
    double sampleRate_ = 44100.0;
    double frequency_ = 440.0;
    double increment_ = 440.0 / 44100.0;
    double phase_ = 0.0;
};

}  // namespace boop::reference
