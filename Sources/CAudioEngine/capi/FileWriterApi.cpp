// C shim for the file writer (CAudioEngine.h, "Audio files"): argument checks, handle <-> object,
// no exception across the boundary. One writer is used from one thread at a time.
#include <memory>
#include <new>

#include "capi/Guarded.hpp"
#include "capi/OutputHandle.hpp"
#include "include/CAudioEngine.h"
#include "io/AudioFileWriter.hpp"

struct boop_file_writer {
    std::unique_ptr<boop::AudioFileWriter> impl;
};

extern "C" {

boop_status boop_file_writer_open(const char* path, double sample_rate, uint32_t channels, boop_sample_format format,
                                  boop_file_writer** out_writer) {
    return boop_file_writer_open_sized(path, sample_rate, channels, format, 0, out_writer);
}

boop_status boop_file_writer_open_sized(const char* path, double sample_rate, uint32_t channels,
                                        boop_sample_format format, uint64_t expected_frames,
                                        boop_file_writer** out_writer) {
    if (!path || !out_writer || channels < 1 || channels > BOOP_FILE_CHANNELS_MAX ||
        !(sample_rate >= BOOP_FILE_RATE_MIN && sample_rate <= BOOP_FILE_RATE_MAX))
        return BOOP_ERROR_INVALID_ARGUMENT;
    *out_writer = nullptr;
    return boop::capi::guarded([&] {
        auto w = std::make_unique<boop_file_writer>();
        const boop_status s =
            boop::AudioFileWriter::open(path, sample_rate, channels, format, expected_frames, w->impl);
        if (s != BOOP_OK) return s;
        *out_writer = w.release();
        return BOOP_OK;
    });
}

boop_status boop_file_writer_write(boop_file_writer* w, const float* interleaved, uint64_t frames) {
    if (!w || !w->impl) return BOOP_ERROR_INVALID_ARGUMENT;
    try {
        return w->impl->write(interleaved, frames);
    } catch (...) {
        return BOOP_ERROR_INTERNAL;  // the hand-off to the writing thread failed (never expected)
    }
}

boop_status boop_file_writer_commit(boop_file_writer* w) {
    if (!w || !w->impl) return BOOP_ERROR_INVALID_ARGUMENT;
    boop_status s = BOOP_ERROR_INTERNAL;
    try {
        s = w->impl->commit();
    } catch (...) {
        w->impl->abort();
    }
    if (s == BOOP_OK) {
        delete w;
        return BOOP_OK;
    }
    // The writer stays, so its error can be read; boop_file_writer_abort frees it.
    return s;
}

void boop_file_writer_abort(boop_file_writer* w) {
    if (!w) return;
    if (w->impl) w->impl->abort();
    delete w;
}

boop_status boop_file_writer_set_output(boop_file_writer* w, boop_output* output) {
    if (!w || !w->impl || !output || w->impl->framesWritten() > 0 ||
        output->chain.stage().channels() != w->impl->channels())
        return BOOP_ERROR_INVALID_ARGUMENT;
    w->impl->setOutput(&output->chain.stage());
    return BOOP_OK;
}

void boop_file_writer_set_durability(boop_file_writer* w, boop_durability durability) {
    if (w && w->impl) w->impl->setDurability(durability);
}

const char* boop_file_writer_error(const boop_file_writer* w) { return w && w->impl ? w->impl->error().c_str() : ""; }

}  // extern "C"
