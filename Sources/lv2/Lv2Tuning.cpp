// boop.lv2's tuning (see Lv2Tuning.hpp): the engine's Scala reader (boop_tuning_load) behind the
// LV2 worker and state.
#include "Lv2Tuning.hpp"

#include <cstring>

#include "dsp/MidiPitch.hpp"
#include "include/CAudioEngine.h"

namespace boop::lv2 {

void Lv2Tuning::equalTemperament(double (&hz)[kKeys]) noexcept {
    for (int key = 0; key < kKeys; ++key) hz[key] = dsp::midiKeyHz(key);
}

bool Lv2Tuning::request(const void* data, uint32_t size, double (&hz)[kKeys], std::string& why) {
    Request r{};
    const uint32_t header = sizeof r.which;
    if (size <= header || size > sizeof r) {
        why = "a tuning request of an unexpected size";
        return false;
    }
    std::memcpy(&r, data, size);
    const std::string path(r.path, strnlen(r.path, size - header));
    std::string scale, mapping;
    paths(scale, mapping);
    (r.which == kScale ? scale : mapping) = path;
    return load(scale, mapping, hz, why);
}

bool Lv2Tuning::load(const std::string& scale, const std::string& mapping, double (&hz)[kKeys], std::string& why) {
    equalTemperament(hz);
    if (!scale.empty()) {
        boop_tuning* tuning = nullptr;
        char reason[512] = "";
        const boop_status status = boop_tuning_load(scale.c_str(), mapping.empty() ? nullptr : mapping.c_str(), &tuning,
                                                    reason, sizeof reason);
        if (status != BOOP_OK) {
            const bool inMapping = std::strncmp(reason, "mapping, ", 9) == 0;
            why = (inMapping ? mapping : scale) + ": " + (inMapping ? reason + 9 : reason);
            return false;
        }
        for (int key = 0; key < kKeys; ++key) hz[key] = boop_tuning_key_hz(tuning, key);
        boop_tuning_free(tuning);
    }
    std::lock_guard<std::mutex> hold(lock_);
    scale_ = scale;
    mapping_ = mapping;
    return true;
}

void Lv2Tuning::paths(std::string& scale, std::string& mapping) const {
    std::lock_guard<std::mutex> hold(lock_);
    scale = scale_;
    mapping = mapping_;
}

}  // namespace boop::lv2
