/* PixelBoop's C API, generative ambient: part of <pixelboop/CAudioEngine.h>, which includes it
 * (including this header alone brings in the rest of the API too). Conventions as there: opaque
 * handles, boop_status returns, a thread note on every function. */
#ifndef CAUDIOENGINE_AMBIENT_H
#define CAUDIOENGINE_AMBIENT_H

#include "CAudioEngine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ====================================================================================== */
/* Generative ambient                                                                     */
/* ====================================================================================== */

/* Endless, seeded generative music: a 6-voice detuned pad through a slow lowpass, a 2-operator
 * FM lead on a Euclidean rhythm, a granular cloud, ocean noise, a ping-pong delay and an 8-line
 * FDN reverb, composed by a harmony manager that walks the circle of fifths. The output is a
 * pure function of (config, seed, sample rate): the same config renders the same samples,
 * bit for bit, whatever block sizes the frames are requested in. */

typedef struct boop_ambient boop_ambient;

typedef enum boop_ambient_scale {
    BOOP_AMBIENT_SCALE_MAJOR = 0,
    BOOP_AMBIENT_SCALE_MINOR = 1, /* natural minor (aeolian) */
    BOOP_AMBIENT_SCALE_DORIAN = 2,
    BOOP_AMBIENT_SCALE_PHRYGIAN = 3,
    BOOP_AMBIENT_SCALE_LYDIAN = 4,
    BOOP_AMBIENT_SCALE_MIXOLYDIAN = 5,
    BOOP_AMBIENT_SCALE_MAX_ENUM = 0x7FFFFFFF
} boop_ambient_scale;

#define BOOP_AMBIENT_SCALE_COUNT 6

/* How pitch classes are named: conventionally (the key signatures with the fewest accidentals:
 * Db, Eb, F#, Ab, Bb), with sharps, or with flats; a preset keyed "C#" keeps its sharps. */
typedef enum boop_ambient_spelling {
    BOOP_AMBIENT_SPELLING_CONVENTIONAL = 0,
    BOOP_AMBIENT_SPELLING_SHARPS = 1,
    BOOP_AMBIENT_SPELLING_FLATS = 2
} boop_ambient_spelling;

/* A preset in plain numbers. Ranges are checked by boop_ambient_create. */
typedef struct boop_ambient_config {
    double sample_rate;        /* Hz, BOOP_ENGINE_RATE_MIN ... _MAX */
    uint64_t seed;             /* any value; the same seed gives the same music */
    uint32_t max_block_frames; /* the largest block a source user will ask for, 1 ... BOOP_ENGINE_BLOCK_FRAMES_MAX */

    /* harmony */
    int32_t key;             /* tonic pitch class 0 ... 11 (0 = C) */
    int32_t scale;           /* boop_ambient_scale */
    double tempo_bpm;        /* lead step clock in sixteenths at this tempo, 20 ... 240 */
    double chord_seconds;    /* seconds per chord, 1 ... 120 */
    float seventh_chance;    /* 0 ... 1: probability a chord is a seventh chord */
    float modulation_chance; /* 0 ... 1: probability of a key change round the circle of fifths on reaching the tonic */

    /* mix */
    float master_gain; /* 0 ... 2, before the soft limiter */
    float pad_level;   /* 0 ... 1 each */
    float lead_level;
    float grain_level;
    float ocean_level;

    /* pad (PolySynth) */
    int32_t pad_octave;         /* octave of the chord root, 1 ... 6 (4 = middle C) */
    float pad_detune_cents;     /* 0 ... 50 */
    float pad_attack_seconds;   /* 0.01 ... 20 */
    float pad_release_seconds;  /* 0.05 ... 30 */
    float filter_min_hz;        /* 40 ... 18000; the slow cutoff sweeps between min and max */
    float filter_max_hz;        /* filter_min_hz ... 18000 */
    float filter_resonance;     /* 0 ... 1 (0 = Q 0.5, 1 = Q 8) */
    float filter_sweep_seconds; /* 2 ... 600: mean period of the cutoff's drift */

    /* lead (FmLead on a Euclidean rhythm) */
    int32_t lead_octave;       /* 2 ... 7 */
    uint32_t lead_pulses;      /* 0 ... lead_steps */
    uint32_t lead_steps;       /* 1 ... 64 */
    uint32_t lead_rotation;    /* 0 ... lead_steps - 1 */
    float lead_probability;    /* 0 ... 1: chance that a pulse plays */
    float fm_ratio;            /* 0.25 ... 16: modulator / carrier frequency */
    float fm_index;            /* 0 ... 12: peak modulation index (radians) */
    float lead_attack_seconds; /* 0.001 ... 2 */
    float lead_decay_seconds;  /* 0.02 ... 10: time to fall 60 dB */

    /* granulator */
    float grain_seconds;      /* 0.01 ... 0.5 */
    float grain_density;      /* grains per second, 0.2 ... 80 */
    float grain_pitch_spread; /* 0 ... 1: share of grains transposed by an octave or a fifth */

    /* ocean */
    float ocean_swell_seconds; /* 2 ... 60 */

    /* ping-pong delay (on the lead) */
    float delay_seconds;  /* 0.01 ... 2 */
    float delay_feedback; /* 0 ... 0.95 */
    float delay_mix;      /* 0 ... 1 */
    float delay_damping;  /* 0 ... 1 */

    /* FDN reverb */
    float reverb_size;          /* 0 ... 1 */
    float reverb_decay_seconds; /* 0.1 ... 60 (RT60) */
    float reverb_mix;           /* 0 ... 1 */
    float reverb_damping;       /* 0 ... 1 */

    /* slow drift of filter, detune, grain density and layer levels */
    float drift_amount; /* 0 ... 1 */

    float fade_in_seconds; /* 0 ... 30: master fade-in from silence */

    /* names only: no effect on the sound */
    int32_t key_spelling; /* boop_ambient_spelling: how the status spells the key and chord roots */
} boop_ambient_config;

/* Fills a config with a gentle default preset at 44100 Hz, seed 1.
 * Thread safety: any thread. */
void boop_ambient_config_default(boop_ambient_config* config);

/* One row of the table of a config's numeric fields: the one source of the ranges the engine
 * checks and front ends quote in their messages. Cross-field rules come on top:
 * filter_max_hz >= filter_min_hz, lead_pulses <= lead_steps, lead_rotation < lead_steps. */
typedef struct boop_ambient_range {
    const char* field; /* the config field's name, e.g. "reverb_mix" */
    double min;        /* inclusive bounds */
    double max;
    int integer; /* 1 when the field holds a whole number */
} boop_ambient_range;

/* The range of config field `field` (static storage), NULL for an unknown name.
 * Thread safety: any thread. */
const boop_ambient_range* boop_ambient_range_of(const char* field);

/* Checks a config without creating anything. When it is invalid and `field` is not NULL,
 * *field receives the static name of the first offending field (e.g. "reverb_mix").
 * Return: BOOP_OK or BOOP_ERROR_INVALID_ARGUMENT (non-finite or out-of-range value).
 * Thread safety: any thread. */
boop_status boop_ambient_config_check(const boop_ambient_config* config, const char** field);

/* The loudness every ambient piece is kept at (BS.1770 integrated, LUFS): quiet enough for
 * listening at night and for the limiter to stay idle, louder than broadcast's -23. */
#define BOOP_AMBIENT_LOUDNESS_LUFS (-18.0)

/* Creates an ambient generator. Allocates everything it will ever use (delay lines, reverb,
 * grain buffer). The piece is loudness-normalised to BOOP_AMBIENT_LOUDNESS_LUFS: creation renders
 * its first 20 s on the side to measure it (about 0.1 s of work), and a slow follower keeps it
 * there (see LoudnessFollower).
 * Parameters: config (NULL = defaults), out receives the handle.
 * Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT, BOOP_ERROR_OUT_OF_MEMORY.
 * Thread safety: control thread. */
boop_status boop_ambient_create(const boop_ambient_config* config, boop_ambient** out);

/* Destroys a generator (NULL is ignored). No thread may be rendering it.
 * Thread safety: control thread. */
void boop_ambient_destroy(boop_ambient* ambient);

/* Renders `frames` stereo interleaved frames (2 x frames floats) into `out`. Every sample is
 * finite and within [-1, 1]. Any frames count is accepted; composition decisions fall on exact
 * frames, so splitting a render into different blocks gives identical samples. Pause and fade
 * requests take effect at the start of the next call.
 * Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT (NULL).
 * Thread safety: audio thread only (one at a time); real-time safe, unless
 * boop_ambient_start_worker was called (then it may wait for the worker). */
boop_status boop_ambient_render(boop_ambient* ambient, float* out, uint32_t frames);

/* Offline rendering on two cores: the composition and the sources (pad, lead, grains, ocean,
 * delay) are rendered up to a few thousand frames ahead on a thread of the generator's own,
 * while boop_ambient_render mixes, reverberates and masters them. The samples are exactly those
 * of a generator without the worker. For files only: boop_ambient_render then waits on the
 * worker, so it is no longer real-time safe, and the generator must not be played through
 * boop_ambient_source (which renders silence for it).
 * Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT (NULL), BOOP_ERROR_ALREADY_RUNNING (started
 * before, or the generator has rendered already), BOOP_ERROR_OUT_OF_MEMORY, BOOP_ERROR_INTERNAL
 * (no thread could be had: the generator renders on one core, as without this call).
 * Thread safety: control thread, before the first render. */
boop_status boop_ambient_start_worker(boop_ambient* ambient);

/* The generator as a source for boop_playback_start (2 channels, the config's rate and
 * max_block_frames). The generator must outlive every user of the source.
 * Thread safety: control thread. */
boop_source boop_ambient_source(boop_ambient* ambient);

/* Fades the output to silence over `seconds` (0 ... 60; 0 = next sample), after which every
 * render writes silence and the status reports finished. Lock-free (atomics).
 * Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT. Thread safety: any one control thread. */
boop_status boop_ambient_fade_out(boop_ambient* ambient, double seconds);

/* Pauses (paused = 1) or resumes (0) with a fade of `fade_seconds` (0 ... 10). While paused and
 * silent the composition clock stands still, so resuming continues the music where it stopped.
 * Lock-free (atomics). Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT.
 * Thread safety: any one control thread. */
boop_status boop_ambient_set_paused(boop_ambient* ambient, int paused, double fade_seconds);

/* What the terminal view shows. All values come from atomics published after each render. */
typedef struct boop_ambient_status {
    uint64_t frame;       /* composition frames rendered (stands still while paused) */
    uint64_t chords;      /* chord changes so far */
    int32_t key;          /* current tonic pitch class 0 ... 11 */
    char key_name[4];     /* the tonic spelled as the config's key_spelling says, e.g. "C#" */
    int32_t scale;        /* boop_ambient_scale */
    int32_t chord_root;   /* pitch class of the current chord's root */
    int32_t chord_degree; /* 0 ... 6 within the current key */
    char chord_name[16];  /* e.g. "F#m7" (NUL-terminated; the root spelled as key_name is) */
    float peak_left;      /* peak |sample| of the last block, after the limiter */
    float peak_right;
    float level_pad; /* RMS of each layer in the last block (before the mix) */
    float level_lead;
    float level_grain;
    float level_ocean;
    float level_reverb;
    int paused;                /* 1 once a pause has faded to silence */
    int fading;                /* 1 while a pause/resume/fade-out ramp runs */
    int finished;              /* 1 once a fade-out has reached silence */
    uint64_t nonfinite_resets; /* times a non-finite value was caught and the effects reset */
} boop_ambient_status;

/* Fills *status. Thread safety: any thread (atomics). */
void boop_ambient_get_status(const boop_ambient* ambient, boop_ambient_status* status);

/* Static names: "C", "Db", ... "B" and "major", "minor", ...; "?" when out of range.
 * Thread safety: any thread. */
const char* boop_ambient_key_name(int32_t key);
/* The static name of pitch class `key` (any integer, taken modulo 12) in `spelling`
 * (boop_ambient_spelling): "C#" with sharps, "Db" with flats; NULL for an unknown spelling.
 * Thread safety: any thread. */
const char* boop_ambient_spelled_name(int32_t key, int32_t spelling);
const char* boop_ambient_scale_name(int32_t scale);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CAUDIOENGINE_AMBIENT_H */
