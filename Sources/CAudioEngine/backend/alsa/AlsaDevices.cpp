// ALSA PCM listing through snd_device_name_hint, for `boop devices`.
#include <alsa/asoundlib.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "backend/jack/JackClient.hpp"
#include "include/CAudioEngine.h"

namespace {

struct Entry {
    std::string name;
    std::string description;
    bool playback = false;
    bool capture = false;
};

// ALSA descriptions are multi-line ("HDA Intel PCH, ALC892 Analog\nFront output / input").
std::string oneLine(const char* text) {
    std::string out;
    if (text == nullptr) return out;
    for (const char* p = text; *p != '\0'; ++p) {
        if (*p == '\n') {
            if (!out.empty() && out.back() != ' ') out += " - ";
        } else {
            out += *p;
        }
    }
    while (!out.empty() && (out.back() == ' ' || out.back() == '-')) out.pop_back();
    return out;
}

}  // namespace

struct boop_device_list {
    std::vector<Entry> entries;
};

extern "C" {

boop_status boop_device_list_create(boop_device_list** out_list) {
    if (out_list == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    *out_list = nullptr;
    void** hints = nullptr;
    if (snd_device_name_hint(-1, "pcm", &hints) < 0 || hints == nullptr) return BOOP_ERROR_DEVICE_UNAVAILABLE;
    boop_status status = BOOP_OK;
    auto* list = new (std::nothrow) boop_device_list();
    if (list == nullptr) {
        snd_device_name_free_hint(hints);
        return BOOP_ERROR_OUT_OF_MEMORY;
    }
    try {
        for (void** h = hints; *h != nullptr; ++h) {
            char* name = snd_device_name_get_hint(*h, "NAME");
            char* desc = snd_device_name_get_hint(*h, "DESC");
            char* ioid = snd_device_name_get_hint(*h, "IOID");  // NULL = both directions
            if (name != nullptr && std::strcmp(name, "null") != 0) {
                Entry e;
                e.name = name;
                e.description = oneLine(desc);
                e.playback = ioid == nullptr || std::strcmp(ioid, "Output") == 0;
                e.capture = ioid == nullptr || std::strcmp(ioid, "Input") == 0;
                // Duplicate names (some configs list a PCM twice) merge their directions.
                bool merged = false;
                for (Entry& existing : list->entries) {
                    if (existing.name == e.name) {
                        existing.playback |= e.playback;
                        existing.capture |= e.capture;
                        merged = true;
                        break;
                    }
                }
                if (!merged) list->entries.push_back(std::move(e));
            }
            free(name);
            free(desc);
            free(ioid);
        }
    } catch (...) {
        status = BOOP_ERROR_OUT_OF_MEMORY;
    }
    snd_device_name_free_hint(hints);
    try {
        // ALSA always defines "default", but only hints it when a config (such as the pulse
        // plugin's, while a server runs) gives it a description. List it first either way.
        auto it = std::find_if(list->entries.begin(), list->entries.end(),
                               [](const Entry& e) { return e.name == "default"; });
        if (it == list->entries.end()) {
            Entry e;
            e.name = "default";
            e.description = "Default ALSA device";
            e.playback = e.capture = true;
            list->entries.insert(list->entries.begin(), std::move(e));
        } else if (it != list->entries.begin()) {
            std::rotate(list->entries.begin(), it, it + 1);
        }
    } catch (...) {
        status = BOOP_ERROR_OUT_OF_MEMORY;
    }
    if (status != BOOP_OK) {
        delete list;
        return status;
    }
    *out_list = list;
    return BOOP_OK;
}

// The JACK ports share the list type with the ALSA PCMs, so one reader serves both.
boop_status boop_device_list_create_jack(boop_device_list** out_list) {
    if (out_list == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    *out_list = nullptr;
    auto* list = new (std::nothrow) boop_device_list();
    if (list == nullptr) return BOOP_ERROR_OUT_OF_MEMORY;
    try {
        std::vector<boop::JackPortEntry> ports;
        const boop_status s = boop::listJackPorts(ports);
        if (s != BOOP_OK) {
            delete list;
            return s;
        }
        for (const auto& p : ports) {
            Entry e;
            e.name = p.name;
            e.description = std::string(p.physical ? "physical " : "") +
                            (p.acceptsAudio ? "playback port (takes audio)" : "capture port (gives audio)");
            e.playback = p.acceptsAudio;
            e.capture = p.producesAudio;
            list->entries.push_back(std::move(e));
        }
    } catch (...) {
        delete list;
        return BOOP_ERROR_OUT_OF_MEMORY;
    }
    *out_list = list;
    return BOOP_OK;
}

size_t boop_device_list_count(const boop_device_list* list) { return list != nullptr ? list->entries.size() : 0; }

boop_device_info boop_device_list_get(const boop_device_list* list, size_t index) {
    boop_device_info info{};
    info.name = "";
    info.description = "";
    if (list == nullptr || index >= list->entries.size()) return info;
    const Entry& e = list->entries[index];
    info.name = e.name.c_str();
    info.description = e.description.c_str();
    info.playback = e.playback ? 1 : 0;
    info.capture = e.capture ? 1 : 0;
    info.is_default = e.name == "default" ? 1 : 0;
    return info;
}

void boop_device_list_destroy(boop_device_list* list) { delete list; }

}  // extern "C"
