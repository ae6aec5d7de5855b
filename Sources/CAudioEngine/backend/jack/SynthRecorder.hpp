#pragma once
// `boop synth --record FILE`: what the synth plays, to a file. Audio (WAV as 32-bit float, FLAC as
// 16-bit, OGG Vorbis) or a Standard MIDI File of the channel messages on their frames.
//
// The audio thread only pushes: the rendered frames into a lock-free ring, the messages into a
// lock-free queue. A writer thread of the recorder's own drains them into the file, which is an
// AtomicFile (a temporary beside the target, renamed on finish): an error or a run that never
// finishes leaves nothing half-written under the user's name.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "include/CAudioEngine.h"
#include "io/AudioFileWriter.hpp"
#include "rt/LockFreeQueue.hpp"
#include "rt/Realtime.hpp"
#include "rt/SampleRing.hpp"

namespace boop {

// One channel message on the server's frame clock.
struct MidiLogEntry {
    uint64_t frame = 0;
    uint8_t status = 0, data1 = 0, data2 = 0;
};

class SynthRecorder {
  public:
    static constexpr uint32_t kChannels = 2;
    // A Standard MIDI File's resolution: 960 ticks a quarter note at the file's 120 BPM, so a
    // tick is 1/1920 s (25 frames at 48 kHz): the events' times to within half of that.
    static constexpr int kTicksPerQuarter = 960;
    static constexpr double kTicksPerSecond = kTicksPerQuarter * 2.0;

    ~SynthRecorder();
    // Control thread, before the audio starts. INVALID_ARGUMENT for an extension that is no
    // format (.wav, .flac, .ogg, .mid), CANNOT_CREATE when the temporary file cannot be made;
    // `why` then says so in words.
    static boop_status open(const std::string& path, double sampleRate, std::unique_ptr<SynthRecorder>& out,
                            std::string& why);

    // Audio thread. Each cycle's start frame and length, before its frames: the first starts the
    // recording; a cycle the server ran without the synth (an xrun) is written as the silence it
    // was, so the file keeps the server's time line. Then the rendered frames (interleaved
    // stereo) and the messages applied.
    void cycle(uint64_t frame, uint32_t frames) BOOP_RT;
    void pushAudio(const float* interleaved, uint32_t frames) BOOP_RT;
    void pushEvent(const MidiLogEntry& entry) BOOP_RT;

    // Control thread, once the audio has stopped: drains what is left and renames the file into
    // place. On failure nothing appears under the name and error() says why.
    boop_status finish();
    const std::string& error() const noexcept { return error_; }
    // Frames or messages the writer could not keep up with (a full ring): the file has a gap.
    uint64_t dropped() const noexcept { return dropped_.load(std::memory_order_relaxed); }

  private:
    SynthRecorder() = default;
    void drainLoop() noexcept;
    bool drainOnce() noexcept;  // true when it moved anything
    boop_status writeMidiFile();

    bool midi_ = false;
    double rate_ = 48000.0;
    std::string path_;
    std::unique_ptr<AudioFileWriter> audio_;
    std::unique_ptr<SampleRing> ring_;
    std::unique_ptr<LockFreeQueue<MidiLogEntry>> events_;
    std::vector<float> chunk_;             // writer thread: what it read from the ring
    std::vector<MidiLogEntry> collected_;  // writer thread: every message so far
    std::thread writer_;
    std::atomic<bool> stopping_{false};
    std::atomic<bool> begun_{false};
    uint64_t nextFrame_ = 0;  // audio thread
    std::atomic<uint64_t> startFrame_{0};
    std::atomic<uint64_t> dropped_{0};
    boop_status writeStatus_ = BOOP_OK;  // writer thread until joined
    std::string error_;
    bool finished_ = false;
};

}  // namespace boop
