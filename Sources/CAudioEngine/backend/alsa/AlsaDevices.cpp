#include "backend/alsa/AlsaDevices.hpp"

#include <alsa/asoundlib.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

namespace boop {

namespace {

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

// Adds one hint; duplicate names (some configs list a PCM twice) merge their directions.
void addHint(std::vector<DeviceEntry>& out, const char* name, const char* desc, const char* ioid) {
    if (name == nullptr || std::strcmp(name, "null") == 0) return;
    DeviceEntry e;
    e.name = name;
    e.description = oneLine(desc);
    e.playback = ioid == nullptr || std::strcmp(ioid, "Output") == 0;  // no IOID: both directions
    e.capture = ioid == nullptr || std::strcmp(ioid, "Input") == 0;
    for (DeviceEntry& existing : out) {
        if (existing.name == e.name) {
            existing.playback |= e.playback;
            existing.capture |= e.capture;
            return;
        }
    }
    out.push_back(std::move(e));
}

// ALSA always defines "default", but only hints it when a config (such as the pulse plugin's,
// while a server runs) gives it a description. List it first either way.
void putDefaultFirst(std::vector<DeviceEntry>& out) {
    auto it = std::find_if(out.begin(), out.end(), [](const DeviceEntry& e) { return e.name == "default"; });
    if (it == out.end()) {
        DeviceEntry e;
        e.name = "default";
        e.description = "Default ALSA device";
        e.playback = e.capture = true;
        out.insert(out.begin(), std::move(e));
    } else if (it != out.begin()) {
        std::rotate(out.begin(), it, it + 1);
    }
}

}  // namespace

boop_status listAlsaPcms(std::vector<DeviceEntry>& out) {
    void** hints = nullptr;
    if (snd_device_name_hint(-1, "pcm", &hints) < 0 || hints == nullptr) return BOOP_ERROR_DEVICE_UNAVAILABLE;
    try {
        for (void** h = hints; *h != nullptr; ++h) {
            char* name = snd_device_name_get_hint(*h, "NAME");
            char* desc = snd_device_name_get_hint(*h, "DESC");
            char* ioid = snd_device_name_get_hint(*h, "IOID");
            try {
                addHint(out, name, desc, ioid);
            } catch (...) {
                std::free(name);
                std::free(desc);
                std::free(ioid);
                throw;
            }
            std::free(name);
            std::free(desc);
            std::free(ioid);
        }
    } catch (...) {
        snd_device_name_free_hint(hints);
        throw;
    }
    snd_device_name_free_hint(hints);
    putDefaultFirst(out);
    return BOOP_OK;
}

}  // namespace boop
