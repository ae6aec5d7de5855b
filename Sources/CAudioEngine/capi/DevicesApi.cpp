// C shim for device listing (CAudioEngine.h, "Device listing"): ALSA PCMs and JACK ports in one
// list type, so one reader serves both. Any thread; a list is read by one thread at a time.
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "backend/Backend.hpp"
#include "backend/MidiPorts.hpp"
#include "backend/alsa/AlsaDevices.hpp"
#include "backend/jack/JackClient.hpp"
#include "capi/Guarded.hpp"
#include "include/CAudioEngine.h"

struct boop_device_list {
    std::vector<boop::DeviceEntry> entries;
};

namespace {

boop_status listJack(std::vector<boop::DeviceEntry>& out) {
    std::vector<boop::JackPortEntry> ports;
    const boop_status s = boop::listJackPorts(ports);
    if (s != BOOP_OK) return s;
    for (const auto& p : ports) {
        boop::DeviceEntry e;
        e.name = p.name;
        e.description = std::string(p.physical ? "physical " : "") +
                        (p.acceptsAudio ? "playback port (takes audio)" : "capture port (gives audio)");
        e.playback = p.acceptsAudio;
        e.capture = p.producesAudio;
        out.push_back(std::move(e));
    }
    return BOOP_OK;
}

template <class List>
boop_status create(boop_device_list** out_list, List list) {
    if (out_list == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    *out_list = nullptr;
    return boop::capi::guarded([&] {
        auto l = std::make_unique<boop_device_list>();
        const boop_status s = list(l->entries);
        if (s != BOOP_OK) return s;
        *out_list = l.release();
        return BOOP_OK;
    });
}

}  // namespace

extern "C" {

boop_status boop_device_list_create(boop_device_list** out_list) { return create(out_list, boop::listAlsaPcms); }

boop_status boop_device_list_create_jack(boop_device_list** out_list) { return create(out_list, listJack); }

boop_status boop_device_list_create_midi(boop_device_list** out_list) {
    return create(out_list, [](std::vector<boop::DeviceEntry>& out) {
        boop::listMidiPorts(out);
        return BOOP_OK;
    });
}

size_t boop_device_list_count(const boop_device_list* list) { return list != nullptr ? list->entries.size() : 0; }

boop_device_info boop_device_list_get(const boop_device_list* list, size_t index) {
    boop_device_info info{};
    info.name = "";
    info.description = "";
    if (list == nullptr || index >= list->entries.size()) return info;
    const boop::DeviceEntry& e = list->entries[index];
    info.name = e.name.c_str();
    info.description = e.description.c_str();
    info.playback = e.playback ? 1 : 0;
    info.capture = e.capture ? 1 : 0;
    info.is_default = e.name == "default" ? 1 : 0;
    return info;
}

void boop_device_list_destroy(boop_device_list* list) { delete list; }

}  // extern "C"
