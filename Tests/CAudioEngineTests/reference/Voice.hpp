#pragma once
#include "AttackReleaseEnvelope.hpp"
#include "Oscillator.hpp"
#include "dsp/Lowpass.hpp"

namespace boop::reference {

// The original design's melody voice written plainly: sine -> linear envelope -> 2 kHz lowpass,
// times the velocity gain. This scalar form is the reference the vectorised VoiceBank is tested
// against; the engine itself renders through VoiceBank.
struct Voice {
    void prepare(double sampleRate) noexcept {
        oscillator.prepare(sampleRate);
        envelope.prepare(sampleRate);
        lowpass.prepare(sampleRate, 2000.0);
    }
    void noteOn(double frequencyHz, float velocityGain) noexcept {
        oscillator.setFrequency(frequencyHz);
        oscillator.reset();
        lowpass.reset();
        envelope.noteOn();
        gain = velocityGain;
    }
    void noteOff() noexcept { envelope.noteOff(); }
    void reset() noexcept {
        oscillator.reset();
        envelope.reset();
        lowpass.reset();
    }
    bool isActive() const noexcept { return envelope.isActive(); }

    float process() BOOP_RT {
        const float env = envelope.process();
        return lowpass.process(oscillator.process() * env * gain);
    }

    Oscillator oscillator;
    AttackReleaseEnvelope envelope;
    dsp::Lowpass lowpass;
    float gain = 0.6f;
};

}  // namespace boop::reference
