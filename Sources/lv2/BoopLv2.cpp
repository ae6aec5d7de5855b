// boop.lv2: the LV2 entry points (descriptor, instance, state) around Lv2Synth. The state holds
// the channel setup: the voice of each of the 16 channels, as one string of names.
#include <lv2/core/lv2.h>
#include <lv2/midi/midi.h>
#include <lv2/state/state.h>
#include <lv2/urid/urid.h>

#include <cstddef>
#include <cstring>

#include "Lv2Synth.hpp"

namespace boop::lv2 {
namespace {

constexpr const char* kUri = "https://github.com/pixelboop/pixelboop-linux/lv2/boop";
constexpr const char* kVoicesKey = "https://github.com/pixelboop/pixelboop-linux/lv2/boop#channelVoices";
constexpr int kVoiceNameCount = kVoiceCount;  // kVoiceNames: Lv2Synth.hpp

struct Instance {
    std::unique_ptr<Lv2Synth> synth;
    LV2_URID voicesKey = 0;
    LV2_URID atomString = 0;
};

const LV2_URID_Map* findMap(const LV2_Feature* const* features) {
    for (int i = 0; features != nullptr && features[i] != nullptr; ++i)
        if (std::strcmp(features[i]->URI, LV2_URID__map) == 0)
            return static_cast<const LV2_URID_Map*>(features[i]->data);
    return nullptr;
}

LV2_Handle instantiate(const LV2_Descriptor*, double rate, const char*, const LV2_Feature* const* features) {
    const LV2_URID_Map* map = findMap(features);
    if (map == nullptr) return nullptr;  // required by boop.ttl: the host knows it cannot load boop
    try {
        auto* instance = new Instance;
        instance->synth = Lv2Synth::create(rate, map->map(map->handle, LV2_MIDI__MidiEvent));
        instance->voicesKey = map->map(map->handle, kVoicesKey);
        instance->atomString = map->map(map->handle, LV2_ATOM__String);
        if (!instance->synth) {
            delete instance;
            return nullptr;
        }
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

// "melody chords bass melody ... drums ...": the 16 channels' voices, by name.
LV2_State_Status save(LV2_Handle handle, LV2_State_Store_Function store, LV2_State_Handle state, uint32_t,
                      const LV2_Feature* const*) {
    const Instance& instance = *static_cast<Instance*>(handle);
    char text[MidiSynth::kChannels * 12] = {};
    std::size_t length = 0;
    for (int c = 0; c < MidiSynth::kChannels; ++c) {
        const char* name = kVoiceNames[instance.synth->channelVoice(c)];
        if (c > 0) text[length++] = ' ';
        std::memcpy(text + length, name, std::strlen(name));
        length += std::strlen(name);
    }
    return store(state, instance.voicesKey, text, length + 1, instance.atomString,
                 LV2_STATE_IS_POD | LV2_STATE_IS_PORTABLE);
}

// Unknown names and missing channels keep boop synth's defaults for those channels.
LV2_State_Status restore(LV2_Handle handle, LV2_State_Retrieve_Function retrieve, LV2_State_Handle state, uint32_t,
                         const LV2_Feature* const*) {
    Instance& instance = *static_cast<Instance*>(handle);
    std::size_t size = 0;
    uint32_t type = 0, flags = 0;
    const auto* text = static_cast<const char*>(retrieve(state, instance.voicesKey, &size, &type, &flags));
    if (text == nullptr || type != instance.atomString) return LV2_STATE_SUCCESS;
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
    return LV2_STATE_SUCCESS;
}

const void* extensionData(const char* uri) {
    static const LV2_State_Interface state{save, restore};
    return std::strcmp(uri, LV2_STATE__interface) == 0 ? &state : nullptr;
}

const LV2_Descriptor kDescriptor{kUri, instantiate, connectPort, activate, run, nullptr, cleanup, extensionData};

}  // namespace
}  // namespace boop::lv2

LV2_SYMBOL_EXPORT const LV2_Descriptor* lv2_descriptor(uint32_t index) {
    return index == 0 ? &boop::lv2::kDescriptor : nullptr;
}
