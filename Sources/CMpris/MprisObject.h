// The MPRIS object's state, shared by the lifecycle (CMpris.c) and the D-Bus tables
// (MprisVtable.c). Private to CMpris: the public contract is include/CMpris.h.
#pragma once
#include "CMpris.h"

#include <stdbool.h>
#include <stdint.h>

#include <systemd/sd-bus.h>

#define OBJECT_PATH "/org/mpris/MediaPlayer2"
#define ROOT_IFACE "org.mpris.MediaPlayer2"
#define PLAYER_IFACE "org.mpris.MediaPlayer2.Player"
// MPRIS reserves /org/mpris for itself; track ids live under the application's own prefix.
#define TRACK_PREFIX "/org/pixelboop/track/"
#define QUEUE_CAPACITY 64

struct boop_mpris {
    sd_bus* bus;
    sd_bus_slot* root_slot;
    sd_bus_slot* player_slot;
    char* name;
    char* identity;
    int wake_fd;

    boop_mpris_playback playback;
    bool has_metadata;
    char* title;
    int64_t length_us;
    unsigned track_number;
    bool can_go_next_previous;
    // Asked for the position whenever a client reads it (nil: 0).
    boop_mpris_position_fn position_fn;
    void* position_context;

    boop_mpris_command queue[QUEUE_CAPACITY];
    unsigned queue_head;
    unsigned queue_count;
};

// Position as a client reads it: the source's answer, within 0 ... the length when one is known.
int64_t boop_mpris_position_now(const boop_mpris* m);

// The two interfaces' methods and properties; userdata is the boop_mpris.
extern const sd_bus_vtable boop_mpris_root_vtable[];
extern const sd_bus_vtable boop_mpris_player_vtable[];
