// libFuzzer target: any bytes as a Scala scale and keyboard mapping (boop_tuning_parse). Whatever
// arrives, the answer is a tuning or a refusal in one line; a tuning's every key is silent (0) or
// sounds within 0.01 Hz ... 1 MHz; and no sanitizer complains.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "include/CAudioEngine.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    // The first byte says where the scale ends and the mapping begins (0: no mapping), so that
    // both texts are reached by every mutation.
    if (size == 0) return 0;
    size_t split = data[0] == 0 ? size - 1 : (static_cast<size_t>(data[0]) * (size - 1)) / 255;
    const char* scl = reinterpret_cast<const char*>(data + 1);
    const char* kbm = data[0] == 0 ? nullptr : scl + split;
    size_t kbmLength = data[0] == 0 ? 0 : size - 1 - split;
    boop_tuning* tuning = nullptr;
    char why[256];
    std::memset(why, 'x', sizeof why);
    boop_status status = boop_tuning_parse(scl, split, kbm, kbmLength, &tuning, why, sizeof why);
    if (status == BOOP_OK) {
        if (!tuning) std::abort();
        for (int key = 0; key < 128; ++key) {
            double hz = boop_tuning_key_hz(tuning, key);
            if (!(hz == 0.0 || (hz >= 0.01 && hz <= 1e6))) std::abort();
        }
        if (boop_tuning_degree_count(tuning) < 1 || boop_tuning_degree_count(tuning) > BOOP_TUNING_DEGREES_MAX)
            std::abort();
        (void)std::strlen(boop_tuning_description(tuning));
    } else {
        if (status != BOOP_ERROR_INVALID_ARGUMENT || tuning) std::abort();
        if (!std::memchr(why, 0, sizeof why) || std::strchr(why, '\n') || why[0] == 0) std::abort();
    }
    boop_tuning_free(tuning);
    return 0;
}
