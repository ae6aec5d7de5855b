#pragma once
// Audio files through libsndfile (LGPL, the field's standard): WAV float/16-bit, FLAC and OGG by
// extension. Samples go to a temporary file beside the target, renamed into place on commit, so
// an interrupted or failed run never leaves a half-written file under the user's name.
#include <sndfile.h>

#include <cstdint>
#include <memory>
#include <string>

#include "include/CAudioEngine.h"

namespace boop {

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

  private:
    AudioFileWriter() = default;
    void setError(const char* message) noexcept;
    void startWriteback() noexcept;

    SNDFILE* file_ = nullptr;
    int fd_ = -1;
    // Bytes handed to the kernel for writing back so far (see startWriteback).
    off_t writebackStart_ = 0;
    std::string finalPath_;
    std::string tempPath_;
    uint64_t frames_ = 0;
    uint64_t maxFrames_ = UINT64_MAX;
    std::string error_;
};

}  // namespace boop
