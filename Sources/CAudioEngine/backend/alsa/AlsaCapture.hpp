#pragma once
// ALSA capture: one C++ I/O thread owns the PCM, converts what it reads to mono float in [-1, 1]
// and pushes it into a lock-free single-producer/single-consumer ring; a reader (the Swift
// AudioStream's thread) drains the ring. Same non-blocking poll + wake eventfd design as
// AlsaPlayback, so stop() is prompt and a vanished device is noticed instead of hanging.
#include <alsa/asoundlib.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "backend/IoThread.hpp"
#include "backend/RingCapture.hpp"
#include "backend/alsa/AlsaPcm.hpp"
#include "include/CAudioEngine.h"
#include "rt/Realtime.hpp"
#include "rt/SampleRing.hpp"

namespace boop {

// Converts `frames` interleaved frames of `channels` channels in `format` to mono float in
// [-1, 1] (the mean of the channels). Integer scaling is by 2^15 / 2^31, so full scale maps to
// exactly -1 and never beyond +1.
void convertToMono(const void* in, SampleFormat format, uint32_t channels, uint32_t frames, float* out) BOOP_RT;

class AlsaCapture final : public RingCapture {
  public:
    struct Config : PeriodSettings {
        Config() noexcept : PeriodSettings(BOOP_LIMIT_CAPTURE_PERIOD_FRAMES, BOOP_LIMIT_CAPTURE_PERIODS) {}
        const char* device = "default";
        double sampleRate = boop_limit_get(BOOP_LIMIT_CAPTURE_RATE).default_value;
        uint32_t channels = 1;
        uint32_t ringFrames = 65536;
    };

    AlsaCapture() = default;
    ~AlsaCapture() override;
    AlsaCapture(const AlsaCapture&) = delete;
    AlsaCapture& operator=(const AlsaCapture&) = delete;

    boop_status open(const Config& config);
    // After a failed open: why the device would not open or take the settings ("" if unknown).
    const char* openWhy() const noexcept { return openWhy_; }
    boop_status start() override;
    void stop() override;

    boop_capture_info info() const override;
    boop_capture_stats stats() const override;

  private:
    bool filling() const noexcept override { return io_.running() != 0; }
    double periodSeconds() const noexcept override {
        return pcm_.rate() > 0 ? double(pcm_.period()) / pcm_.rate() : 0.0;
    }
    void run();
    // Reads what the device holds into the ring; false when the device is lost.
    bool drain(snd_pcm_sframes_t avail);
    bool waitForDevice();
    bool recover(int err);

    AlsaPcm pcm_;
    const char* openWhy_ = "";
    int realtimePriority_ = 0;

    std::vector<uint8_t> raw_;  // one period in the device format
    std::vector<float> mono_;   // one period, mono

    IoThread io_;
    bool stopped_ = false;

    std::atomic<uint64_t> captured_{0};
    std::atomic<uint64_t> dropped_{0};
    std::atomic<uint64_t> overruns_{0};
};

}  // namespace boop
