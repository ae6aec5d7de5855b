#pragma once
// What ALSA's and JACK's captures share: the audio thread mixes the device's frames down to mono
// into a ring, and the one reader takes them from it (read) or sleeps about a period at a time
// until enough are there (wait: the audio thread never signals, so it stays free of system calls).
#include <algorithm>
#include <cstdint>
#include <memory>

#include "backend/Backend.hpp"
#include "rt/SampleRing.hpp"

namespace boop {

class RingCapture : public CaptureBackend {
  public:
    std::size_t read(float* out, std::size_t maxFrames, uint64_t* firstFrame) noexcept override {
        if (!ring_) {
            if (firstFrame != nullptr) *firstFrame = 0;
            return 0;
        }
        return ring_->read(out, maxFrames, firstFrame);
    }

    std::size_t wait(std::size_t minFrames, int timeoutMs) noexcept override {
        if (!ring_) return 0;
        const double period = periodSeconds();
        const int stepMs = std::clamp(int(period > 0 ? period * 1000.0 : 5.0), 1, 20);
        return waitForFrames(*ring_, minFrames, timeoutMs, stepMs, [this] { return filling(); });
    }

  protected:
    // Whether the audio thread still writes into the ring (a reader waits no longer once not).
    virtual bool filling() const noexcept = 0;
    // The device's period in seconds, 0 while it is not known.
    virtual double periodSeconds() const noexcept = 0;

    std::unique_ptr<SampleRing> ring_;
};

}  // namespace boop
