#pragma once
// The one way the boop tool makes a file (CAudioEngine.h, "Atomic files"): audio renders and
// recordings, MIDI files, saved patterns and emergency `.save` copies all go through it.
//
// The bytes go to a temporary file beside the target, made by process::createTemporary (mkstemp, a short
// fixed-length `.boop-XXXXXX` name, remembered so that a stop signal removes it), and are renamed
// over the target on commit. Every failure (the file cannot be made, a write, the close, the sync,
// the rename) and abort remove the temporary file: nothing half-written ever appears under the
// user's name. Durability is the caller's choice (docs/DESIGN.md, "Durability"): SYNC flushes the
// file and then its folder, for what cannot be made again; RENAME leaves both to the kernel.
#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "include/CAudioEngine.h"

namespace boop {

class AtomicFile {
  public:
    AtomicFile() = default;
    ~AtomicFile() { abort(); }
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    // flags: BOOP_ATOMIC_FOLLOW_LINKS, BOOP_ATOMIC_KEEP_MODE. BOOP_ERROR_CANNOT_CREATE (error()
    // says the system's reason) when the temporary file cannot be made.
    boop_status open(const std::string& path, uint32_t flags);
    int fd() const noexcept { return fd_; }
    // The file the rename replaces (the link's target when links are followed) and its folder.
    const std::string& target() const noexcept { return target_; }

    // Appends; BOOP_ERROR_IO with error() after a failure (EINTR is retried).
    boop_status write(const void* bytes, size_t count) noexcept;
    // Overwrites bytes already written (a size known only at the end, as a MIDI chunk's).
    boop_status writeAt(uint64_t offset, const void* bytes, size_t count) noexcept;
    // Syncs when asked, closes, renames into place (SYNC then syncs the folder, so the rename
    // itself survives a crash). On failure the temporary file is removed and error() says why.
    boop_status commit(boop_durability durability) noexcept;
    // Removes the temporary file; nothing appears under the target's name.
    void abort() noexcept;

    const std::string& error() const noexcept { return error_; }
    // Keeps `message` as the reason of a failure found by the caller (libsndfile's).
    void fail(const std::string& message) noexcept;

  private:
    boop_status writeAll(const void* bytes, size_t count, const uint64_t* offset) noexcept;
    bool putInPlace(bool sync) noexcept;
    void removeTemporary() noexcept;

    int fd_ = -1;
    uint32_t flags_ = 0;
    std::string target_;
    std::string temp_;
    std::string error_;
};

// Why a write to `fd` failed, in words a user can act on: the file-size limit (ulimit -f, EFBIG
// with SIGXFSZ ignored), a full disk or quota, an I/O error; otherwise `fallback`. `err` is errno
// just after the failure; fd < 0 when there is no file to look at.
std::string describeWriteFailure(int fd, int err, const char* fallback);

// The file a path finally names: symbolic links followed (relative ones from their own folder), up
// to 40 as the kernel allows; a dangling link names its missing target.
std::string resolveLinks(const std::string& path);

}  // namespace boop
