// MPRIS 2.2 over sd-bus. See include/CMpris.h for the contract.
//
// Remote calls only queue commands; the application acts on them through the same path as its
// keyboard and then reports the real state back. So a PlayPause that the app cannot honour (for
// example while a render is finishing) never makes PlaybackStatus lie.
#define _GNU_SOURCE
#include "MprisObject.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <systemd/sd-bus.h>

static const struct {
    boop_mpris_status status;
    const char* text;
} status_texts[] = {
    {BOOP_MPRIS_OK, "ok"},
    {BOOP_MPRIS_ERROR_INVALID_ARGUMENT, "invalid argument"},
    {BOOP_MPRIS_ERROR_NO_SESSION_BUS, "no D-Bus session bus"},
    {BOOP_MPRIS_ERROR_NAME_TAKEN, "the MPRIS bus name is already taken"},
    {BOOP_MPRIS_ERROR_BUS, "D-Bus error"},
    {BOOP_MPRIS_ERROR_OUT_OF_MEMORY, "out of memory"},
};

const char* boop_mpris_status_string(boop_mpris_status status) {
    for (size_t i = 0; i < sizeof status_texts / sizeof status_texts[0]; ++i)
        if (status_texts[i].status == status) return status_texts[i].text;
    return "unknown status";
}

// ---- lifecycle -------------------------------------------------------------------------------

static bool is_unreachable(int err) {
    switch (err) {
        case ENOENT:
        case ECONNREFUSED:
        case ECONNRESET:
        case ENOTCONN:
        case EPIPE:
        case ENOMEDIUM:
        case EACCES:
        case EPERM:
        case ENXIO:
        case EHOSTDOWN:
        case EHOSTUNREACH:
        case ETIMEDOUT:
        case ESHUTDOWN:
            return true;
        default:
            return false;
    }
}

static boop_mpris_status fail(boop_mpris* m, int r, boop_mpris_status status, int* errno_out) {
    if (errno_out) *errno_out = r < 0 ? -r : r;
    boop_mpris_destroy(m);
    return status;
}

boop_mpris_status boop_mpris_create(const char* bus_address, const char* name_suffix, const char* identity,
                                    boop_mpris** out, int* errno_out) {
    if (errno_out) *errno_out = 0;
    if (!out) return BOOP_MPRIS_ERROR_INVALID_ARGUMENT;
    *out = NULL;

    boop_mpris* m = calloc(1, sizeof *m);
    if (!m) return BOOP_MPRIS_ERROR_OUT_OF_MEMORY;
    m->wake_fd = -1;
    m->length_us = -1;

    char generated[64];
    if (!name_suffix) {
        snprintf(generated, sizeof generated, "boop.instance%ld", (long)getpid());
        name_suffix = generated;
    }
    if (asprintf(&m->name, ROOT_IFACE ".%s", name_suffix) < 0) {
        m->name = NULL;
        return fail(m, -ENOMEM, BOOP_MPRIS_ERROR_OUT_OF_MEMORY, errno_out);
    }
    m->identity = strdup(identity ? identity : "boop");
    m->title = strdup("");
    if (!m->identity || !m->title) return fail(m, -ENOMEM, BOOP_MPRIS_ERROR_OUT_OF_MEMORY, errno_out);
    if (!sd_bus_service_name_is_valid(m->name)) return fail(m, -EINVAL, BOOP_MPRIS_ERROR_INVALID_ARGUMENT, errno_out);

    m->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (m->wake_fd < 0) return fail(m, -errno, BOOP_MPRIS_ERROR_BUS, errno_out);

    int r;
    if (bus_address) {
        r = sd_bus_new(&m->bus);
        if (r < 0) return fail(m, r, BOOP_MPRIS_ERROR_OUT_OF_MEMORY, errno_out);
        r = sd_bus_set_address(m->bus, bus_address);
        if (r >= 0) r = sd_bus_set_bus_client(m->bus, 1);
        if (r < 0) return fail(m, r, BOOP_MPRIS_ERROR_INVALID_ARGUMENT, errno_out);
        r = sd_bus_start(m->bus);
    } else {
        r = sd_bus_open_user(&m->bus);
    }
    if (r < 0) return fail(m, r, BOOP_MPRIS_ERROR_NO_SESSION_BUS, errno_out);

    r = sd_bus_add_object_vtable(m->bus, &m->root_slot, OBJECT_PATH, ROOT_IFACE, boop_mpris_root_vtable, m);
    if (r >= 0)
        r = sd_bus_add_object_vtable(m->bus, &m->player_slot, OBJECT_PATH, PLAYER_IFACE, boop_mpris_player_vtable, m);
    if (r < 0) return fail(m, r, r == -ENOMEM ? BOOP_MPRIS_ERROR_OUT_OF_MEMORY : BOOP_MPRIS_ERROR_BUS, errno_out);

    // The first synchronous call: this is where a missing or refusing bus shows up.
    r = sd_bus_request_name(m->bus, m->name, 0);
    if (r < 0) {
        boop_mpris_status s = (r == -EEXIST || r == -EALREADY) ? BOOP_MPRIS_ERROR_NAME_TAKEN
                              : is_unreachable(-r)             ? BOOP_MPRIS_ERROR_NO_SESSION_BUS
                                                               : BOOP_MPRIS_ERROR_BUS;
        return fail(m, r, s, errno_out);
    }
    *out = m;
    return BOOP_MPRIS_OK;
}

void boop_mpris_destroy(boop_mpris* m) {
    if (!m) return;
    if (m->bus) {
        sd_bus_slot_unref(m->player_slot);
        sd_bus_slot_unref(m->root_slot);
        // Flushes pending signals, then closes; the name goes with the connection.
        sd_bus_flush_close_unref(m->bus);
    }
    if (m->wake_fd >= 0) close(m->wake_fd);
    free(m->name);
    free(m->identity);
    free(m->title);
    free(m);
}

const char* boop_mpris_bus_name(const boop_mpris* m) { return m ? m->name : ""; }

int boop_mpris_fd(const boop_mpris* m) { return m && m->bus ? sd_bus_get_fd(m->bus) : -1; }

void boop_mpris_wake(boop_mpris* m) {
    if (!m || m->wake_fd < 0) return;
    uint64_t one = 1;
    ssize_t ignored = write(m->wake_fd, &one, sizeof one);  // EAGAIN means a wake is already pending
    (void)ignored;
}

static boop_mpris_status emit(boop_mpris* m, const char* property) {
    int r = sd_bus_emit_properties_changed(m->bus, OBJECT_PATH, PLAYER_IFACE, property, NULL);
    return r < 0 ? BOOP_MPRIS_ERROR_BUS : BOOP_MPRIS_OK;
}

boop_mpris_status boop_mpris_set_playback(boop_mpris* m, boop_mpris_playback playback) {
    if (!m || playback < BOOP_MPRIS_STOPPED || playback > BOOP_MPRIS_PAUSED) return BOOP_MPRIS_ERROR_INVALID_ARGUMENT;
    if (m->playback == playback) return BOOP_MPRIS_OK;
    m->playback = playback;
    return emit(m, "PlaybackStatus");
}

boop_mpris_status boop_mpris_set_metadata(boop_mpris* m, const char* title, int64_t length_us) {
    if (!m || !title) return BOOP_MPRIS_ERROR_INVALID_ARGUMENT;
    if (length_us < 0) length_us = -1;
    bool same_title = m->has_metadata && strcmp(m->title, title) == 0;
    if (same_title && m->length_us == length_us) return BOOP_MPRIS_OK;
    if (!same_title) {
        char* copy = strdup(title);
        if (!copy) return BOOP_MPRIS_ERROR_OUT_OF_MEMORY;
        free(m->title);
        m->title = copy;
        m->track_number++;  // a new title is a new track for clients that key on mpris:trackid
    }
    m->length_us = length_us;
    m->has_metadata = true;
    return emit(m, "Metadata");
}

boop_mpris_status boop_mpris_set_can_go_next_previous(boop_mpris* m, int enabled) {
    if (!m) return BOOP_MPRIS_ERROR_INVALID_ARGUMENT;
    if (m->can_go_next_previous == (enabled != 0)) return BOOP_MPRIS_OK;
    m->can_go_next_previous = enabled != 0;
    int r = sd_bus_emit_properties_changed(m->bus, OBJECT_PATH, PLAYER_IFACE, "CanGoNext", "CanGoPrevious", NULL);
    return r < 0 ? BOOP_MPRIS_ERROR_BUS : BOOP_MPRIS_OK;
}

boop_mpris_status boop_mpris_set_position_source(boop_mpris* m, boop_mpris_position_fn fn, void* context) {
    if (!m) return BOOP_MPRIS_ERROR_INVALID_ARGUMENT;
    m->position_fn = fn;
    m->position_context = context;
    return BOOP_MPRIS_OK;
}

int64_t boop_mpris_position_now(const boop_mpris* m) {
    int64_t p = m->position_fn ? m->position_fn(m->position_context) : 0;
    if (p < 0) p = 0;
    return m->length_us >= 0 && p > m->length_us ? m->length_us : p;
}

static int dispatch_all(boop_mpris* m) {
    for (;;) {
        int r = sd_bus_process(m->bus, NULL);
        if (r < 0) return r;
        if (r == 0) return 0;
    }
}

boop_mpris_status boop_mpris_process(boop_mpris* m, int timeout_ms) {
    if (!m) return BOOP_MPRIS_ERROR_INVALID_ARGUMENT;
    if (dispatch_all(m) < 0) return BOOP_MPRIS_ERROR_BUS;
    if (timeout_ms != 0) {
        int events = sd_bus_get_events(m->bus);
        if (events < 0) return BOOP_MPRIS_ERROR_BUS;
        uint64_t bus_timeout_us = UINT64_MAX;  // absolute CLOCK_MONOTONIC deadline of sd-bus's own timers
        int wait = timeout_ms;
        if (sd_bus_get_timeout(m->bus, &bus_timeout_us) >= 0 && bus_timeout_us != UINT64_MAX) {
            struct timespec now;
            clock_gettime(CLOCK_MONOTONIC, &now);
            uint64_t now_us = (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_nsec / 1000u;
            int bus_wait = bus_timeout_us <= now_us ? 0 : (int)((bus_timeout_us - now_us + 999) / 1000);
            if (wait < 0 || bus_wait < wait) wait = bus_wait;
        }
        struct pollfd fds[2] = {
            {.fd = sd_bus_get_fd(m->bus), .events = (short)events},
            {.fd = m->wake_fd, .events = POLLIN},
        };
        int n = poll(fds, 2, wait);
        if (n < 0 && errno != EINTR) return BOOP_MPRIS_ERROR_BUS;
        if (n > 0 && (fds[1].revents & POLLIN)) {
            uint64_t drained;
            ssize_t ignored = read(m->wake_fd, &drained, sizeof drained);
            (void)ignored;
        }
        if (dispatch_all(m) < 0) return BOOP_MPRIS_ERROR_BUS;
    }
    return BOOP_MPRIS_OK;
}

boop_mpris_command boop_mpris_next_command(boop_mpris* m) {
    if (!m || m->queue_count == 0) return BOOP_MPRIS_COMMAND_NONE;
    boop_mpris_command c = m->queue[m->queue_head];
    m->queue_head = (m->queue_head + 1) % QUEUE_CAPACITY;
    m->queue_count--;
    return c;
}
