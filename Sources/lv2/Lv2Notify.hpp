#pragma once
// boop.lv2's notify port: what the plugin tells the host about its tuning, so that a host's
// property view (jalv's generic UI, Ardour, Carla) shows the files in force. run() writes the
// block's atom sequence with the atom forge into the buffer the host connected, whose atom size
// the host set to its capacity:
// - a patch:Set of boop#scl and of boop#kbm (atom:Path, "" for none) in answer to a patch:Get
//   (of one of them, or of none: both), on the Get's frame;
// - after the worker made a tuning (a patch:Set's request) or state restore read one, both
//   again, at the next block's first frame; a request that failed reports the files still in
//   force the same way (the host's view goes back to them);
// - a patch:Ack or patch:Error carrying the patch:sequenceNumber of a request that had one, at
//   the next block's first frame (a request refused in run(): on its frame).
// A message the buffer has no room for waits for the next block.
#include <lv2/atom/atom.h>
#include <lv2/atom/forge.h>
#include <lv2/urid/urid.h>

#include <cstdint>

#include "Lv2Tuning.hpp"
#include "rt/Realtime.hpp"

namespace boop::lv2 {

// The URIDs of the notify port's messages (mapped in instantiate).
struct Lv2NotifyUrids {
    LV2_URID patchSet = 0, patchAck = 0, patchError = 0, patchProperty = 0, patchValue = 0, patchSequence = 0;
    LV2_URID scale = 0, mapping = 0;
};

class Lv2Notify {
  public:
    // instantiate: the forge's URIDs (urid:map is not called again).
    void init(const LV2_URID_Map& map, const Lv2NotifyUrids& urids) noexcept;
    void connect(void* data) noexcept { port_ = static_cast<LV2_Atom_Sequence*>(data); }

    // run(): opens the block's sequence and writes what waits; close() ends it.
    void open() BOOP_RT;
    void close() BOOP_RT;
    // run(): a patch:Get of `property` (0: every property) answered at `frame` (one of no such
    // property: a patch:Error when it has a sequence number).
    void get(int64_t frame, LV2_URID property, int32_t sequence) BOOP_RT;
    // run(): a patch:Set of `property` that will not be worked (no worker, a value that is no
    // path, the worker's queue full): the file in force reported back, and a patch:Error.
    void refused(int64_t frame, LV2_URID property, int32_t sequence) BOOP_RT;
    // run() context or state restore (never concurrently with run()): the files now in force,
    // reported at the next block's start, with the Ack or Error of the request (sequence > 0).
    void inForce(const Lv2Tuning::Answer& answer) BOOP_RT;

  private:
    enum : uint32_t { kScaleBit = 1, kMappingBit = 2, kBoth = 3 };
    static constexpr int kResponses = 8;  // Acks and Errors waiting (beyond: dropped)
    struct Response {
        bool ok;
        int32_t sequence;
    };
    void flush() BOOP_RT;
    bool room(uint32_t bytes) const BOOP_RT;
    bool writeSet(int64_t frame, LV2_URID property, int32_t sequence) BOOP_RT;
    bool writeResponse(int64_t frame, const Response& response) BOOP_RT;
    // An Ack or Error (when `sequence` > 0): at `frame` when nothing waits before it, else queued.
    void respond(int64_t frame, bool ok, int32_t sequence) BOOP_RT;

    Lv2NotifyUrids urids_;
    LV2_Atom_Forge forge_{};
    LV2_Atom_Forge_Frame sequence_{};
    LV2_Atom_Sequence* port_ = nullptr;
    bool opened_ = false;
    uint32_t waiting_ = 0;  // kScaleBit | kMappingBit: Sets not yet written
    int32_t waitingSequence_ = 0;
    Response responses_[kResponses] = {};
    int responseCount_ = 0;
    char scale_[Lv2Tuning::kPathMax] = {};
    char mapping_[Lv2Tuning::kPathMax] = {};
    uint32_t scaleLength_ = 0, mappingLength_ = 0;
};

}  // namespace boop::lv2
