#pragma once
// Audio files through libsndfile (LGPL, the field's standard): WAV float/16-bit, FLAC and OGG by
// extension. Samples go to an AtomicFile (a temporary file beside the target, renamed into place
// on commit), so an interrupted or failed run never leaves a half-written file under the user's
// name. A render is not synced before the rename (it can be made again); a recording is
// (setDurability, docs/DESIGN.md "Durability").
//
// The writing itself (libsndfile's conversion, the kernel's copy into the page cache, the
// filesystem's allocation) runs on a thread of the writer's own: write() copies the frames into
// one of two slabs and returns, so a render is not held up by the disk. For a pattern render that
// work was two fifths of the run. An error the thread meets is returned by the next write() or by
// commit(), which fails and removes the temporary file as before.
#include <sndfile.h>

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "include/CAudioEngine.h"
#include "io/AtomicFile.hpp"

namespace boop {

class OutputStage;

class AudioFileWriter {
  public:
    // INVALID_ARGUMENT for a name whose extension is no format (or a format the extension cannot
    // hold), CANNOT_CREATE when the temporary file cannot be made. expectedFrames (0: unknown)
    // chooses RF64 for a WAV that would pass 4 GiB.
    static boop_status open(const std::string& path, double sampleRate, uint32_t channels, boop_sample_format format,
                            uint64_t expectedFrames, std::unique_ptr<AudioFileWriter>& out);
    ~AudioFileWriter();
    AudioFileWriter(const AudioFileWriter&) = delete;
    AudioFileWriter& operator=(const AudioFileWriter&) = delete;

    boop_status write(const float* interleaved, uint64_t frames);
    // Flushes, closes and renames into place. On failure the temporary file is removed and
    // error() says why.
    boop_status commit();
    // Removes the temporary file; nothing appears under the target's name.
    void abort() noexcept;
    const std::string& error() const noexcept { return error_; }
    const std::string& path() const noexcept { return finalPath_; }
    void setDurability(boop_durability durability) noexcept { durability_ = durability; }
    // Every frame written passes through `stage` (processAligned) on the writing thread before
    // the file gets it, and commit() writes what its finish() delivers: a render's limiter runs
    // beside the synthesis instead of after it. Not owned; before the first write.
    void setOutput(OutputStage* stage) noexcept { output_ = stage; }
    uint64_t framesWritten() const noexcept { return frames_; }
    uint32_t channels() const noexcept { return channels_; }

  private:
    AudioFileWriter() = default;
    void setError(const char* message) noexcept;
    // The I/O thread's side.
    void ioLoop() noexcept;
    boop_status writeNow(const float* interleaved, uint64_t frames) noexcept;
    // A slab's frames through the output stage (when set) into the file; a failure's message.
    std::string writeSlab(int slab) noexcept;
    // Without the thread: the filling slab written by the caller.
    boop_status writeHere() noexcept;
    // The caller's side: hands the filling slab to the I/O thread and waits for the other one.
    boop_status handOff();
    // Stops the I/O thread after it has written what was handed to it (drain) or at once.
    void stopIo(bool drain) noexcept;
    boop_status ioStatus() noexcept;

    // Frames per slab: 1.5 s of stereo at 44.1 kHz (512 KiB), so the hand-offs are few and a slab
    // still sits in a core's cache while it is copied.
    static constexpr uint64_t kSlabFrames = 65536;
    std::unique_ptr<float[]> slabs_[2];
    uint64_t slabFrames_[2] = {0, 0};
    int filling_ = 0;  // the slab the caller copies into
    uint32_t channels_ = 0;
    std::thread io_;
    std::mutex mutex_;
    std::condition_variable wake_;
    // Guarded by mutex_.
    int queued_ = -1;   // a slab handed off and not yet taken by the I/O thread
    int writing_ = -1;  // the slab the I/O thread is writing
    bool stopping_ = false;
    boop_status ioStatus_ = BOOP_OK;
    std::string ioError_;

    SNDFILE* file_ = nullptr;
    AtomicFile out_;
    boop_durability durability_ = BOOP_DURABILITY_RENAME;
    std::string finalPath_;
    OutputStage* output_ = nullptr;
    uint64_t frames_ = 0;
    uint64_t maxFrames_ = UINT64_MAX;
    std::string error_;
};

}  // namespace boop
