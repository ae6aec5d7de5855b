#include "io/AudioFileWriter.hpp"

#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <system_error>

#include "engine/OutputStage.hpp"

namespace boop {

namespace {

bool endsWith(const std::string& s, const char* suffix) {
    const size_t n = std::strlen(suffix);
    if (s.size() < n) return false;
    for (size_t i = 0; i < n; ++i)
        if (std::tolower(static_cast<unsigned char>(s[s.size() - n + i])) != suffix[i]) return false;
    return true;
}

int formatFor(const std::string& path, boop_sample_format format, bool rf64) {
    if (endsWith(path, ".wav"))
        return (rf64 ? SF_FORMAT_RF64 : SF_FORMAT_WAV) |
               (format == BOOP_SAMPLE_INT16 ? SF_FORMAT_PCM_16 : SF_FORMAT_FLOAT);
    if (endsWith(path, ".flac")) return format == BOOP_SAMPLE_INT16 ? (SF_FORMAT_FLAC | SF_FORMAT_PCM_16) : 0;
    if (endsWith(path, ".ogg")) return SF_FORMAT_OGG | SF_FORMAT_VORBIS;
    return 0;
}

/// RIFF sizes are 32-bit: past 4 GiB a WAV's sizes wrap and readers see garbage. A render that
/// says how long it will be gets RF64 (the 64-bit WAV of EBU Tech 3306, which libsndfile writes
/// and sox, ffmpeg and libsndfile read) when it would not fit; an ordinary WAV otherwise, for the
/// widest compatibility. A writer of unknown length (a recording) stops with an error at the
/// limit rather than write a corrupt file. 64 KiB are left for the header.
uint64_t wavFrameLimit(uint32_t channels, boop_sample_format format) {
    const uint64_t bytesPerFrame = static_cast<uint64_t>(channels) * (format == BOOP_SAMPLE_INT16 ? 2u : 4u);
    return (UINT64_C(0xFFFFFFFF) - 65536) / bytesPerFrame;
}

}  // namespace

boop_status AudioFileWriter::open(const std::string& path, double sampleRate, uint32_t channels,
                                  boop_sample_format format, uint64_t expectedFrames,
                                  std::unique_ptr<AudioFileWriter>& out) {
    std::unique_ptr<AudioFileWriter> w(new AudioFileWriter());
    w->finalPath_ = path;
    SF_INFO info{};
    info.samplerate = static_cast<int>(sampleRate + 0.5);
    info.channels = static_cast<int>(channels);
    const bool rf64 = expectedFrames > wavFrameLimit(channels, format);
    info.format = formatFor(path, format, rf64);
    if (info.format == 0 || !sf_format_check(&info)) return BOOP_ERROR_INVALID_ARGUMENT;
    // A link at the path is followed: the file it names is replaced and the link stays, as a
    // program writing the file in place would leave it.
    if (w->out_.open(path, BOOP_ATOMIC_FOLLOW_LINKS) != BOOP_OK) return BOOP_ERROR_CANNOT_CREATE;
    // The atomic file keeps the descriptor (libsndfile does not close it): it is renamed, and
    // synced first when asked, after libsndfile's close has written the final header.
    w->file_ = sf_open_fd(w->out_.fd(), SFM_WRITE, &info, SF_FALSE);
    if (w->file_ == nullptr) {
        w->out_.abort();
        return BOOP_ERROR_CANNOT_CREATE;
    }
    if ((info.format & SF_FORMAT_TYPEMASK) == SF_FORMAT_WAV) w->maxFrames_ = wavFrameLimit(channels, format);
    // Normalised float in, clipped on integer conversion rather than wrapped.
    sf_command(w->file_, SFC_SET_CLIPPING, nullptr, SF_TRUE);
    // libsndfile's PEAK chunk (float WAV) carries a timestamp: without it, the same samples give
    // the same bytes whenever they are rendered.
    sf_command(w->file_, SFC_SET_ADD_PEAK_CHUNK, nullptr, SF_FALSE);
    w->channels_ = channels;
    for (auto& slab : w->slabs_) slab.reset(new float[kSlabFrames * channels]);
    try {
        w->io_ = std::thread([raw = w.get()] { raw->ioLoop(); });
    } catch (const std::system_error&) {
        // No thread to be had: write() does the writing itself.
    }
    out = std::move(w);
    return BOOP_OK;
}

AudioFileWriter::~AudioFileWriter() { abort(); }

// Keeps a message for error(); an allocation failure leaves the previous one.
void AudioFileWriter::setError(const char* message) noexcept {
    try {
        error_ = message;
    } catch (...) {}
}

boop_status AudioFileWriter::write(const float* interleaved, uint64_t frames) {
    if (file_ == nullptr || (interleaved == nullptr && frames > 0)) return BOOP_ERROR_INVALID_ARGUMENT;
    if (frames > maxFrames_ - frames_) {
        setError("a WAV file of unannounced length cannot pass 4 GiB (RIFF sizes are 32-bit)");
        return BOOP_ERROR_IO;
    }
    frames_ += frames;
    if (!io_.joinable() && output_ == nullptr) return writeNow(interleaved, frames);
    while (frames > 0) {
        const uint64_t room = kSlabFrames - slabFrames_[filling_];
        const uint64_t take = frames < room ? frames : room;
        std::memcpy(slabs_[filling_].get() + slabFrames_[filling_] * channels_, interleaved,
                    static_cast<size_t>(take * channels_) * sizeof(float));
        slabFrames_[filling_] += take;
        interleaved += take * channels_;
        frames -= take;
        if (slabFrames_[filling_] == kSlabFrames) {
            const boop_status s = io_.joinable() ? handOff() : writeHere();
            if (s != BOOP_OK) return s;
        }
    }
    return ioStatus();
}

std::string AudioFileWriter::writeSlab(int slab) noexcept {
    float* samples = slabs_[slab].get();
    uint64_t frames = slabFrames_[slab];
    // The stage's look-ahead holds back its latency: fewer frames come out of the first slab.
    if (output_ != nullptr) frames = output_->processAligned(samples, static_cast<uint32_t>(frames));
    const sf_count_t n = static_cast<sf_count_t>(frames);
    if (n > 0 && sf_writef_float(file_, samples, n) != n) {
        const int err = errno;
        try {
            return describeWriteFailure(out_.fd(), err, sf_strerror(file_));
        } catch (...) {
            return "writing the file failed";
        }
    }
    return {};
}

boop_status AudioFileWriter::writeHere() noexcept {
    const std::string failure = writeSlab(filling_);
    slabFrames_[filling_] = 0;
    if (failure.empty()) return BOOP_OK;
    setError(failure.c_str());
    return BOOP_ERROR_IO;
}

boop_status AudioFileWriter::writeNow(const float* interleaved, uint64_t frames) noexcept {
    const sf_count_t written = sf_writef_float(file_, interleaved, static_cast<sf_count_t>(frames));
    if (written != static_cast<sf_count_t>(frames)) {
        const int err = errno;
        setError(describeWriteFailure(out_.fd(), err, sf_strerror(file_)).c_str());
        return BOOP_ERROR_IO;
    }
    return BOOP_OK;
}

boop_status AudioFileWriter::handOff() {
    std::unique_lock<std::mutex> lock(mutex_);
    wake_.wait(lock, [this] { return queued_ < 0; });
    queued_ = filling_;
    wake_.notify_all();
    filling_ = 1 - filling_;
    // The other slab is free once the thread has finished writing it.
    wake_.wait(lock, [this] { return writing_ != filling_; });
    slabFrames_[filling_] = 0;
    lock.unlock();
    return ioStatus();
}

void AudioFileWriter::ioLoop() noexcept {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return queued_ >= 0 || stopping_; });
        if (queued_ < 0) return;  // stopping, and nothing left to write
        writing_ = queued_;
        queued_ = -1;
        const bool failed = ioStatus_ != BOOP_OK;
        wake_.notify_all();
        lock.unlock();
        // After a failure the rest is dropped: commit will fail and remove the file anyway.
        std::string failure;
        if (!failed) failure = writeSlab(writing_);
        lock.lock();
        if (!failure.empty() && ioStatus_ == BOOP_OK) {
            ioStatus_ = BOOP_ERROR_IO;
            ioError_ = std::move(failure);
        }
        writing_ = -1;
        wake_.notify_all();
    }
}

boop_status AudioFileWriter::ioStatus() noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    if (ioStatus_ != BOOP_OK) setError(ioError_.c_str());
    return ioStatus_;
}

void AudioFileWriter::stopIo(bool drain) noexcept {
    if (!io_.joinable()) return;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!drain) queued_ = -1;
        stopping_ = true;
    }
    wake_.notify_all();
    io_.join();
}

boop_status AudioFileWriter::commit() {
    std::string failure;
    if (file_ != nullptr && io_.joinable()) {
        // The partly filled slab, then whatever the thread has not written yet.
        boop_status s = BOOP_OK;
        if (slabFrames_[filling_] > 0) {
            try {
                s = handOff();
            } catch (const std::system_error&) {
                s = BOOP_ERROR_INTERNAL;
                setError("the writing thread could not be reached");
            }
        }
        stopIo(true);
        if (s == BOOP_OK) s = ioStatus();
        if (s != BOOP_OK) {
            abort();
            return BOOP_ERROR_IO;
        }
    } else if (file_ != nullptr && output_ != nullptr && slabFrames_[filling_] > 0 && writeHere() != BOOP_OK) {
        abort();
        return BOOP_ERROR_IO;
    }
    if (file_ != nullptr && output_ != nullptr) {
        // The frames still in the stage's look-ahead (at most its latency: a slab has room).
        const sf_count_t n = static_cast<sf_count_t>(output_->finish(slabs_[filling_].get()));
        if (n > 0 && sf_writef_float(file_, slabs_[filling_].get(), n) != n)
            failure = describeWriteFailure(out_.fd(), errno, sf_strerror(file_));
    }
    if (file_ != nullptr) {
        errno = 0;
        if (sf_close(file_) != 0 && failure.empty())
            failure = describeWriteFailure(out_.fd(), errno, "closing the file failed");
        file_ = nullptr;
    }
    if (failure.empty() && out_.commit(durability_) == BOOP_OK) return BOOP_OK;
    setError(failure.empty() ? out_.error().c_str() : failure.c_str());
    out_.abort();
    return BOOP_ERROR_IO;
}

void AudioFileWriter::abort() noexcept {
    stopIo(false);
    if (file_ != nullptr) sf_close(file_);
    file_ = nullptr;
    out_.abort();
}

}  // namespace boop
