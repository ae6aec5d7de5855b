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

bool Lv2Tuning::request(const void* data, uint32_t size, double (&hz)[kKeys], int32_t& sequence, std::string& why) {
    Request r{};
    const uint32_t header = kRequestHeader;
    sequence = 0;
    if (size <= header || size > sizeof r) {
        why = "a tuning request of an unexpected size";
        return false;
    }
    std::memcpy(&r, data, size);
    sequence = r.sequence;
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

std::vector<uint8_t> Lv2Tuning::answer(bool ok, int32_t sequence, const double (&hz)[kKeys], const std::string& scale,
                                       const std::string& mapping) {
    const AnswerHead head{ok ? 1u : 0u, sequence, static_cast<uint32_t>(scale.size()),
                          static_cast<uint32_t>(mapping.size())};
    std::vector<uint8_t> bytes(sizeof head + sizeof hz + scale.size() + 1 + mapping.size() + 1, 0);
    uint8_t* at = bytes.data();
    std::memcpy(at, &head, sizeof head);
    std::memcpy(at += sizeof head, hz, sizeof hz);
    std::memcpy(at += sizeof hz, scale.data(), scale.size());
    std::memcpy(at + scale.size() + 1, mapping.data(), mapping.size());
    return bytes;
}

// The host hands the answer back as it was given (possibly unaligned: copied out, never cast).
bool Lv2Tuning::read(const void* data, uint32_t size, double (&hz)[kKeys], Answer& answer) BOOP_RT {
    AnswerHead head;
    if (size < sizeof head + sizeof hz) return false;
    std::memcpy(&head, data, sizeof head);
    const uint64_t expected =
        uint64_t(sizeof head) + sizeof hz + uint64_t(head.scaleLength) + 1 + head.mappingLength + 1;
    if (expected != size || head.scaleLength >= kPathMax || head.mappingLength >= kPathMax) return false;
    const auto* bytes = static_cast<const char*>(data);
    std::memcpy(hz, bytes + sizeof head, sizeof hz);
    answer.ok = head.ok != 0;
    answer.sequence = head.sequence;
    answer.scale = bytes + sizeof head + sizeof hz;
    answer.scaleLength = head.scaleLength;
    answer.mapping = answer.scale + head.scaleLength + 1;
    answer.mappingLength = head.mappingLength;
    return true;
}

void Lv2Tuning::paths(std::string& scale, std::string& mapping) const {
    std::lock_guard<std::mutex> hold(lock_);
    scale = scale_;
    mapping = mapping_;
}

}  // namespace boop::lv2
