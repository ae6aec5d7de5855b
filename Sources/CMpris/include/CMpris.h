/*
 * CMpris — MPRIS 2.2 (org.mpris.MediaPlayer2 and org.mpris.MediaPlayer2.Player) on the D-Bus
 * session bus through sd-bus, behind a plain-C API that Swift can import (sd-bus itself is
 * variadic, which Swift cannot call).
 *
 * Model: one opaque handle owns one bus connection and publishes one player at
 * /org/mpris/MediaPlayer2 under the well-known name org.mpris.MediaPlayer2.<suffix>. Remote
 * method calls (media keys, playerctl, desktop widgets) never act directly: they are queued as
 * boop_mpris_command values that the application pops and performs through its own control path,
 * then reports the resulting state back with boop_mpris_set_playback. PlaybackStatus therefore
 * always tells the truth about what is audible.
 *
 * Threading: a handle is confined to one thread at a time (sd-bus is not thread-safe), except
 * boop_mpris_wake, which any thread may call to end a boop_mpris_process wait early.
 * Nothing here may run on an audio thread: it allocates and makes syscalls.
 */
#ifndef CMPRIS_H
#define CMPRIS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct boop_mpris boop_mpris;

typedef enum boop_mpris_status {
    BOOP_MPRIS_OK = 0,
    BOOP_MPRIS_ERROR_INVALID_ARGUMENT = -1,
    /** No session bus could be reached (ssh, CI, no DBUS_SESSION_BUS_ADDRESS / $XDG_RUNTIME_DIR/bus). */
    BOOP_MPRIS_ERROR_NO_SESSION_BUS = -2,
    /** The bus name is owned by another connection. */
    BOOP_MPRIS_ERROR_NAME_TAKEN = -3,
    /** Any other D-Bus failure (connection lost, message could not be sent ...). */
    BOOP_MPRIS_ERROR_BUS = -4,
    BOOP_MPRIS_ERROR_OUT_OF_MEMORY = -5,
} boop_mpris_status;

typedef enum boop_mpris_playback {
    BOOP_MPRIS_STOPPED = 0,
    BOOP_MPRIS_PLAYING = 1,
    BOOP_MPRIS_PAUSED = 2,
} boop_mpris_playback;

/** What a remote client asked for. Quit is the root interface's Quit method. */
typedef enum boop_mpris_command {
    BOOP_MPRIS_COMMAND_NONE = 0,
    BOOP_MPRIS_COMMAND_PLAY_PAUSE = 1,
    BOOP_MPRIS_COMMAND_PLAY = 2,
    BOOP_MPRIS_COMMAND_PAUSE = 3,
    BOOP_MPRIS_COMMAND_STOP = 4,
    BOOP_MPRIS_COMMAND_NEXT = 5,
    BOOP_MPRIS_COMMAND_PREVIOUS = 6,
    BOOP_MPRIS_COMMAND_QUIT = 7,
} boop_mpris_command;

/**
 * A static English description of a status. Never NULL.
 * Thread safety: any thread.
 */
const char* boop_mpris_status_string(boop_mpris_status status);

/**
 * Connects to a bus and publishes a player (status Stopped, no metadata, Next/Previous disabled).
 *
 * Parameters:
 *   bus_address  a D-Bus address ("unix:path=/run/user/1000/bus"), or NULL for the user's session bus
 *                (DBUS_SESSION_BUS_ADDRESS, else $XDG_RUNTIME_DIR/bus). Tests pass a private bus.
 *   name_suffix  the part after "org.mpris.MediaPlayer2.", e.g. "boop.instance1234"; NULL gives
 *                "boop.instance<pid>" (MPRIS's convention for several instances of one player).
 *   identity     the human-readable Identity property, e.g. "PixelBoop"; NULL gives "boop".
 *   out          receives the handle on success, NULL otherwise.
 * Return: BOOP_MPRIS_OK; BOOP_MPRIS_ERROR_NO_SESSION_BUS when no bus answers (the caller should carry
 *   on without media controls); BOOP_MPRIS_ERROR_NAME_TAKEN; BOOP_MPRIS_ERROR_INVALID_ARGUMENT for an
 *   invalid name; BOOP_MPRIS_ERROR_BUS / _OUT_OF_MEMORY otherwise. `errno_out`, when not NULL, receives
 *   the positive errno behind a failure (0 on success) for a detailed message.
 * Thread safety: any thread; the handle then belongs to the caller's thread until handed over.
 */
boop_mpris_status boop_mpris_create(const char* bus_address, const char* name_suffix, const char* identity,
                                    boop_mpris** out, int* errno_out);

/**
 * Releases the bus name, closes the connection and frees the handle. NULL is ignored.
 * Thread safety: the handle's thread.
 */
void boop_mpris_destroy(boop_mpris* mpris);

/**
 * The full bus name, e.g. "org.mpris.MediaPlayer2.boop.instance1234". Valid until destroy.
 * Thread safety: any thread (the string never changes).
 */
const char* boop_mpris_bus_name(const boop_mpris* mpris);

/**
 * Sets PlaybackStatus; emits PropertiesChanged when it differs from the previous value.
 * Return: BOOP_MPRIS_OK, _INVALID_ARGUMENT, or _BUS when the signal cannot be queued.
 * Thread safety: the handle's thread.
 */
boop_mpris_status boop_mpris_set_playback(boop_mpris* mpris, boop_mpris_playback playback);

/**
 * Sets Metadata: xesam:title = `title`, mpris:trackid = a fresh object path under /org/pixelboop/track/
 * whenever the title changes, mpris:length = `length_us` microseconds when >= 0 (omitted when < 0:
 * unknown or endless). Emits PropertiesChanged when anything differs.
 * Parameters: title  UTF-8, not NULL (an empty string is allowed).
 * Thread safety: the handle's thread.
 */
boop_mpris_status boop_mpris_set_metadata(boop_mpris* mpris, const char* title, int64_t length_us);

/**
 * Sets CanGoNext and CanGoPrevious together (ambient presets use them; patterns do not). While
 * disabled, Next and Previous calls have no effect, as MPRIS requires. Emits PropertiesChanged.
 * Thread safety: the handle's thread.
 */
boop_mpris_status boop_mpris_set_can_go_next_previous(boop_mpris* mpris, int enabled);

/** Returns the playback position in microseconds; called with the context it was set with. */
typedef int64_t (*boop_mpris_position_fn)(void* context);

/**
 * Sets what answers the Position property: `fn(context)`, called on the handle's thread each time
 * a client reads it (held within 0 ... the length when one is known; no source: 0). Clients poll
 * Position and MPRIS forbids a change signal for it, so it is asked of the playback's own clock
 * when read, never refreshed on a timer. `fn` must not call back into the handle.
 * Thread safety: the handle's thread, or before the handle's thread first processes.
 */
boop_mpris_status boop_mpris_set_position_source(boop_mpris* mpris, boop_mpris_position_fn fn, void* context);

/**
 * Waits up to `timeout_ms` (0: do not wait; negative: wait indefinitely) for bus traffic or a
 * boop_mpris_wake, then dispatches everything pending: method calls are answered and their
 * commands queued, property reads served, queued signals flushed.
 * Return: BOOP_MPRIS_OK, or BOOP_MPRIS_ERROR_BUS when the connection is gone (the caller should
 *   destroy the handle and carry on without media controls).
 * Thread safety: the handle's thread.
 */
boop_mpris_status boop_mpris_process(boop_mpris* mpris, int timeout_ms);

/**
 * Pops the oldest queued command, or BOOP_MPRIS_COMMAND_NONE when there is none. The queue holds
 * the 64 newest commands; older ones are dropped.
 * Thread safety: the handle's thread.
 */
boop_mpris_command boop_mpris_next_command(boop_mpris* mpris);

/**
 * The bus connection's file descriptor, for callers with their own poll loop: when it is readable
 * (or periodically), call boop_mpris_process(mpris, 0). -1 for NULL.
 * Thread safety: any thread (the descriptor never changes while the handle lives).
 */
int boop_mpris_fd(const boop_mpris* mpris);

/**
 * Makes a boop_mpris_process wait on another thread return at once (e.g. new state to publish, or
 * shutdown). Async-signal-safe: it only writes to an eventfd.
 * Thread safety: any thread, at any time while the handle lives.
 */
void boop_mpris_wake(boop_mpris* mpris);

#ifdef __cplusplus
}
#endif

#endif /* CMPRIS_H */
