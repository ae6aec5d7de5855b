// Standalone smoke test of the CMpris C target, without SwiftPM:
//   clang -std=c11 -Wall -Wextra -Werror -ISources/CMpris/include Sources/CMpris/CMpris.c \
//         Tests/CMprisTests/mpris_smoke.c -lsystemd -o /tmp/mpris_smoke
//   dbus-run-session -- /tmp/mpris_smoke            (publishes a player; drive it with playerctl -p boop)
//   env -u DBUS_SESSION_BUS_ADDRESS XDG_RUNTIME_DIR=/nonexistent /tmp/mpris_smoke   (expects NO_SESSION_BUS)
// It plays the part of `boop play`: commands toggle its status like the space bar would, and
// Quit (or Stop) ends it with exit 0.
#include "CMpris.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
    const char* title = argc > 1 ? argv[1] : "Demo";
    int next_previous = argc > 2 && strcmp(argv[2], "--next-previous") == 0;
    boop_mpris* m = NULL;
    int err = 0;
    boop_mpris_status s = boop_mpris_create(NULL, NULL, "PixelBoop", &m, &err);
    if (s != BOOP_MPRIS_OK) {
        printf("create: %s (%s)\n", boop_mpris_status_string(s), strerror(err));
        return s == BOOP_MPRIS_ERROR_NO_SESSION_BUS ? 3 : 1;
    }
    printf("%s\n", boop_mpris_bus_name(m));
    fflush(stdout);
    boop_mpris_set_metadata(m, title, 8000000);
    boop_mpris_set_can_go_next_previous(m, next_previous);
    boop_mpris_set_playback(m, BOOP_MPRIS_PLAYING);
    int playing = 1, preset = 0;
    for (;;) {
        if (boop_mpris_process(m, 1000) != BOOP_MPRIS_OK) {
            fprintf(stderr, "bus lost\n");
            return 1;
        }
        for (boop_mpris_command c; (c = boop_mpris_next_command(m)) != BOOP_MPRIS_COMMAND_NONE;) {
            printf("command %d\n", (int)c);
            fflush(stdout);
            switch (c) {
                case BOOP_MPRIS_COMMAND_PLAY_PAUSE:
                    playing = !playing;
                    break;
                case BOOP_MPRIS_COMMAND_PLAY:
                    playing = 1;
                    break;
                case BOOP_MPRIS_COMMAND_PAUSE:
                    playing = 0;
                    break;
                case BOOP_MPRIS_COMMAND_NEXT:
                case BOOP_MPRIS_COMMAND_PREVIOUS: {
                    char name[32];
                    preset += c == BOOP_MPRIS_COMMAND_NEXT ? 1 : -1;
                    snprintf(name, sizeof name, "preset %d", preset);
                    boop_mpris_set_metadata(m, name, -1);
                    break;
                }
                case BOOP_MPRIS_COMMAND_STOP:
                case BOOP_MPRIS_COMMAND_QUIT:
                    boop_mpris_set_playback(m, BOOP_MPRIS_STOPPED);
                    boop_mpris_destroy(m);
                    return 0;
                default:
                    break;
            }
            boop_mpris_set_playback(m, playing ? BOOP_MPRIS_PLAYING : BOOP_MPRIS_PAUSED);
        }
    }
}
