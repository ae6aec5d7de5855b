// boop.lv2's notify port (see Lv2Notify.hpp).
#include "Lv2Notify.hpp"

#include <lv2/patch/patch.h>

#include <cstring>

namespace boop::lv2 {

namespace {
// The bytes a message takes at most: the event's header (time, size, type), the object's header
// and body header, and each key (8) with its value (an atom header, the body padded to 8).
constexpr uint32_t kEventHeader = sizeof(LV2_Atom_Event) + sizeof(LV2_Atom_Object);
constexpr uint32_t kKeyedInt = 8 + sizeof(LV2_Atom) + 8;
constexpr uint32_t kSetBytes = kEventHeader + kKeyedInt /* sequence number */ + kKeyedInt /* property */ + 8 +
                               sizeof(LV2_Atom) + 8 /* the path's NUL and padding */;
constexpr uint32_t kResponseBytes = kEventHeader + kKeyedInt;

void keep(const char* from, uint32_t length, char (&into)[Lv2Tuning::kPathMax], uint32_t& kept) BOOP_RT {
    // Longer than PATH_MAX: no file the worker could have read (kept empty rather than cut).
    kept = from != nullptr && length < Lv2Tuning::kPathMax ? length : 0;
    if (kept > 0) std::memcpy(into, from, kept);
    into[kept] = '\0';
}
}  // namespace

void Lv2Notify::init(const LV2_URID_Map& map, const Lv2NotifyUrids& urids) noexcept {
    urids_ = urids;
    lv2_atom_forge_init(&forge_, const_cast<LV2_URID_Map*>(&map));
}

// The forge's functions are static inline writes into the host's buffer (no allocation, lock or
// call out), but not annotated.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#pragma clang diagnostic ignored "-Wfunction-effects"
#endif
void Lv2Notify::open() BOOP_RT {
    opened_ = false;
    if (port_ == nullptr) return;
    lv2_atom_forge_set_buffer(&forge_, reinterpret_cast<uint8_t*>(port_), port_->atom.size);
    opened_ = lv2_atom_forge_sequence_head(&forge_, &sequence_, 0) != 0;
    if (opened_) flush();
}

void Lv2Notify::close() BOOP_RT {
    if (opened_) lv2_atom_forge_pop(&forge_, &sequence_);
    opened_ = false;
}

bool Lv2Notify::room(uint32_t bytes) const BOOP_RT { return forge_.size - forge_.offset >= bytes; }

bool Lv2Notify::writeSet(int64_t frame, LV2_URID property, int32_t sequence) BOOP_RT {
    const bool scale = property == urids_.scale;
    const uint32_t length = scale ? scaleLength_ : mappingLength_;
    if (!opened_ || !room(kSetBytes + length)) return false;
    LV2_Atom_Forge_Frame object;
    lv2_atom_forge_frame_time(&forge_, frame);
    lv2_atom_forge_object(&forge_, &object, 0, urids_.patchSet);
    if (sequence > 0) {
        lv2_atom_forge_key(&forge_, urids_.patchSequence);
        lv2_atom_forge_int(&forge_, sequence);
    }
    lv2_atom_forge_key(&forge_, urids_.patchProperty);
    lv2_atom_forge_urid(&forge_, property);
    lv2_atom_forge_key(&forge_, urids_.patchValue);
    lv2_atom_forge_path(&forge_, scale ? scale_ : mapping_, length);
    lv2_atom_forge_pop(&forge_, &object);
    return true;
}

bool Lv2Notify::writeResponse(int64_t frame, const Response& response) BOOP_RT {
    if (!opened_ || !room(kResponseBytes)) return false;
    LV2_Atom_Forge_Frame object;
    lv2_atom_forge_frame_time(&forge_, frame);
    lv2_atom_forge_object(&forge_, &object, 0, response.ok ? urids_.patchAck : urids_.patchError);
    lv2_atom_forge_key(&forge_, urids_.patchSequence);
    lv2_atom_forge_int(&forge_, response.sequence);
    lv2_atom_forge_pop(&forge_, &object);
    return true;
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

// What waits, at the block's first frame: the files in force, then the requests' Acks and Errors.
void Lv2Notify::flush() BOOP_RT {
    if ((waiting_ & kScaleBit) != 0 && writeSet(0, urids_.scale, waitingSequence_)) waiting_ &= ~kScaleBit;
    if ((waiting_ & kMappingBit) != 0 && writeSet(0, urids_.mapping, waitingSequence_)) waiting_ &= ~kMappingBit;
    if (waiting_ != 0) return;  // the Acks after the values they acknowledge
    int written = 0;
    while (written < responseCount_ && writeResponse(0, responses_[written])) ++written;
    for (int r = written; r < responseCount_; ++r) responses_[r - written] = responses_[r];
    responseCount_ -= written;
}

void Lv2Notify::get(int64_t frame, LV2_URID property, int32_t sequence) BOOP_RT {
    const uint32_t wanted = property == 0                ? kBoth
                            : property == urids_.scale   ? kScaleBit
                            : property == urids_.mapping ? kMappingBit
                                                         : 0u;
    if ((wanted & kScaleBit) != 0 && !writeSet(frame, urids_.scale, sequence)) {
        waiting_ |= kScaleBit;
        waitingSequence_ = sequence;
    }
    if ((wanted & kMappingBit) != 0 && !writeSet(frame, urids_.mapping, sequence)) {
        waiting_ |= kMappingBit;
        waitingSequence_ = sequence;
    }
    if (wanted == 0) respond(frame, false, sequence);
}

void Lv2Notify::refused(int64_t frame, LV2_URID property, int32_t sequence) BOOP_RT {
    get(frame, property, 0);
    respond(frame, false, sequence);
}

void Lv2Notify::respond(int64_t frame, bool ok, int32_t sequence) BOOP_RT {
    if (sequence <= 0) return;
    const Response response{ok, sequence};
    if (waiting_ == 0 && responseCount_ == 0 && writeResponse(frame, response)) return;
    if (responseCount_ < kResponses) responses_[responseCount_++] = response;
}

void Lv2Notify::inForce(const Lv2Tuning::Answer& answer) BOOP_RT {
    keep(answer.scale, answer.scaleLength, scale_, scaleLength_);
    keep(answer.mapping, answer.mappingLength, mapping_, mappingLength_);
    waiting_ = kBoth;
    waitingSequence_ = 0;
    respond(0, answer.ok, answer.sequence);
}

}  // namespace boop::lv2
