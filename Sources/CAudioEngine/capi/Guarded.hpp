#pragma once
// What the C entry points share. First, what every one that builds objects does with a C++
// exception: it never crosses the C boundary. Running out of memory is BOOP_ERROR_OUT_OF_MEMORY, anything else
// BOOP_ERROR_INTERNAL. The bodies hold what they build in a std::unique_ptr until it is complete, so a throw halfway (a
// prepare() that allocates) leaks nothing.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <new>

#include "backend/IoThread.hpp"
#include "include/CAudioEngine.h"

namespace boop::capi {

template <class Body>
boop_status guarded(Body&& body) noexcept {
    try {
        return body();
    } catch (const std::bad_alloc&) {
        return BOOP_ERROR_OUT_OF_MEMORY;
    } catch (...) {
        return BOOP_ERROR_INTERNAL;
    }
}

// A stream handle's info and statistics (what its backend reports); for no handle the empty
// ones: a format of "", never null, and INVALID_ARGUMENT as the error.
template <class Info, class Handle>
Info infoOf(const Handle* handle) {
    if (handle != nullptr) return handle->backend->info();
    Info none{};
    none.format = "";
    return none;
}
template <class Stats, class Handle>
Stats statsOf(const Handle* handle) {
    if (handle != nullptr) return handle->backend->stats();
    Stats none{};
    none.error = BOOP_ERROR_INVALID_ARGUMENT;
    return none;
}

// The `why` of an *_open_why call: `reason` (NUL-terminated, cut to `size` bytes), when asked for.
inline void writeWhy(char* why, std::size_t size, const char* reason) noexcept {
    if (why != nullptr && size > 0) std::snprintf(why, size, "%s", reason);
}

// A backend's open as a stream's opener ends it: opened, it becomes the stream's (`out`, a
// unique_ptr of its base); refused, its own reason (openWhy) goes to `why`.
template <class Backend, class Base>
boop_status keepOpened(std::unique_ptr<Backend> backend, boop_status status, std::unique_ptr<Base>& out,
                       const char*& why) {
    if (status == BOOP_OK)
        out = std::move(backend);
    else
        why = backend->openWhy();
    return status;
}

// The defaults a capture and a playback stream share: the ALSA "default" device, its ALSA
// backend's periods and priority, and for JACK a client "boop" connected to the system's ports.
template <class Config>
void setStreamDefaults(Config& config, const boop::PeriodSettings& periods) noexcept {
    config.device = "default";
    config.period_frames = periods.periodFrames;
    config.periods = periods.periods;
    config.realtime_priority = periods.realtimePriority;
    config.backend = BOOP_BACKEND_ALSA;
    config.client_name = "boop";
    config.connect = 1;
}

// A JACK stream's MIDI out (its MidiOutWriter, null when the stream has none), as the capture and
// playback entry points answer for it: a message of 1 ... 3 bytes (checked first), NOT_RUNNING
// without a writer; a panic is done when there is none to finish it.
inline bool validMidiMessage(const uint8_t* bytes, uint32_t size) noexcept {
    return bytes != nullptr && size >= 1 && size <= 3;
}
template <class Writer>
boop_status midiSend(Writer* midi, uint64_t frame, const uint8_t* bytes, uint32_t size) {
    return midi != nullptr ? midi->send(frame, bytes, size) : BOOP_ERROR_NOT_RUNNING;
}
template <class Writer>
boop_status midiPanic(Writer* midi) {
    if (midi == nullptr) return BOOP_ERROR_NOT_RUNNING;
    midi->panic();
    return BOOP_OK;
}
template <class Writer>
int midiPanicDone(const Writer* midi) {
    return midi == nullptr || midi->panicDone() ? 1 : 0;
}

}  // namespace boop::capi
