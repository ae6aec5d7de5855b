// Tunings from Scala files, as the C API hands them out (CAudioEngineKeys.h, "Tunings").
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>

#include "capi/TuningHandle.hpp"
#include "engine/ScalaFile.hpp"
#include "include/CAudioEngine.h"

namespace {

void tell(char* why, size_t size, const std::string& text) {
    if (!why || size == 0) return;
    std::snprintf(why, size, "%s", text.c_str());
}

// The whole file, when it is at most BOOP_TUNING_FILE_BYTES_MAX bytes; errno kept on failure.
boop_status readWhole(const char* path, std::string& text, std::string& why) {
    std::FILE* file = std::fopen(path, "rb");
    if (!file) {
        why = std::strerror(errno);
        return BOOP_ERROR_IO;
    }
    text.clear();
    char block[65536];
    size_t got = 0;
    while ((got = std::fread(block, 1, sizeof block, file)) > 0 && text.size() <= BOOP_TUNING_FILE_BYTES_MAX)
        text.append(block, got);
    int failed = std::ferror(file) ? errno : 0;
    std::fclose(file);
    if (failed) {
        errno = failed;
        why = std::strerror(failed);
        return BOOP_ERROR_IO;
    }
    if (text.size() > BOOP_TUNING_FILE_BYTES_MAX) {
        why = "expected a Scala file of at most 1 MiB";
        return BOOP_ERROR_INVALID_ARGUMENT;
    }
    return BOOP_OK;
}

boop_status make(const char* scl, size_t sclLength, const char* kbm, size_t kbmLength, boop_tuning** out,
                 std::string& why) {
    if (sclLength > BOOP_TUNING_FILE_BYTES_MAX || kbmLength > BOOP_TUNING_FILE_BYTES_MAX) {
        why = "expected a Scala file of at most 1 MiB";
        return BOOP_ERROR_INVALID_ARGUMENT;
    }
    boop::scala::Scale scale;
    boop::scala::Mapping mapping;
    if (!boop::scala::parseScale(std::string_view(scl, sclLength), scale, why)) return BOOP_ERROR_INVALID_ARGUMENT;
    if (kbm && !boop::scala::parseMapping(std::string_view(kbm, kbmLength), mapping, why)) {
        why = "mapping, " + why;
        return BOOP_ERROR_INVALID_ARGUMENT;
    }
    auto* made = new (std::nothrow) boop_tuning;
    if (!made) return BOOP_ERROR_OUT_OF_MEMORY;
    if (!made->tuning.build(scale, mapping, why)) {
        delete made;
        return BOOP_ERROR_INVALID_ARGUMENT;
    }
    *out = made;
    return BOOP_OK;
}

}  // namespace

extern "C" {

boop_status boop_tuning_parse(const char* scl_text, size_t scl_length, const char* kbm_text, size_t kbm_length,
                              boop_tuning** out_tuning, char* why, size_t why_size) {
    if (!out_tuning || (!scl_text && scl_length > 0) || (!kbm_text && kbm_length > 0))
        return BOOP_ERROR_INVALID_ARGUMENT;
    *out_tuning = nullptr;
    std::string reason;
    try {
        boop_status status = make(scl_text ? scl_text : "", scl_length, kbm_text, kbm_length, out_tuning, reason);
        tell(why, why_size, reason);
        return status;
    } catch (const std::bad_alloc&) {
        return BOOP_ERROR_OUT_OF_MEMORY;
    }
}

boop_status boop_tuning_load(const char* scl_path, const char* kbm_path, boop_tuning** out_tuning, char* why,
                             size_t why_size) {
    if (!scl_path || !out_tuning) return BOOP_ERROR_INVALID_ARGUMENT;
    *out_tuning = nullptr;
    try {
        std::string scl, kbm, reason;
        boop_status status = readWhole(scl_path, scl, reason);
        if (status == BOOP_OK && kbm_path) {
            status = readWhole(kbm_path, kbm, reason);
            if (status != BOOP_OK) reason = "mapping, " + reason;
        }
        if (status == BOOP_OK)
            status = make(scl.data(), scl.size(), kbm_path ? kbm.data() : nullptr, kbm.size(), out_tuning, reason);
        tell(why, why_size, reason);
        return status;
    } catch (const std::bad_alloc&) {
        return BOOP_ERROR_OUT_OF_MEMORY;
    }
}

double boop_tuning_key_hz(const boop_tuning* tuning, int key) { return tuning ? tuning->tuning.keyHz(key) : 0.0; }

const char* boop_tuning_description(const boop_tuning* tuning) {
    return tuning ? tuning->tuning.description().c_str() : "";
}

uint32_t boop_tuning_degree_count(const boop_tuning* tuning) { return tuning ? tuning->tuning.degreeCount() : 0; }

void boop_tuning_free(boop_tuning* tuning) { delete tuning; }

}  // extern "C"
