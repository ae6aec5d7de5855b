// C shim for atomic files (CAudioEngine.h, "Atomic files"): argument checks, handle <-> object, no
// exception across the boundary.
#include <cstring>
#include <new>

#include "include/CAudioEngine.h"
#include "io/AtomicFile.hpp"

struct boop_atomic_file {
    boop::AtomicFile impl;
};

namespace {

void copyReason(const std::string& reason, char* why, size_t why_size) {
    if (why == nullptr || why_size == 0) return;
    const size_t n = reason.size() < why_size - 1 ? reason.size() : why_size - 1;
    std::memcpy(why, reason.data(), n);
    why[n] = '\0';
}

}  // namespace

extern "C" {

boop_status boop_atomic_file_open(const char* path, uint32_t flags, boop_atomic_file** out_file, char* why,
                                  size_t why_size) {
    copyReason("", why, why_size);
    if (path == nullptr || path[0] == '\0' || out_file == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    *out_file = nullptr;
    try {
        auto* file = new boop_atomic_file;
        const boop_status s = file->impl.open(path, flags);
        if (s != BOOP_OK) {
            copyReason(file->impl.error(), why, why_size);
            delete file;
            return s;
        }
        *out_file = file;
        return BOOP_OK;
    } catch (const std::bad_alloc&) {
        return BOOP_ERROR_OUT_OF_MEMORY;
    }
}

boop_status boop_atomic_file_write(boop_atomic_file* file, const void* bytes, size_t count) {
    if (file == nullptr || (bytes == nullptr && count > 0)) return BOOP_ERROR_INVALID_ARGUMENT;
    return file->impl.write(bytes, count);
}

boop_status boop_atomic_file_write_at(boop_atomic_file* file, uint64_t offset, const void* bytes, size_t count) {
    if (file == nullptr || (bytes == nullptr && count > 0)) return BOOP_ERROR_INVALID_ARGUMENT;
    return file->impl.writeAt(offset, bytes, count);
}

boop_status boop_atomic_file_commit(boop_atomic_file* file, boop_durability durability) {
    if (file == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    const boop_status s = file->impl.commit(durability);
    if (s == BOOP_OK) delete file;
    return s;
}

void boop_atomic_file_abort(boop_atomic_file* file) { delete file; }

const char* boop_atomic_file_error(const boop_atomic_file* file) {
    return file != nullptr ? file->impl.error().c_str() : "";
}

boop_status boop_file_write_atomic(const char* path, const void* bytes, size_t count, uint32_t flags,
                                   boop_durability durability, char* why, size_t why_size) {
    boop_atomic_file* file = nullptr;
    boop_status s = boop_atomic_file_open(path, flags, &file, why, why_size);
    if (s != BOOP_OK) return s;
    s = boop_atomic_file_write(file, bytes, count);
    if (s == BOOP_OK) s = boop_atomic_file_commit(file, durability);
    if (s == BOOP_OK) return BOOP_OK;
    copyReason(file->impl.error(), why, why_size);
    boop_atomic_file_abort(file);
    return s;
}

size_t boop_file_resolve_links(const char* path, char* out, size_t out_size) {
    if (path == nullptr || out == nullptr) return 0;
    try {
        const std::string target = boop::resolveLinks(path);
        if (target.size() >= out_size) return 0;
        std::memcpy(out, target.c_str(), target.size() + 1);
        return target.size();
    } catch (const std::bad_alloc&) {
        return 0;
    }
}

}  // extern "C"
