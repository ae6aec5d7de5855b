#include "io/AtomicFile.hpp"

#include <fcntl.h>
#include <limits.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "io/ProcessCleanup.hpp"

namespace boop {

namespace {

mode_t currentUmask() {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return mask;
}

std::string folderOf(const std::string& path) {
    const size_t slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

std::string describeWriteFailure(int fd, int err, const char* fallback) {
    // libsndfile reports some failures only as its own text ("Unspecified internal error" from the
    // Ogg/Vorbis writer past `ulimit -f`), so the usual causes are looked for directly too.
    struct rlimit limit;
    struct stat st;
    const bool atLimit = fd >= 0 && ::getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
                         ::fstat(fd, &st) == 0 &&
                         static_cast<uint64_t>(st.st_size) + 65536 >= static_cast<uint64_t>(limit.rlim_cur);
    if (err == EFBIG || atLimit) return "file size limit exceeded (ulimit -f)";
    struct statvfs vfs;
    if (err == ENOSPC || (fd >= 0 && ::fstatvfs(fd, &vfs) == 0 && vfs.f_bavail == 0))
        return "disk full (no space left on device)";
    if (err == EDQUOT) return "disk quota exceeded";
    if (err == EIO) return "input/output error on the disk";
    return fallback;
}

std::string resolveLinks(const std::string& path) {
    std::string current = path;
    for (int i = 0; i < 40; ++i) {
        struct stat st;
        if (::lstat(current.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return current;
        char buffer[PATH_MAX + 1];
        const ssize_t n = ::readlink(current.c_str(), buffer, PATH_MAX);
        if (n <= 0) return current;
        const std::string link(buffer, static_cast<size_t>(n));
        const size_t slash = current.rfind('/');
        current = link[0] == '/' || slash == std::string::npos ? link : current.substr(0, slash + 1) + link;
    }
    return current;
}

boop_status AtomicFile::open(const std::string& path, uint32_t flags) {
    abort();
    flags_ = flags;
    target_ = (flags & BOOP_ATOMIC_FOLLOW_LINKS) != 0 ? resolveLinks(path) : path;
    // mkstemp gives a unique name in the target's folder (so the rename is atomic). The name is
    // short and fixed-length, never the target's name plus a suffix: an output name near NAME_MAX
    // (255) must not fail because its temporary name is longer.
    const size_t slash = target_.rfind('/');
    temp_ = (slash == std::string::npos ? std::string() : target_.substr(0, slash + 1)) + ".boop-XXXXXX";
    // createTemporary remembers the name, so a signal that ends the process removes it.
    fd_ = process::createTemporary(&temp_[0]);
    if (fd_ < 0) {
        error_ = std::strerror(errno);
        temp_.clear();
        return BOOP_ERROR_CANNOT_CREATE;
    }
    // mkstemp creates 0600. A new file gets the usual mode less the umask (0666 for a rendered
    // document; 0644 for a pattern, as before); a replaced pattern keeps the mode it had.
    mode_t mode = 0666 & ~currentUmask();
    if ((flags & BOOP_ATOMIC_KEEP_MODE) != 0) {
        struct stat st;
        mode = ::stat(target_.c_str(), &st) == 0 ? (st.st_mode & 07777) : (0644 & ~currentUmask());
    }
    ::fchmod(fd_, mode);
    error_.clear();
    return BOOP_OK;
}

void AtomicFile::fail(const std::string& message) noexcept {
    try {
        error_ = message;
    } catch (...) {}
}

boop_status AtomicFile::write(const void* bytes, size_t count) noexcept { return writeAll(bytes, count, nullptr); }

boop_status AtomicFile::writeAt(uint64_t offset, const void* bytes, size_t count) noexcept {
    return writeAll(bytes, count, &offset);
}

// Every byte, at the file's position or from `*offset`: a write that makes no progress is a full
// disk, an interrupted one goes on.
boop_status AtomicFile::writeAll(const void* bytes, size_t count, const uint64_t* offset) noexcept {
    if (fd_ < 0) return BOOP_ERROR_INVALID_ARGUMENT;
    const char* p = static_cast<const char*>(bytes);
    uint64_t at = offset != nullptr ? *offset : 0;
    while (count > 0) {
        const ssize_t n = offset != nullptr ? ::pwrite(fd_, p, count, static_cast<off_t>(at)) : ::write(fd_, p, count);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const int err = n < 0 ? errno : ENOSPC;
            fail(describeWriteFailure(fd_, err, std::strerror(err)));
            return BOOP_ERROR_IO;
        }
        p += n;
        at += static_cast<uint64_t>(n);
        count -= static_cast<size_t>(n);
    }
    return BOOP_OK;
}

boop_status AtomicFile::commit(boop_durability durability) noexcept {
    if (fd_ < 0 || temp_.empty()) return BOOP_ERROR_INVALID_ARGUMENT;
    const bool sync = durability == BOOP_DURABILITY_SYNC;
    std::string failure;
    if (sync && ::fsync(fd_) != 0) failure = describeWriteFailure(fd_, errno, std::strerror(errno));
    if (::close(fd_) != 0 && failure.empty()) failure = describeWriteFailure(-1, errno, std::strerror(errno));
    fd_ = -1;
    if (failure.empty() && !putInPlace(sync)) failure = std::strerror(errno);
    if (!failure.empty()) {
        removeTemporary();
        fail(failure);
        return BOOP_ERROR_IO;
    }
    process::forgetTemporary(temp_.c_str());
    temp_.clear();  // it is the user's file now
    if (sync) {
        // The rename is durable only once the folder is flushed. The file is in place whatever
        // this says (some file systems refuse fsync on a folder), so a failure is not reported.
        const int dir = ::open(folderOf(target_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dir >= 0) {
            (void)::fsync(dir);
            ::close(dir);
        }
    }
    return BOOP_OK;
}

// Renames the temporary file over the target. A file that is not flushed replaces an existing
// regular file by swapping the two names (one atomic step, as a rename) and then removing the old
// one: ext4's auto_da_alloc writes back a file renamed over another at the rename itself (10-15 ms
// for 15 MB on a virtio disk), which would put the device back into every render's time. The
// durability is what docs/DESIGN.md says of renders either way. Anything else (no file there yet,
// a file system without the swap, a target that changed to a folder meanwhile) takes the plain
// rename. Sets errno and returns false on failure.
bool AtomicFile::putInPlace(bool sync) noexcept {
    struct stat st;
    if (!sync && ::lstat(target_.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        ::renameat2(AT_FDCWD, temp_.c_str(), AT_FDCWD, target_.c_str(), RENAME_EXCHANGE) == 0) {
        // The temporary name now holds the old file; a folder swapped in by a race goes back.
        if (::lstat(temp_.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
            ::renameat2(AT_FDCWD, temp_.c_str(), AT_FDCWD, target_.c_str(), RENAME_EXCHANGE);
            errno = EISDIR;
            return false;
        }
        ::unlink(temp_.c_str());
        return true;
    }
    return std::rename(temp_.c_str(), target_.c_str()) == 0;
}

void AtomicFile::removeTemporary() noexcept {
    if (temp_.empty()) return;
    ::unlink(temp_.c_str());
    process::forgetTemporary(temp_.c_str());
    temp_.clear();
}

void AtomicFile::abort() noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    removeTemporary();
}

}  // namespace boop
