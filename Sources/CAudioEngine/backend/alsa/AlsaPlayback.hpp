#pragma once
// ALSA playback: one C++ I/O thread owns the PCM and pulls audio from a boop_source.
//
// The PCM is opened non-blocking and the I/O thread waits in poll() on the PCM's descriptors plus
// an eventfd, so stop() wakes it at once and a silent device (server frozen or gone) is noticed by
// a timeout instead of a hang. Everything the loop touches is allocated in open().
#include <alsa/asoundlib.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "backend/Backend.hpp"
#include "backend/IoThread.hpp"
#include "backend/alsa/AlsaPace.hpp"
#include "backend/alsa/AlsaPcm.hpp"
#include "engine/MidiArrival.hpp"
#include "include/CAudioEngine.h"
#include "rt/Realtime.hpp"

namespace boop {

class AlsaPlayback final : public PlaybackBackend {
  public:
    struct Config : PeriodSettings {
        Config() noexcept : PeriodSettings(BOOP_LIMIT_PLAYBACK_PERIOD_FRAMES, BOOP_LIMIT_PLAYBACK_PERIODS) {}
        const char* device = "default";
        bool adaptive = true;
    };

    AlsaPlayback() = default;
    ~AlsaPlayback() override;
    AlsaPlayback(const AlsaPlayback&) = delete;
    AlsaPlayback& operator=(const AlsaPlayback&) = delete;

    // Opens and configures the PCM. Allocates. Returns DEVICE_UNAVAILABLE or INVALID_ARGUMENT.
    boop_status open(const Config& config, double sampleRate, uint32_t channels);
    // After a failed open: why the device would not open or take the settings ("" if unknown).
    const char* openWhy() const noexcept { return openWhy_; }

    // Starts the I/O thread; returns once the thread has set its scheduling policy.
    boop_status start(boop_source source) override;

    // Stops the I/O thread (optionally letting the device play out what it holds) and closes the PCM.
    void stop(bool drain) override;

    boop_playback_info info() const override;
    int endedDescriptor() const noexcept override { return io_.endedDescriptor(); }
    boop_playback_stats stats() const override;

    // Before start: after each block the I/O thread reports to `line` how far the source has been
    // rendered and when (MIDI out on the sequencer schedules by it).
    void reportFramesTo(MidiArrivalClock* line) noexcept { line_ = line; }

  private:
    enum class Step { progressed, idle, retry, lost };

    void run();
    Step serviceDevice();
    const uint8_t* render(snd_pcm_uframes_t frames);
    bool fillAndWrite(snd_pcm_uframes_t frames, bool& fatal);
    AlsaPcm::Recovery recover(int err);
    bool noteXrun();
    boop_status configure(snd_pcm_uframes_t periodFrames, uint32_t periods);
    snd_pcm_uframes_t ceilingFrames() const;
    void drainOut();
    void keepRealTime();
    bool waitForDevice(int timeoutMs);

    AlsaPcm pcm_;
    const char* openWhy_ = "";
    double requestedRate_ = 0;
    uint32_t requestedChannels_ = 0;
    snd_pcm_uframes_t startPeriod_ = 0;  // as negotiated at open (adaptive buffering may grow them)
    snd_pcm_uframes_t startBuffer_ = 0;
    bool adaptive_ = true;
    int64_t lastXrunNs_ = 0;
    int realtimePriority_ = 0;

    boop_source source_{};
    MidiArrivalClock* line_ = nullptr;
    uint64_t rendered_ = 0;         // source frames rendered (the I/O thread's)
    RealTimePace pace_;             // the I/O thread's
    std::vector<float> floatBuf_;   // one period, interleaved
    std::vector<uint8_t> convBuf_;  // one period in the device format when it is not float

    IoThread io_;
    std::atomic<bool> drainRequested_{false};

    std::atomic<uint64_t> framesWritten_{0};
    std::atomic<int64_t> delay_{0};
    std::atomic<uint64_t> xruns_{0};
    std::atomic<uint64_t> stalls_{0};
    std::atomic<int64_t> longestStallNs_{0};
    std::atomic<uint32_t> latency_{0};
    std::atomic<uint32_t> growths_{0};
    std::atomic<uint64_t> resumes_{0};
};

}  // namespace boop
