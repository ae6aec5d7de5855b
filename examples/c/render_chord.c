/* Renders a C major chord (C4 E4 G4, the melody timbre) for two seconds to a WAV file through
 * libpixelboop's C API, passing it through the engine's output stage as boop does (a gain, here
 * the one given on the command line in dB, then the true-peak limiter):
 *
 *     cc render_chord.c $(pkg-config --cflags --libs pixelboop) -o render_chord
 *     ./render_chord chord.wav [GAIN_DB]
 */
#include <pixelboop/CAudioEngine.h>
#include <stdio.h>
#include <stdlib.h>

static int check(boop_status status, const char* what) {
    if (status != BOOP_OK) fprintf(stderr, "render_chord: %s: %s\n", what, boop_status_string(status));
    return status == BOOP_OK;
}

/* Renders `total` frames of the engine through the output stage into the writer, then the frames
 * still in the limiter's look-ahead: the file is exactly `total` frames long. */
static int render(boop_engine* engine, boop_output* output, boop_file_writer* writer, uint64_t total) {
    static float block[4096];
    uint32_t aligned = 0;
    for (uint64_t done = 0; done < total;) {
        const uint32_t n = (uint32_t)(total - done < 4096 ? total - done : 4096);
        if (!check(boop_output_render(output, boop_engine_source(engine), block, n, &aligned), "render") ||
            !check(boop_file_writer_write(writer, block, aligned), boop_file_writer_error(writer)))
            return 0;
        done += n;
    }
    return check(boop_output_finish(output, block, 4096, &aligned), "finish") &&
           check(boop_file_writer_write(writer, block, aligned), boop_file_writer_error(writer));
}

int main(int argc, char** argv) {
    const char* path = argc > 1 ? argv[1] : "chord.wav";
    boop_output_config output_config;
    boop_output_config_default(&output_config); /* 0 dB, ceiling BOOP_CEILING_DBTP */
    if (argc > 2) {
        char* end = NULL;
        output_config.gain_db = strtod(argv[2], &end);
        if (end == argv[2] || *end != '\0' || boop_output_config_check(&output_config) != BOOP_OK) {
            fprintf(stderr, "render_chord: gain %s: expected %g...%g dB\n", argv[2], BOOP_GAIN_DB_MIN,
                    BOOP_GAIN_DB_MAX);
            return 64;
        }
    }
    boop_engine_config config;
    boop_engine_config_default(&config); /* 44100 Hz, mono, 4096-frame blocks */
    boop_engine* engine = NULL;
    if (!check(boop_engine_create(&config, &engine), "creating the engine")) return 1;
    boop_output* output = NULL;
    if (!check(boop_output_create(&output_config, config.sample_rate, config.channels, &output),
               "creating the output stage")) {
        boop_engine_destroy(engine);
        return 1;
    }

    const double chord[3] = {261.6255653005986, 329.6275569128699, 391.99543598174927};
    const uint64_t end = (uint64_t)(1.8 * config.sample_rate);
    /* The queue applies events in the order they are queued, so every note-on goes in before the
     * note-offs that come later in time. */
    int ok = 1;
    for (uint32_t i = 0; i < 3 && ok; ++i)
        ok = check(boop_engine_note_on(engine, 0, i + 1, BOOP_TIMBRE_MELODY, chord[i], 0.6f), "note on");
    for (uint32_t i = 0; i < 3 && ok; ++i) ok = check(boop_engine_note_off(engine, end, i + 1), "note off");

    boop_file_writer* writer = NULL;
    const uint64_t total = (uint64_t)(2.0 * config.sample_rate);
    if (ok) ok = check(boop_file_writer_open(path, config.sample_rate, 1, BOOP_SAMPLE_FLOAT32, &writer), path);
    if (ok && !render(engine, output, writer, total)) {
        boop_file_writer_abort(writer);
        ok = 0;
    } else if (ok && !check(boop_file_writer_commit(writer), path)) {
        fprintf(stderr, "render_chord: %s\n", boop_file_writer_error(writer));
        boop_file_writer_abort(writer);
        ok = 0;
    }
    const float reduction = boop_output_take_reduction_db(output);
    boop_output_destroy(output);
    boop_engine_destroy(engine);
    if (!ok) return 1;
    printf("wrote %s: C major chord, %llu frames at %.0f Hz, gain %+.1f dB, limiter %.1f dB (libpixelboop %s)\n", path,
           (unsigned long long)total, config.sample_rate, output_config.gain_db, reduction, boop_version());
    return 0;
}
