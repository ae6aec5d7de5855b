// libsndfile's functions that boop calls, opened on first use (see LazyLibrary.hpp).
#include <sndfile.h>

#include "lazy/LazyLibrary.hpp"

using boop::sndfileLibrary;

// Missing, a format is "checked" so that the open fails and sf_strerror says why.
BOOP_LAZY_FORWARD(sndfileLibrary, int, sf_format_check, (const SF_INFO* info), (info), 1)
BOOP_LAZY_FORWARD(sndfileLibrary, SNDFILE*, sf_open_fd, (int fd, int mode, SF_INFO* info, int close_desc),
                  (fd, mode, info, close_desc), nullptr)
BOOP_LAZY_FORWARD(sndfileLibrary, int, sf_command, (SNDFILE * file, int command, void* data, int size),
                  (file, command, data, size), 0)
BOOP_LAZY_FORWARD(sndfileLibrary, sf_count_t, sf_writef_float, (SNDFILE * file, const float* ptr, sf_count_t frames),
                  (file, ptr, frames), 0)
BOOP_LAZY_FORWARD(sndfileLibrary, int, sf_close, (SNDFILE * file), (file), 0)
BOOP_LAZY_FORWARD(sndfileLibrary, const char*, sf_strerror, (SNDFILE * file), (file), sndfileLibrary().error())
