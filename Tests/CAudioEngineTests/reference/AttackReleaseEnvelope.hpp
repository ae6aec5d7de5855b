#pragma once
#include <algorithm>
#include "rt/Realtime.hpp"

namespace boop::reference {

// Linear attack to full level, hold while the note is down, then a linear release from the
// level reached. The melody voice uses attack 10 ms and release min(gate x 0.3, 0.15 s),
// where gate is how long the note was held — so the release is only known at note-off.
struct AttackReleaseEnvelope {
    enum class Stage { Idle, Attack, Sustain, Release };

    void prepare(double sampleRate) noexcept { sampleRate_ = sampleRate; }
    void setAttackSeconds(double s) noexcept { attackSeconds_ = s; }
    void setReleaseRule(double gateFraction, double maxSeconds) noexcept {
        releaseGateFraction_ = gateFraction;
        releaseMaxSeconds_ = maxSeconds;
    }

    static double releaseSecondsForGate(double gateSeconds, double fraction, double maxSeconds) noexcept {
        return std::min(gateSeconds * fraction, maxSeconds);
    }

    void noteOn() noexcept {
        stage_ = Stage::Attack;
        level_ = 0.0;
        heldSamples_ = 0;
        step_ = 1.0 / std::max(1.0, attackSeconds_ * sampleRate_);
    }
    void noteOff() noexcept {
        if (stage_ == Stage::Idle) return;
        const double gate = static_cast<double>(heldSamples_) / sampleRate_;
        const double release = releaseSecondsForGate(gate, releaseGateFraction_, releaseMaxSeconds_);
        stage_ = Stage::Release;
        step_ = -level_ / std::max(1.0, release * sampleRate_);
    }
    void reset() noexcept {
        stage_ = Stage::Idle;
        level_ = 0.0;
        step_ = 0.0;
        heldSamples_ = 0;
    }

    Stage stage() const noexcept { return stage_; }
    bool isActive() const noexcept { return stage_ != Stage::Idle; }
    double level() const noexcept { return level_; }

    // The level for this sample, then advance. The first sample after noteOn is 0.
    float process() BOOP_RT {
        const double out = level_;
        switch (stage_) {
            case Stage::Attack:
                ++heldSamples_;
                level_ += step_;
                if (level_ >= 1.0) {
                    level_ = 1.0;
                    stage_ = Stage::Sustain;
                }
                break;
            case Stage::Sustain:
                ++heldSamples_;
                break;
            case Stage::Release:
                level_ += step_;
                if (level_ <= 0.0) {
                    level_ = 0.0;
                    stage_ = Stage::Idle;
                }
                break;
            case Stage::Idle:
                break;
        }
        return static_cast<float>(out);
    }

  private:
    double sampleRate_ = 44100.0;
    double attackSeconds_ = 0.010;
    double releaseGateFraction_ = 0.3;
    double releaseMaxSeconds_ = 0.15;
    Stage stage_ = Stage::Idle;
    double level_ = 0.0;
    double step_ = 0.0;
    long long heldSamples_ = 0;
};

}  // namespace boop::reference
