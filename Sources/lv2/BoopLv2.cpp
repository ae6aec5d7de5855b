// boop.lv2: the LV2 entry points (descriptor, instance, state, worker) around Lv2Synth. The state
// holds the channel setup (the voice of each of the 16 channels, as one string of names) and the
// tuning's files (Lv2Tuning), as paths the host maps; the files in force after a restore or a
// worker's answer are reported on the notify port (Lv2Notify).
#include <lv2/atom/atom.h>
#include <lv2/core/lv2.h>
#include <lv2/log/log.h>
#include <lv2/midi/midi.h>
#include <lv2/patch/patch.h>
#include <lv2/state/state.h>
#include <lv2/urid/urid.h>
#include <lv2/worker/worker.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "Lv2Synth.hpp"

namespace boop::lv2 {
namespace {

constexpr const char* kUri = "https://github.com/pixelboop/pixelboop-linux/lv2/boop";
constexpr const char* kVoicesKey = "https://github.com/pixelboop/pixelboop-linux/lv2/boop#channelVoices";
constexpr const char* kScaleKey = "https://github.com/pixelboop/pixelboop-linux/lv2/boop#scl";
constexpr const char* kMappingKey = "https://github.com/pixelboop/pixelboop-linux/lv2/boop#kbm";
constexpr int kVoiceNameCount = kVoiceCount;  // kVoiceNames: Lv2Synth.hpp

struct Instance {
    std::unique_ptr<Lv2Synth> synth;
    Lv2Tuning tuning;
    Lv2Urids urids;
    LV2_URID voicesKey = 0;
    LV2_URID atomString = 0;
    const LV2_Log_Log* log = nullptr;
    LV2_URID logError = 0;
};

const void* findFeature(const LV2_Feature* const* features, const char* uri) {
    for (int i = 0; features != nullptr && features[i] != nullptr; ++i)
        if (std::strcmp(features[i]->URI, uri) == 0) return features[i]->data;
    return nullptr;
}

Lv2Urids mapUrids(const LV2_URID_Map& map) {
    auto id = [&map](const char* uri) { return map.map(map.handle, uri); };
    Lv2Urids u;
    u.midiEvent = id(LV2_MIDI__MidiEvent);
    u.atomObject = id(LV2_ATOM__Object);
    u.atomBlank = id(LV2_ATOM__Blank);
    u.atomPath = id(LV2_ATOM__Path);
    u.atomUrid = id(LV2_ATOM__URID);
    u.patchSet = id(LV2_PATCH__Set);
    u.patchGet = id(LV2_PATCH__Get);
    u.patchAck = id(LV2_PATCH__Ack);
    u.patchError = id(LV2_PATCH__Error);
    u.patchSequence = id(LV2_PATCH__sequenceNumber);
    u.atomInt = id(LV2_ATOM__Int);
    u.patchProperty = id(LV2_PATCH__property);
    u.patchValue = id(LV2_PATCH__value);
    u.scale = id(kScaleKey);
    u.mapping = id(kMappingKey);
    return u;
}

// A tuning the files do not make: said through the host's log when it has one (never from run()).
void tell(const Instance& instance, const std::string& why) {
    if (instance.log != nullptr)
        instance.log->printf(instance.log->handle, instance.logError, "boop.lv2: tuning not changed: %s\n",
                             why.c_str());
}

LV2_Handle instantiate(const LV2_Descriptor*, double rate, const char*, const LV2_Feature* const* features) {
    const auto* map = static_cast<const LV2_URID_Map*>(findFeature(features, LV2_URID__map));
    if (map == nullptr) return nullptr;  // required by boop.ttl: the host knows it cannot load boop
    try {
        auto* instance = new Instance;
        instance->urids = mapUrids(*map);
        instance->synth = Lv2Synth::create(rate, instance->urids, *map);
        instance->voicesKey = map->map(map->handle, kVoicesKey);
        instance->atomString = map->map(map->handle, LV2_ATOM__String);
        instance->log = static_cast<const LV2_Log_Log*>(findFeature(features, LV2_LOG__log));
        instance->logError = map->map(map->handle, LV2_LOG__Error);
        if (!instance->synth) {
            delete instance;
            return nullptr;
        }
        instance->synth->setWorker(
            static_cast<const LV2_Worker_Schedule*>(findFeature(features, LV2_WORKER__schedule)));
        return instance;
    } catch (...) {
        return nullptr;
    }
}

Lv2Synth& synthOf(LV2_Handle handle) { return *static_cast<Instance*>(handle)->synth; }

void connectPort(LV2_Handle handle, uint32_t port, void* data) { synthOf(handle).connect(port, data); }
void activate(LV2_Handle handle) { synthOf(handle).activate(); }
void run(LV2_Handle handle, uint32_t frames) BOOP_RT { static_cast<Instance*>(handle)->synth->run(frames); }
void cleanup(LV2_Handle handle) { delete static_cast<Instance*>(handle); }

// A tuning file as the host wants it kept: the abstract path of state:mapPath (relative to the
// session, or a link or copy the host made), else the absolute one; nothing when there is none.
LV2_State_Status storePath(const Instance& instance, LV2_State_Store_Function store, LV2_State_Handle state,
                           LV2_URID key, const std::string& path, const LV2_Feature* const* features) {
    if (path.empty()) return LV2_STATE_SUCCESS;
    const auto* map = static_cast<const LV2_State_Map_Path*>(findFeature(features, LV2_STATE__mapPath));
    const auto* free = static_cast<const LV2_State_Free_Path*>(findFeature(features, LV2_STATE__freePath));
    char* abstract = map != nullptr ? map->abstract_path(map->handle, path.c_str()) : nullptr;
    const char* kept = abstract != nullptr ? abstract : path.c_str();
    const LV2_State_Status status = store(state, key, kept, std::strlen(kept) + 1, instance.urids.atomPath,
                                          LV2_STATE_IS_POD | LV2_STATE_IS_PORTABLE);
    if (abstract != nullptr) free != nullptr ? free->free_path(free->handle, abstract) : std::free(abstract);
    return status;
}

// The absolute path of a stored one ("" when the state has none).
std::string retrievePath(const Instance& instance, LV2_State_Retrieve_Function retrieve, LV2_State_Handle state,
                         LV2_URID key, const LV2_Feature* const* features) {
    std::size_t size = 0;
    uint32_t type = 0, flags = 0;
    const auto* value = static_cast<const char*>(retrieve(state, key, &size, &type, &flags));
    if (value == nullptr || type != instance.urids.atomPath) return {};
    const std::string stored(value, strnlen(value, size));
    const auto* map = static_cast<const LV2_State_Map_Path*>(findFeature(features, LV2_STATE__mapPath));
    const auto* free = static_cast<const LV2_State_Free_Path*>(findFeature(features, LV2_STATE__freePath));
    char* absolute = map != nullptr ? map->absolute_path(map->handle, stored.c_str()) : nullptr;
    if (absolute == nullptr) return stored;
    std::string path(absolute);
    free != nullptr ? free->free_path(free->handle, absolute) : std::free(absolute);
    return path;
}

// "melody chords bass melody ... drums ...": the 16 channels' voices, by name; then the tuning's files.
LV2_State_Status save(LV2_Handle handle, LV2_State_Store_Function store, LV2_State_Handle state, uint32_t,
                      const LV2_Feature* const* features) {
    const Instance& instance = *static_cast<Instance*>(handle);
    char text[MidiSynth::kChannels * 12] = {};
    std::size_t length = 0;
    for (int c = 0; c < MidiSynth::kChannels; ++c) {
        const char* name = kVoiceNames[instance.synth->channelVoice(c)];
        if (c > 0) text[length++] = ' ';
        std::memcpy(text + length, name, std::strlen(name));
        length += std::strlen(name);
    }
    LV2_State_Status status = store(state, instance.voicesKey, text, length + 1, instance.atomString,
                                    LV2_STATE_IS_POD | LV2_STATE_IS_PORTABLE);
    try {
        std::string scale, mapping;
        instance.tuning.paths(scale, mapping);
        if (status == LV2_STATE_SUCCESS)
            status = storePath(instance, store, state, instance.urids.scale, scale, features);
        if (status == LV2_STATE_SUCCESS)
            status = storePath(instance, store, state, instance.urids.mapping, mapping, features);
    } catch (...) {
        return LV2_STATE_ERR_UNKNOWN;
    }
    return status;
}

// Unknown names and missing channels keep boop synth's defaults for those channels.
void restoreVoices(Instance& instance, LV2_State_Retrieve_Function retrieve, LV2_State_Handle state) {
    std::size_t size = 0;
    uint32_t type = 0, flags = 0;
    const auto* text = static_cast<const char*>(retrieve(state, instance.voicesKey, &size, &type, &flags));
    if (text == nullptr || type != instance.atomString) return;
    int voices[MidiSynth::kChannels];
    Lv2Synth::defaultVoices(voices);
    const std::size_t length = strnlen(text, size);
    std::size_t at = 0;
    for (int c = 0; c < MidiSynth::kChannels && at < length; ++c) {
        std::size_t end = at;
        while (end < length && text[end] != ' ') ++end;
        for (int v = 0; v < kVoiceNameCount; ++v)
            if (std::strlen(kVoiceNames[v]) == end - at && std::memcmp(text + at, kVoiceNames[v], end - at) == 0)
                voices[c] = v;
        at = end + 1;
    }
    instance.synth->setChannelVoices(voices);
}

// The tuning is read here, as restore is never called concurrently with run(): a state without
// one plays 12-tone equal temperament, and so does one whose files no longer make a tuning.
LV2_State_Status restore(LV2_Handle handle, LV2_State_Retrieve_Function retrieve, LV2_State_Handle state, uint32_t,
                         const LV2_Feature* const* features) {
    Instance& instance = *static_cast<Instance*>(handle);
    restoreVoices(instance, retrieve, state);
    double hz[Lv2Tuning::kKeys];
    try {
        const std::string scale = retrievePath(instance, retrieve, state, instance.urids.scale, features);
        const std::string mapping = retrievePath(instance, retrieve, state, instance.urids.mapping, features);
        std::string why;
        if (!instance.tuning.load(scale, mapping, hz, why)) {
            tell(instance, why);
            instance.tuning.load({}, {}, hz, why);
        }
        std::string inForceScale, inForceMapping;
        instance.tuning.paths(inForceScale, inForceMapping);
        Lv2Tuning::Answer files;
        files.scale = inForceScale.c_str();
        files.scaleLength = static_cast<uint32_t>(inForceScale.size());
        files.mapping = inForceMapping.c_str();
        files.mappingLength = static_cast<uint32_t>(inForceMapping.size());
        instance.synth->restored(files);  // copied: the strings may go
    } catch (...) {
        return LV2_STATE_ERR_UNKNOWN;
    }
    instance.synth->setKeyHz(hz);
    return LV2_STATE_SUCCESS;
}

// The worker: a tuning path from run() read and parsed here; the answer hands back the key
// frequencies and the files in force, the new ones or, when they make no tuning (said through the
// host's log), the previous ones, which stay in force.
LV2_Worker_Status work(LV2_Handle handle, LV2_Worker_Respond_Function respond, LV2_Worker_Respond_Handle answer,
                       uint32_t size, const void* data) {
    Instance& instance = *static_cast<Instance*>(handle);
    double hz[Lv2Tuning::kKeys];
    std::vector<uint8_t> bytes;
    try {
        std::string why, scale, mapping;
        int32_t sequence = 0;
        const bool ok = instance.tuning.request(data, size, hz, sequence, why);
        if (!ok) tell(instance, why);
        instance.tuning.paths(scale, mapping);
        bytes = Lv2Tuning::answer(ok, sequence, hz, scale, mapping);
    } catch (...) {
        return LV2_WORKER_ERR_UNKNOWN;
    }
    return respond(answer, static_cast<uint32_t>(bytes.size()), bytes.data());
}

// In run() context: the answer to the synth and the notify port.
LV2_Worker_Status workResponse(LV2_Handle handle, uint32_t size, const void* data) BOOP_RT {
    return static_cast<Instance*>(handle)->synth->tuned(data, size) ? LV2_WORKER_SUCCESS : LV2_WORKER_ERR_UNKNOWN;
}

const void* extensionData(const char* uri) {
    static const LV2_State_Interface state{save, restore};
    static const LV2_Worker_Interface worker{work, workResponse, nullptr};
    if (std::strcmp(uri, LV2_STATE__interface) == 0) return &state;
    return std::strcmp(uri, LV2_WORKER__interface) == 0 ? &worker : nullptr;
}

const LV2_Descriptor kDescriptor{kUri, instantiate, connectPort, activate, run, nullptr, cleanup, extensionData};

}  // namespace
}  // namespace boop::lv2

LV2_SYMBOL_EXPORT const LV2_Descriptor* lv2_descriptor(uint32_t index) {
    return index == 0 ? &boop::lv2::kDescriptor : nullptr;
}
