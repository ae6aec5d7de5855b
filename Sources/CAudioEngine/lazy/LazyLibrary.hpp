#pragma once
// Libraries that only some commands need, opened on their first call instead of at start.
//
// libsndfile (writing audio files) and libsystemd's sd-bus (MPRIS, rtkit) each bring a chain of
// their own: FLAC, Vorbis, Opus, LAME and mpg123; gcrypt, lz4, zstd, lzma and libcap. Linked
// directly, the dynamic loader maps and relocates those 15 libraries at every start, `boop
// --version` included (a third of its start-up). Here each library's functions are defined under
// their own names (the headers' prototypes), forwarding to the library that dlopen finds on the
// first call, so no call site changes. When the library is missing, each function answers as the
// library answers a failure (a null handle, a negative errno) and `error()` says why.
//
// Thread safety: any control or worker thread (the first call takes dlopen's lock). Never called
// from the audio thread: neither library is real-time safe anyway.
#include <mutex>

namespace boop {

class LazyLibrary {
  public:
    explicit constexpr LazyLibrary(const char* soname) noexcept : soname_(soname) {}
    // The library's handle once opened (opening it on the first call); nullptr when it is missing.
    void* handle() noexcept;
    // A symbol of the library, or nullptr when it or the library is missing.
    void* symbol(const char* name) noexcept;
    // Why the library could not be opened, in one line ("" while it could).
    const char* error() noexcept;

  private:
    const char* soname_;
    std::once_flag once_;
    void* handle_ = nullptr;
    char why_[256] = {};
};

// The two libraries, each opened by its Debian soname.
LazyLibrary& sndfileLibrary() noexcept;
LazyLibrary& systemdLibrary() noexcept;

}  // namespace boop

// One forwarding definition: RET NAME PARAMS calls the library's NAME with ARGS, or returns FAIL
// when it is missing. The pointer is looked up once (a function-local static: thread-safe).
#define BOOP_LAZY_FORWARD(LIB, RET, NAME, PARAMS, ARGS, FAIL)           \
    extern "C" RET NAME PARAMS {                                        \
        using Fn = RET(*) PARAMS;                                       \
        static const Fn fn = reinterpret_cast<Fn>(LIB().symbol(#NAME)); \
        if (fn == nullptr) return FAIL;                                 \
        return fn ARGS;                                                 \
    }
