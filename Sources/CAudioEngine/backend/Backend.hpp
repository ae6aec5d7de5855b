#pragma once
// What the C API asks of a sound system, so a backend is one class per direction: ALSA
// (backend/alsa) and JACK (backend/jack) implement these, and capi/ holds whichever was opened.
// Opening differs per backend (each has its own Config, translated from the C config in capi/);
// everything after it is the same. These calls come from control threads only: the audio thread
// (an ALSA I/O thread, a JACK process callback) never goes through a virtual call.
#include <cstddef>
#include <cstdint>
#include <string>

#include "include/CAudioEngine.h"

namespace boop {

class PlaybackBackend {
  public:
    virtual ~PlaybackBackend() = default;
    // Starts pulling `source` on the backend's audio thread.
    virtual boop_status start(boop_source source) = 0;
    // Stops (optionally letting the device play what it holds) and closes.
    virtual void stop(bool drain) = 0;
    virtual boop_playback_info info() const = 0;
    virtual boop_playback_stats stats() const = 0;
    // The frames the caller delays the sound before the backend gets it (the output stage's
    // look-ahead), before start: a backend that reports latency to a server (JACK) includes them.
    virtual void setProcessingLatency(uint32_t frames) noexcept { (void)frames; }
    // A descriptor readable once the audio has stopped (the device lost, the server gone, or
    // stopped), for a control thread's poll(); -1 when there is none.
    virtual int endedDescriptor() const noexcept = 0;
};

class CaptureBackend {
  public:
    virtual ~CaptureBackend() = default;
    virtual boop_status start() = 0;
    virtual void stop() = 0;
    // The reader's side of the capture ring (one reader thread).
    virtual std::size_t read(float* out, std::size_t maxFrames, uint64_t* firstFrame) noexcept = 0;
    virtual std::size_t wait(std::size_t minFrames, int timeoutMs) noexcept = 0;
    virtual boop_capture_info info() const = 0;
    virtual boop_capture_stats stats() const = 0;
};

// What a playback's and a capture's info have in common (their C structs name the fields alike).
template <class Info>
Info streamInfo(double rate, uint32_t channels, uint32_t periodFrames, uint32_t bufferFrames, const char* format,
                bool realtimeScheduling) {
    Info i{};
    i.sample_rate = rate;
    i.channels = channels;
    i.period_frames = periodFrames;
    i.buffer_frames = bufferFrames;
    i.format = format;
    i.realtime_scheduling = realtimeScheduling ? 1 : 0;
    return i;
}
// A playback's info also names the frames the device holds and its audio thread's priority (the
// scheduling is real-time for any priority but NORMAL).
inline boop_playback_info playbackInfo(double rate, uint32_t channels, uint32_t periodFrames, uint32_t bufferFrames,
                                       uint32_t deviceBufferFrames, const char* format, boop_priority priority) {
    boop_playback_info i = streamInfo<boop_playback_info>(rate, channels, periodFrames, bufferFrames, format,
                                                          priority != BOOP_PRIORITY_NORMAL);
    i.device_buffer_frames = deviceBufferFrames;
    i.priority = priority;
    return i;
}

// What the statistics of a stream on its own I/O thread have in common: whether the thread runs,
// how it ended, and the device's suspends.
template <class Stats>
Stats threadStats(int running, boop_status error, uint64_t suspends) {
    Stats s{};
    s.running = running;
    s.error = error;
    s.suspends = suspends;
    return s;
}

// One entry of `boop devices`: an ALSA PCM, or a JACK port.
struct DeviceEntry {
    std::string name;
    std::string description;  // one line
    bool playback = false;
    bool capture = false;
};

}  // namespace boop
