/* Renders a C major chord (C4 E4 G4, the melody timbre) for two seconds to a WAV file through
 * libpixelboop's C API:
 *
 *     cc render_chord.c $(pkg-config --cflags --libs pixelboop) -o render_chord
 *     ./render_chord chord.wav
 */
#include <pixelboop/CAudioEngine.h>
#include <stdio.h>

static int check(boop_status status, const char* what) {
    if (status != BOOP_OK) fprintf(stderr, "render_chord: %s: %s\n", what, boop_status_string(status));
    return status == BOOP_OK;
}

int main(int argc, char** argv) {
    const char* path = argc > 1 ? argv[1] : "chord.wav";
    boop_engine_config config;
    boop_engine_config_default(&config); /* 44100 Hz, mono, 4096-frame blocks */
    boop_engine* engine = NULL;
    if (!check(boop_engine_create(&config, &engine), "creating the engine")) return 1;

    const double chord[3] = {261.6255653005986, 329.6275569128699, 391.99543598174927};
    const uint64_t end = (uint64_t)(1.8 * config.sample_rate);
    /* The queue applies events in the order they are queued, so every note-on goes in before the
     * note-offs that come later in time. */
    for (uint32_t i = 0; i < 3; ++i)
        if (!check(boop_engine_note_on(engine, 0, i + 1, BOOP_TIMBRE_MELODY, chord[i], 0.6f), "note on")) return 1;
    for (uint32_t i = 0; i < 3; ++i)
        if (!check(boop_engine_note_off(engine, end, i + 1), "note off")) return 1;

    boop_file_writer* writer = NULL;
    if (!check(boop_file_writer_open(path, config.sample_rate, 1, BOOP_SAMPLE_FLOAT32, &writer), path)) return 1;
    static float block[4096];
    const uint64_t total = (uint64_t)(2.0 * config.sample_rate);
    for (uint64_t done = 0; done < total;) {
        const uint32_t n = (uint32_t)(total - done < 4096 ? total - done : 4096);
        if (!check(boop_engine_render(engine, block, n), "render") ||
            !check(boop_file_writer_write(writer, block, n), boop_file_writer_error(writer))) {
            boop_file_writer_abort(writer);
            return 1;
        }
        done += n;
    }
    if (!check(boop_file_writer_commit(writer), path)) {
        fprintf(stderr, "render_chord: %s\n", boop_file_writer_error(writer));
        boop_file_writer_abort(writer);
        return 1;
    }
    boop_engine_destroy(engine);
    printf("wrote %s: C major chord, %llu frames at %.0f Hz (libpixelboop %s)\n", path, (unsigned long long)total,
           config.sample_rate, boop_version());
    return 0;
}
