// The MPRIS 2.2 D-Bus tables: remote calls only queue commands (see CMpris.c); properties read
// the state the application last reported.
#define _GNU_SOURCE
#include "MprisObject.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void push_command(boop_mpris* m, boop_mpris_command c) {
    if (m->queue_count == QUEUE_CAPACITY) {  // keep the newest: the latest key press is what counts
        m->queue_head = (m->queue_head + 1) % QUEUE_CAPACITY;
        m->queue_count--;
    }
    m->queue[(m->queue_head + m->queue_count) % QUEUE_CAPACITY] = c;
    m->queue_count++;
}

// ---- methods ---------------------------------------------------------------------------------

// A method that queues `command` when `allowed` (an expression of the object `m`) holds; otherwise
// it has no effect, as the spec asks of Next and Previous where there is nothing to go to.
#define COMMAND_METHOD(fn, command, allowed)                                  \
    static int fn(sd_bus_message* msg, void* userdata, sd_bus_error* error) { \
        (void)error;                                                          \
        boop_mpris* m = userdata;                                             \
        if (allowed) push_command(m, command);                                \
        return sd_bus_reply_method_return(msg, NULL);                         \
    }

COMMAND_METHOD(method_quit, BOOP_MPRIS_COMMAND_QUIT, true)
COMMAND_METHOD(method_play_pause, BOOP_MPRIS_COMMAND_PLAY_PAUSE, true)
COMMAND_METHOD(method_play, BOOP_MPRIS_COMMAND_PLAY, true)
COMMAND_METHOD(method_pause, BOOP_MPRIS_COMMAND_PAUSE, true)
COMMAND_METHOD(method_stop, BOOP_MPRIS_COMMAND_STOP, true)
COMMAND_METHOD(method_next, BOOP_MPRIS_COMMAND_NEXT, m->can_go_next_previous)
COMMAND_METHOD(method_previous, BOOP_MPRIS_COMMAND_PREVIOUS, m->can_go_next_previous)

// Raise, Seek, SetPosition, OpenUri: advertised as unsupported (CanRaise/CanSeek false, no URI
// schemes), so MPRIS asks for them to do nothing.
static int method_noop(sd_bus_message* msg, void* userdata, sd_bus_error* error) {
    (void)userdata;
    (void)error;
    return sd_bus_reply_method_return(msg, NULL);
}

// ---- properties ------------------------------------------------------------------------------

// The parameters of a property's getter or setter that boop's do not need (the object is
// `userdata`: the one player).
#define UNUSED_PROPERTY_PARAMETERS \
    (void)bus;                     \
    (void)path;                    \
    (void)iface;                   \
    (void)prop;                    \
    (void)error

static const char* playback_string(boop_mpris_playback p) {
    switch (p) {
        case BOOP_MPRIS_PLAYING:
            return "Playing";
        case BOOP_MPRIS_PAUSED:
            return "Paused";
        case BOOP_MPRIS_STOPPED:
            break;
    }
    return "Stopped";
}

// A property of one value of D-Bus type `type`: `value`, an expression of the object `m`.
#define PROPERTY_GETTER(fn, type, value)                                                                     \
    static int fn(sd_bus* bus, const char* path, const char* iface, const char* prop, sd_bus_message* reply, \
                  void* userdata, sd_bus_error* error) {                                                     \
        UNUSED_PROPERTY_PARAMETERS;                                                                          \
        const boop_mpris* m = userdata;                                                                      \
        (void)m;                                                                                             \
        return sd_bus_message_append(reply, type, value);                                                    \
    }

PROPERTY_GETTER(get_true, "b", 1)
PROPERTY_GETTER(get_false, "b", 0)
PROPERTY_GETTER(get_one, "d", 1.0)
PROPERTY_GETTER(get_empty_strings, "as", 0)
PROPERTY_GETTER(get_identity, "s", m->identity)
PROPERTY_GETTER(get_playback, "s", playback_string(m->playback))
PROPERTY_GETTER(get_can_go, "b", (int)m->can_go_next_previous)
PROPERTY_GETTER(get_position, "x", boop_mpris_position_now(m))

static int get_metadata(sd_bus* bus, const char* path, const char* iface, const char* prop, sd_bus_message* reply,
                        void* userdata, sd_bus_error* error) {
    UNUSED_PROPERTY_PARAMETERS;
    boop_mpris* m = userdata;
    int r = sd_bus_message_open_container(reply, 'a', "{sv}");
    if (r < 0) return r;
    if (m->has_metadata) {
        char track[64];
        snprintf(track, sizeof track, TRACK_PREFIX "%u", m->track_number);
        r = sd_bus_message_append(reply, "{sv}", "mpris:trackid", "o", track);
        if (r >= 0) r = sd_bus_message_append(reply, "{sv}", "xesam:title", "s", m->title);
        if (r >= 0 && m->length_us >= 0) r = sd_bus_message_append(reply, "{sv}", "mpris:length", "x", m->length_us);
        if (r < 0) return r;
    }
    return sd_bus_message_close_container(reply);
}

// Volume and Rate are read/write in MPRIS. boop has no remote volume and plays only at rate 1
// (MinimumRate = MaximumRate = 1), so a write is accepted and has no effect.
static int set_ignored(sd_bus* bus, const char* path, const char* iface, const char* prop, sd_bus_message* value,
                       void* userdata, sd_bus_error* error) {
    UNUSED_PROPERTY_PARAMETERS;
    (void)userdata;
    double ignored;
    return sd_bus_message_read(value, "d", &ignored);
}

#define CONST_PROP SD_BUS_VTABLE_PROPERTY_CONST
#define CHANGING_PROP SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE

const sd_bus_vtable boop_mpris_root_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Raise", "", "", method_noop, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Quit", "", "", method_quit, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_PROPERTY("CanQuit", "b", get_true, 0, CONST_PROP),
    SD_BUS_PROPERTY("CanRaise", "b", get_false, 0, CONST_PROP),
    SD_BUS_PROPERTY("HasTrackList", "b", get_false, 0, CONST_PROP),
    SD_BUS_PROPERTY("Identity", "s", get_identity, 0, CONST_PROP),
    SD_BUS_PROPERTY("SupportedUriSchemes", "as", get_empty_strings, 0, CONST_PROP),
    SD_BUS_PROPERTY("SupportedMimeTypes", "as", get_empty_strings, 0, CONST_PROP),
    SD_BUS_VTABLE_END,
};

const sd_bus_vtable boop_mpris_player_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Next", "", "", method_next, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Previous", "", "", method_previous, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Pause", "", "", method_pause, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("PlayPause", "", "", method_play_pause, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Stop", "", "", method_stop, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Play", "", "", method_play, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Seek", "x", "", method_noop, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("SetPosition", "ox", "", method_noop, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("OpenUri", "s", "", method_noop, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_SIGNAL("Seeked", "x", 0),
    SD_BUS_PROPERTY("PlaybackStatus", "s", get_playback, 0, CHANGING_PROP),
    SD_BUS_WRITABLE_PROPERTY("Rate", "d", get_one, set_ignored, 0, CHANGING_PROP | SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_PROPERTY("Metadata", "a{sv}", get_metadata, 0, CHANGING_PROP),
    SD_BUS_WRITABLE_PROPERTY("Volume", "d", get_one, set_ignored, 0, CHANGING_PROP | SD_BUS_VTABLE_UNPRIVILEGED),
    // Position changes continuously; MPRIS says clients poll it instead of expecting signals.
    SD_BUS_PROPERTY("Position", "x", get_position, 0, 0),
    SD_BUS_PROPERTY("MinimumRate", "d", get_one, 0, CONST_PROP),
    SD_BUS_PROPERTY("MaximumRate", "d", get_one, 0, CONST_PROP),
    SD_BUS_PROPERTY("CanGoNext", "b", get_can_go, 0, CHANGING_PROP),
    SD_BUS_PROPERTY("CanGoPrevious", "b", get_can_go, 0, CHANGING_PROP),
    SD_BUS_PROPERTY("CanPlay", "b", get_true, 0, CONST_PROP),
    SD_BUS_PROPERTY("CanPause", "b", get_true, 0, CONST_PROP),
    SD_BUS_PROPERTY("CanSeek", "b", get_false, 0, CONST_PROP),
    SD_BUS_PROPERTY("CanControl", "b", get_true, 0, CONST_PROP),
    SD_BUS_VTABLE_END,
};
