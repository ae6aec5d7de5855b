// Audio files through libsndfile (LGPL, the field's standard): WAV float/16-bit, FLAC and OGG by
// extension. Samples go to a temporary file beside the target, renamed into place on commit, so
// an interrupted or failed run never leaves a half-written file under the user's name.
#include <sndfile.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include "include/CAudioEngine.h"

struct boop_file_writer {
    SNDFILE* file = nullptr;
    std::string finalPath;
    std::string tempPath;
    uint32_t channels = 1;
    uint64_t frames = 0;
    uint64_t maxFrames = UINT64_MAX;
    std::string error;
};

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

// Keeps a message for boop_file_writer_error; never throws across the C boundary (an
// allocation failure leaves the previous message).
void setError(boop_file_writer* w, const char* message) noexcept {
    try {
        w->error = message;
    } catch (...) {}
}

}  // namespace

/// RIFF sizes are 32-bit: past 4 GiB a WAV's sizes wrap and readers see garbage. A render that
/// says how long it will be gets RF64 (the 64-bit WAV of EBU Tech 3306, which libsndfile writes
/// and sox, ffmpeg and libsndfile read) when it would not fit; an ordinary WAV otherwise, for the
/// widest compatibility. A writer of unknown length (a recording) stops with an error at the
/// limit rather than write a corrupt file. 64 KiB are left for the header.
static uint64_t wavFrameLimit(uint32_t channels, boop_sample_format format) {
    const uint64_t bytesPerFrame = static_cast<uint64_t>(channels) * (format == BOOP_SAMPLE_INT16 ? 2u : 4u);
    return (UINT64_C(0xFFFFFFFF) - 65536) / bytesPerFrame;
}

extern "C" {

boop_status boop_file_writer_open(const char* path, double sample_rate, uint32_t channels, boop_sample_format format,
                                  boop_file_writer** out_writer) {
    return boop_file_writer_open_sized(path, sample_rate, channels, format, 0, out_writer);
}

boop_status boop_file_writer_open_sized(const char* path, double sample_rate, uint32_t channels,
                                        boop_sample_format format, uint64_t expected_frames,
                                        boop_file_writer** out_writer) {
    if (!path || !out_writer || channels < 1 || channels > 8 || !(sample_rate >= 1000 && sample_rate <= 768000))
        return BOOP_ERROR_INVALID_ARGUMENT;
    *out_writer = nullptr;
    try {
        auto* w = new boop_file_writer;
        w->finalPath = path;
        w->channels = channels;
        SF_INFO info{};
        info.samplerate = static_cast<int>(sample_rate + 0.5);
        info.channels = static_cast<int>(channels);
        const bool rf64 = expected_frames > wavFrameLimit(channels, format);
        info.format = formatFor(w->finalPath, format, rf64);
        if (info.format == 0 || !sf_format_check(&info)) {
            delete w;
            return BOOP_ERROR_INVALID_ARGUMENT;
        }
        // mkstemp gives a unique name in the target's directory (so rename is atomic). The name
        // is short and fixed-length (`.boop-XXXXXX`), never the target's name plus a suffix: an
        // output name near NAME_MAX (255) must not fail because its temporary name is longer.
        const size_t slash = w->finalPath.rfind('/');
        std::string tmpl =
            (slash == std::string::npos ? std::string() : w->finalPath.substr(0, slash + 1)) + ".boop-XXXXXX";
        int fd = mkstemp(&tmpl[0]);
        if (fd < 0) {
            delete w;
            return BOOP_ERROR_CANNOT_CREATE;
        }
        w->tempPath = tmpl;
        // mkstemp creates 0600; a rendered file should get the usual 0666 less the umask.
        const mode_t mask = ::umask(0);
        ::umask(mask);
        ::fchmod(fd, 0666 & ~mask);
        w->file = sf_open_fd(fd, SFM_WRITE, &info, SF_TRUE);
        if (!w->file) {
            ::close(fd);
            ::unlink(w->tempPath.c_str());
            delete w;
            return BOOP_ERROR_CANNOT_CREATE;
        }
        if ((info.format & SF_FORMAT_TYPEMASK) == SF_FORMAT_WAV) w->maxFrames = wavFrameLimit(channels, format);
        // Normalised float in, clipped on integer conversion rather than wrapped.
        sf_command(w->file, SFC_SET_CLIPPING, nullptr, SF_TRUE);
        // libsndfile's PEAK chunk (float WAV) carries a timestamp: without it, the same samples
        // give the same bytes whenever they are rendered.
        sf_command(w->file, SFC_SET_ADD_PEAK_CHUNK, nullptr, SF_FALSE);
        *out_writer = w;
        return BOOP_OK;
    } catch (const std::bad_alloc&) {
        return BOOP_ERROR_OUT_OF_MEMORY;
    } catch (...) {
        return BOOP_ERROR_INTERNAL;
    }
}

boop_status boop_file_writer_write(boop_file_writer* w, const float* interleaved, uint64_t frames) {
    if (!w || !w->file || (!interleaved && frames > 0)) return BOOP_ERROR_INVALID_ARGUMENT;
    if (frames > w->maxFrames - w->frames) {
        setError(w, "a WAV file of unannounced length cannot pass 4 GiB (RIFF sizes are 32-bit)");
        return BOOP_ERROR_IO;
    }
    w->frames += frames;
    const sf_count_t written = sf_writef_float(w->file, interleaved, static_cast<sf_count_t>(frames));
    if (written != static_cast<sf_count_t>(frames)) {
        setError(w, sf_strerror(w->file));
        return BOOP_ERROR_IO;
    }
    return BOOP_OK;
}

boop_status boop_file_writer_commit(boop_file_writer* w) {
    if (!w) return BOOP_ERROR_INVALID_ARGUMENT;
    const char* failure = nullptr;
    if (w->file) {
        sf_write_sync(w->file);
        if (sf_close(w->file) != 0) failure = "closing the file failed (the disk may be full)";
        w->file = nullptr;
    }
    if (!failure && std::rename(w->tempPath.c_str(), w->finalPath.c_str()) != 0) failure = std::strerror(errno);
    if (!failure) {
        delete w;
        return BOOP_OK;
    }
    // The writer stays, so its error can be read; boop_file_writer_abort frees it.
    ::unlink(w->tempPath.c_str());
    setError(w, failure);
    return BOOP_ERROR_IO;
}

void boop_file_writer_abort(boop_file_writer* w) {
    if (!w) return;
    if (w->file) sf_close(w->file);
    ::unlink(w->tempPath.c_str());
    delete w;
}

const char* boop_file_writer_error(const boop_file_writer* w) { return w ? w->error.c_str() : ""; }

}  // extern "C"
