/*
 * CAudioEngine — the PixelBoop real-time synthesis engine, plain C API.
 *
 * This is the only public header of the C++17 engine. Every object is an opaque handle: the
 * caller destroys what a create function returns. Functions return a boop_status (0 = ok,
 * negative = error) unless they are simple queries.
 *
 * Threads
 *   control thread  one thread at a time (the "producer") creates objects, queues events and
 *                   reads queries. Event functions are lock-free and never allocate.
 *   audio thread    the one thread that calls a render function (the ALSA I/O thread, or the
 *                   offline renderer). Render functions never allocate, lock or block; they are
 *                   compiled with [[clang::nonblocking]] and tested under RealtimeSanitizer.
 *   any thread      queries marked so read atomics only.
 * No C++ exception crosses this boundary.
 */
#ifndef CAUDIOENGINE_H
#define CAUDIOENGINE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ====================================================================================== */
/* Status                                                                                  */
/* ====================================================================================== */

typedef enum boop_status {
    BOOP_OK = 0,
    BOOP_ERROR_INVALID_ARGUMENT = -1, /* a parameter is out of range or a pointer is NULL */
    BOOP_ERROR_OUT_OF_MEMORY = -2,
    BOOP_ERROR_QUEUE_FULL = -3,         /* event dropped: the queue is full (counted) */
    BOOP_ERROR_DEVICE_UNAVAILABLE = -4, /* the PCM cannot be opened or configured */
    BOOP_ERROR_DEVICE_LOST = -5,        /* the PCM disappeared or stopped recovering */
    BOOP_ERROR_IO = -6,                 /* read/write error on a file or device */
    BOOP_ERROR_CANNOT_CREATE = -7,      /* an output file cannot be created */
    BOOP_ERROR_ALREADY_RUNNING = -8,
    BOOP_ERROR_NOT_RUNNING = -9,
    BOOP_ERROR_INTERNAL = -10
} boop_status;

/* A static, human-readable description of a status. Thread safety: any thread. */
const char* boop_status_string(boop_status status);

/* The release version: the one place it is written (CMake, the Makefile and the package read it
 * from here). boop_version() returns the version of the library actually loaded, which may differ
 * from the header a program was compiled with. */
#define PIXELBOOP_VERSION "0.1.0"

/* The library version, "MAJOR.MINOR.PATCH". Thread safety: any thread. */
const char* boop_version(void);

/* Limits: every range boop accepts, each written once (named bounds and the table of all of them). */
#include "CAudioEngineLimits.h"

/* ====================================================================================== */
/* Engine: the voice pool and its render                                                   */
/* ====================================================================================== */

typedef struct boop_engine boop_engine;

/* The track timbres. MELODY is the sine + 2 kHz lowpass melody voice; TONE is the pure sine of
 * the ear-training player (no filter, raised-cosine edges). */
typedef enum boop_timbre {
    BOOP_TIMBRE_MELODY = 0,
    BOOP_TIMBRE_CHORDS = 1,
    BOOP_TIMBRE_BASS = 2,
    BOOP_TIMBRE_TONE = 3,
    /* Makes every int a representable value, so C callers passing an unknown number get
     * BOOP_ERROR_INVALID_ARGUMENT instead of undefined behaviour in the C++ side. */
    BOOP_TIMBRE_MAX_ENUM = 0x7FFFFFFF
} boop_timbre;

#define BOOP_TIMBRE_COUNT 4

typedef struct boop_engine_config {
    double sample_rate; /* Hz, BOOP_ENGINE_RATE_MIN ... BOOP_ENGINE_RATE_MAX */
    uint32_t voices;    /* polyphony, BOOP_ENGINE_VOICES_MIN ... _MAX (default BOOP_ENGINE_VOICES_DEFAULT) */
    uint32_t
        max_block_frames;    /* the largest frames count render will be asked for, 1 ... BOOP_ENGINE_BLOCK_FRAMES_MAX */
    uint32_t queue_capacity; /* events, rounded up to a power of two, BOOP_ENGINE_QUEUE_MIN ... _MAX */
    uint32_t channels;       /* interleaved output channels, 1 ... BOOP_CHANNELS_MAX (voices are centred) */
} boop_engine_config;

/* Fills a config with the defaults: 44100 Hz, 8 voices, 4096 frames, 4096 events, 1 channel.
 * Thread safety: any thread. */
void boop_engine_config_default(boop_engine_config* config);

/* Creates an engine. Allocates everything it will ever use.
 * Parameters: config (NULL = defaults), out_engine receives the handle.
 * Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT for a config out of range, BOOP_ERROR_OUT_OF_MEMORY.
 * Thread safety: control thread. */
boop_status boop_engine_create(const boop_engine_config* config, boop_engine** out_engine);

/* Destroys an engine (NULL is ignored). No thread may be rendering it.
 * Thread safety: control thread. */
void boop_engine_destroy(boop_engine* engine);

/* The frame of an event that is to sound as soon as possible, ahead of everything queued (an
 * audition while a pattern plays): it bypasses the time-ordered queue and is applied at the start
 * of the next render block. Immediate events keep their own order among themselves. */
#define BOOP_FRAME_NOW UINT64_MAX

/* Starts a note on the exact frame `frame` of the engine's frame clock (frames rendered since
 * creation), or at once with BOOP_FRAME_NOW. A frame already in the past applies at the start of the next render block.
 * Events are applied in the order they are queued: queue them in non-decreasing frame order (an event waits until every
 * event queued before it is due). note_id identifies the note for boop_engine_note_off; gain is the velocity gain
 * (normal 0.6, accent 1.0, sustain 0.8), before the master gain of 0.3. Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT
 * (frequency not in (0, rate/2), gain not in [0, BOOP_EVENT_GAIN_MAX], unknown timbre), BOOP_ERROR_QUEUE_FULL (dropped
 * and counted). Thread safety: control thread (the queue's single producer); lock-free. */
boop_status boop_engine_note_on(boop_engine* engine, uint64_t frame, uint32_t note_id, boop_timbre timbre,
                                double frequency_hz, float gain);

/* Releases the note note_id on frame `frame`. The release time follows the timbre (melody:
 * min(0.3 x held time, 0.15 s)). Unknown or already stolen notes are ignored.
 * Return: BOOP_OK, BOOP_ERROR_QUEUE_FULL. Thread safety: control thread; lock-free. */
boop_status boop_engine_note_off(boop_engine* engine, uint64_t frame, uint32_t note_id);

/* Strikes a drum (General MIDI key 35 ... 81; unknown keys use the nearest drum) on `frame`.
 * Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT, BOOP_ERROR_QUEUE_FULL.
 * Thread safety: control thread; lock-free. */
boop_status boop_engine_drum_hit(boop_engine* engine, uint64_t frame, uint32_t gm_key, float gain);

/* Instruments: a song's tracks can each play an instrument of their own (a voice, an ADSR
 * envelope, a lowpass and a pan) in one of BOOP_INSTRUMENT_SLOTS slots, and its rhythm one of the
 * kits. Instrument voices and kits add into a stereo pair; while none sounds, the output is
 * exactly the centred mix of the timbres and the General MIDI kit. */
#define BOOP_INSTRUMENT_SLOTS 4

/* The voices, one line each: the one list of them. The enum below, the engine's checks and kernel
 * table, the song files' names, the General MIDI program a .mid export gives a voice and the sound
 * a song's left-out fields take all come from it; boop's help lists it, and a check
 * (scripts/cli-tests.d/palette.sh) holds the README to it. A new voice is a line here (appended:
 * the values are the ABI) and its tone in engine/InstrumentTone.cpp.
 *   X(ENUMERATOR, name, value, gm_program, attack, decay, sustain, release, cutoff, resonance, description)
 * name is a song file's "voice"; gm_program is 0-based; the next six are the sound a song gives the
 * voice where it names none (seconds, a level, Hz, Q); description is one line for the help. */
#define BOOP_VOICES(X)                                                                                                \
    X(BOOP_VOICE_SINE, "sine", 0, 73, 0.005, 0.2, 0.8, 0.15, 20000, 0.7071, "a pure sine")                            \
    X(BOOP_VOICE_TRIANGLE, "triangle", 1, 79, 0.005, 0.2, 0.8, 0.15, 20000, 0.7071, "a triangle: soft odd harmonics") \
    X(BOOP_VOICE_PULSE, "pulse", 2, 80, 0.005, 0.2, 0.8, 0.15, 20000, 0.7071, "a band-limited pulse of any width")    \
    X(BOOP_VOICE_SAW, "saw", 3, 81, 0.005, 0.2, 0.8, 0.15, 20000, 0.7071, "a band-limited (polyBLEP) sawtooth")       \
    X(BOOP_VOICE_FM, "fm", 4, 14, 0.002, 1.5, 0, 0.4, 20000, 0.7071, "a bell: phase modulation at 3.5 x the pitch")   \
    X(BOOP_VOICE_PLUCK, "pluck", 5, 46, 0.002, 0, 1, 0.2, 20000, 0.7071, "a Karplus-Strong string")                   \
    X(BOOP_VOICE_PAD, "pad", 6, 89, 0.3, 0.5, 0.8, 0.6, 3000, 0.7071, "a saw with its octave, swelling in")           \
    X(BOOP_VOICE_SUB, "sub", 7, 38, 0.005, 0.2, 0.8, 0.15, 20000, 0.7071, "a sine with a little third harmonic")

/* The rhythm kits, as the voices: X(ENUMERATOR, name, value, description). The General MIDI kit is
 * the version-1 one (boop_engine_drum_hit's); a new kit is a line here (appended) and its recipe in
 * engine/Kit.cpp. */
#define BOOP_KITS(X)                                                                         \
    X(BOOP_KIT_GM, "gm", 0, "the General MIDI kit of version-1 patterns")                    \
    X(BOOP_KIT_808, "808", 1, "808-style: swept sine kicks and toms, a clap, metallic hats") \
    X(BOOP_KIT_CHIP, "chip", 2, "an 8-bit console's square-wave sweeps and noise channel")

#define BOOP_ENTRY(ENUMERATOR, name, value, ...) ENUMERATOR = value,
#define BOOP_LIST_ONE(...) +1
/* MAX_ENUM, as boop_timbre's: any int is a representable value, so an unknown one is refused. */
typedef enum boop_instrument_voice { BOOP_VOICES(BOOP_ENTRY) BOOP_VOICE_MAX_ENUM = 0x7FFFFFFF } boop_instrument_voice;
typedef enum boop_kit { BOOP_KITS(BOOP_ENTRY) BOOP_KIT_MAX_ENUM = 0x7FFFFFFF } boop_kit;
/* How many voices and kits there are: the valid values are 0 ... count - 1. */
enum { BOOP_VOICE_COUNT = 0 BOOP_VOICES(BOOP_LIST_ONE) };
enum { BOOP_KIT_COUNT = 0 BOOP_KITS(BOOP_LIST_ONE) };

typedef struct boop_instrument {
    boop_instrument_voice voice;
    double width;     /* pulse width, 0.05 ... 0.95 */
    double attack;    /* seconds, 0 ... 10 (at least 2 ms is used: onsets never click) */
    double decay;     /* seconds, 0 ... 10 */
    double sustain;   /* level, 0 ... 1 */
    double release;   /* seconds, 0 ... 10 (at least 5 ms is used) */
    double cutoff;    /* lowpass cutoff in Hz, 20 ... 20000 (at or above 0.45 x the rate: no filter) */
    double resonance; /* the lowpass's Q, 0.5 ... 20 */
    double pan;       /* -1 (left) ... +1 (right); 0 keeps unity gain on both sides */
} boop_instrument;

/* Sets an instrument slot's sound from frame `frame` on (slot 3, the rhythm's, uses only pan:
 * the kits' place in the stereo field). Voices already sounding keep their pitch; the filter,
 * pan and envelope times apply to them at once.
 * Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT (a slot or value out of range), BOOP_ERROR_QUEUE_FULL
 * (some of the settings dropped and counted). Thread safety: control thread (the queue's producer); lock-free. */
boop_status boop_engine_set_instrument(boop_engine* engine, uint64_t frame, uint32_t slot,
                                       const boop_instrument* instrument);

/* Starts a note on an instrument slot on `frame` (as boop_engine_note_on; released with
 * boop_engine_note_off). Each slot holds up to 16 notes; beyond that its oldest fades out in 5 ms.
 * Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT, BOOP_ERROR_QUEUE_FULL. Thread safety: control thread; lock-free. */
boop_status boop_engine_instrument_note_on(boop_engine* engine, uint64_t frame, uint32_t note_id, uint32_t slot,
                                           double frequency_hz, float gain);

/* Strikes a drum of a kit (BOOP_KIT_GM is boop_engine_drum_hit's) on `frame`; 808 and chip are
 * panned as instrument slot 3. Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT, BOOP_ERROR_QUEUE_FULL.
 * Thread safety: control thread; lock-free. */
boop_status boop_engine_kit_hit(boop_engine* engine, uint64_t frame, boop_kit kit, uint32_t gm_key, float gain);

/* The voices' and kits' lines (BOOP_VOICES, BOOP_KITS) as the loaded library has them, so a program
 * built against an older header learns newer voices. Counts: the values are 0 ... count - 1. Names
 * (a song file's "voice" or "kit") and descriptions (a line for the help) are static strings, NULL
 * for a value that names none; the program is the General MIDI one (0-based) a .mid export gives
 * the voice, -1 for none; boop_voice_sound fills `sound` with what a song gives the voice where it
 * names none (width 0.5, pan 0). Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT. Thread safety: any thread. */
uint32_t boop_voice_count(void);
const char* boop_voice_name(boop_instrument_voice voice);
const char* boop_voice_description(boop_instrument_voice voice);
int boop_voice_gm_program(boop_instrument_voice voice);
boop_status boop_voice_sound(boop_instrument_voice voice, boop_instrument* sound);
uint32_t boop_kit_count(void);
const char* boop_kit_name(boop_kit kit);
const char* boop_kit_description(boop_kit kit);

/* Fades every sounding voice (and drum) to silence over fade_seconds (BOOP_FADE_SECONDS_MIN ... _MAX) from
 * `frame`. Notes queued after this call still play. Used for stop, pause and Ctrl-C.
 * Thread safety: control thread; lock-free. */
boop_status boop_engine_all_notes_off(boop_engine* engine, uint64_t frame, double fade_seconds);

/* Discards every event queued so far (including those stamped in the future) and fades every
 * sounding voice over fade_seconds (BOOP_FADE_SECONDS_MIN ... _MAX) from the start of the next rendered block.
 * Events queued after this call are kept. This is how live playback pauses and stops at once
 * even though it schedules ahead of the audio clock.
 * Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT. Thread safety: control thread; lock-free. */
boop_status boop_engine_cancel_pending(boop_engine* engine, double fade_seconds);

/* Renders `frames` interleaved frames into `out` (frames x channels floats), applying each
 * queued event on its exact frame inside the block, then advances the frame clock. This is the
 * engine's raw mix (master gain and soft clipper, no output stage): play it through a playback,
 * or render it through boop_output_render, to get the gain and the true-peak limiter.
 * Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT (NULL, or frames > max_block_frames).
 * Thread safety: audio thread only (one at a time); real-time safe. */
boop_status boop_engine_render(boop_engine* engine, float* out, uint32_t frames);

/* Queries. Thread safety: any thread (atomics). */
uint64_t boop_engine_frame_clock(const boop_engine* engine);    /* frames rendered so far */
uint32_t boop_engine_active_voices(const boop_engine* engine);  /* voices sounding after the last block */
uint64_t boop_engine_dropped_events(const boop_engine* engine); /* events refused because the queue was full */
/* Tap-to-sound (boop edit -v): marks `frame` (replacing another mark) and returns the time
 * (CLOCK_MONOTONIC, nanoseconds) at which the render that first took the frame clock past it ended,
 * or 0 until then: call it again with the same frame to read it. Thread safety: control thread. */
uint64_t boop_engine_mark(boop_engine* engine, uint64_t frame);
double boop_engine_sample_rate(const boop_engine* engine);
uint32_t boop_engine_channels(const boop_engine* engine);
float boop_engine_peak(const boop_engine* engine); /* peak |sample| of the last block */

/* ====================================================================================== */
/* Render sources: anything the playback backend can pull audio from                      */
/* ====================================================================================== */

/* An opaque pairing of a C++ render function with its object, so that the audio thread only
 * ever runs C++ (never Swift). Obtain one from boop_engine_source (or another *_source). */
typedef struct boop_source {
    boop_status (*render)(void* context, float* out, uint32_t frames);
    void* context;
    uint32_t channels;
    uint32_t max_block_frames;
    double sample_rate;
} boop_source;

/* The engine as a source. The engine must outlive every user of the source.
 * Thread safety: control thread. */
boop_source boop_engine_source(boop_engine* engine);

/* ====================================================================================== */
/* The output stage and loudness: gain, true-peak limiter, BS.1770 meter                   */
/* ====================================================================================== */

/* Everything boop makes passes through one output stage: a plain gain (the user's --gain), then
 * a look-ahead limiter that keeps the true peak (4x oversampled, ITU-R BS.1770-4) at or under the
 * ceiling (BOOP_CEILING_DBTP unless configured) without clipping: a 1.5 ms attack ramp, an 80 ms
 * release. Under the ceiling the signal passes unchanged (to the bit), delayed by
 * boop_output_latency_frames (about 2 ms). A playback runs its own stage (boop_playback_config's
 * `output`) on every source it plays; an offline render runs one with boop_output_render, which
 * takes the delay out so a file is as long as its source and every note starts on its frame. */

typedef struct boop_output_config {
    double gain_db;      /* the gain before the limiter, BOOP_GAIN_DB_MIN ... BOOP_GAIN_DB_MAX (default 0) */
    double ceiling_dbtp; /* the limiter's true-peak ceiling, BOOP_CEILING_DBTP_MIN ... _MAX
                            (default BOOP_CEILING_DBTP) */
} boop_output_config;

/* Fills a config with the defaults: 0 dB, ceiling BOOP_CEILING_DBTP. Thread safety: any thread. */
void boop_output_config_default(boop_output_config* config);

/* Checks a config without creating anything. Return: BOOP_OK or BOOP_ERROR_INVALID_ARGUMENT
 * (NULL, a value out of range or not finite). Thread safety: any thread. */
boop_status boop_output_config_check(const boop_output_config* config);

typedef struct boop_output boop_output;

/* Creates an offline output stage for interleaved audio of `channels` (1 ... BOOP_CHANNELS_MAX)
 * at `sample_rate` (BOOP_ENGINE_RATE_MIN ... _MAX). Allocates everything it will use.
 * Parameters: config (NULL = defaults), out_output receives the handle.
 * Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT, BOOP_ERROR_OUT_OF_MEMORY.
 * Thread safety: control thread. */
boop_status boop_output_create(const boop_output_config* config, double sample_rate, uint32_t channels,
                               boop_output** out_output);

/* Destroys it (NULL is ignored). Nothing may be processing through it.
 * Thread safety: control thread. */
void boop_output_destroy(boop_output* output);

/* Changes the gain (BOOP_GAIN_DB_MIN ... BOOP_GAIN_DB_MAX). Before the first processed frame it
 * applies exactly from that frame; later changes glide over 20 ms.
 * Return: BOOP_OK or BOOP_ERROR_INVALID_ARGUMENT. Thread safety: any thread (atomic). */
boop_status boop_output_set_gain_db(boop_output* output, double gain_db);

/* The limiter's look-ahead delay in frames (constant for a given rate): the most frames
 * boop_output_finish delivers. Thread safety: any thread. */
uint32_t boop_output_latency_frames(const boop_output* output);

/* Passes `frames` interleaved frames of the caller's audio through the stage, in place. What
 * comes out aligned with the input is moved to the start of `interleaved` and *out_frames
 * receives how many frames that is: fewer than `frames` until the look-ahead has filled (the
 * stage's silent pre-roll is dropped), then exactly `frames`.
 * Return: BOOP_OK or BOOP_ERROR_INVALID_ARGUMENT (NULL). Thread safety: one thread at a time;
 * real-time safe. */
boop_status boop_output_process(boop_output* output, float* interleaved, uint32_t frames, uint32_t* out_frames);

/* The offline render call: renders `frames` frames of `source` (the engine's, an ambient piece's:
 * its rate and channels must be the stage's, frames at most its max_block_frames) into `out` and
 * passes them through the stage as boop_output_process does.
 * Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT (NULL, a mismatched source, too many frames), or
 * the source's own error. Thread safety: the source's audio thread; real-time safe when the
 * source's render is. */
boop_status boop_output_render(boop_output* output, boop_source source, float* out, uint32_t frames,
                               uint32_t* out_frames);

/* After the last frames went in: writes the frames still in the look-ahead into `out` (room for
 * `capacity_frames`, at least boop_output_latency_frames) and *out_frames receives how many, so
 * everything put in has come out. A second call delivers nothing.
 * Return: BOOP_OK or BOOP_ERROR_INVALID_ARGUMENT (NULL, too little room).
 * Thread safety: as boop_output_process; real-time safe. */
boop_status boop_output_finish(boop_output* output, float* out, uint32_t capacity_frames, uint32_t* out_frames);

/* The deepest gain reduction since the last call, in dB (0 when the limiter did nothing).
 * Thread safety: any thread (atomic exchange). */
float boop_output_take_reduction_db(boop_output* output);

typedef struct boop_loudness boop_loudness;

/* An ITU-R BS.1770-4 / EBU R128 meter for mono or stereo: integrated loudness (gated),
 * momentary (400 ms), short-term (3 s) and true peak. Memory is fixed at creation.
 * Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT, BOOP_ERROR_OUT_OF_MEMORY.
 * Thread safety: control thread. */
boop_status boop_loudness_create(double sample_rate, uint32_t channels, boop_loudness** out_meter);

/* Thread safety: control thread (NULL is ignored). */
void boop_loudness_destroy(boop_loudness* meter);

/* Measures `frames` more interleaved frames. Thread safety: one thread at a time; real-time safe. */
boop_status boop_loudness_add(boop_loudness* meter, const float* interleaved, uint64_t frames);

/* Readings in LUFS (loudness) and dBTP (true peak); -HUGE_VAL when there is nothing to measure
 * (silence, or less than 400 ms). Thread safety: the thread that adds. */
double boop_loudness_integrated(const boop_loudness* meter);
double boop_loudness_momentary(const boop_loudness* meter);
double boop_loudness_short_term(const boop_loudness* meter);
double boop_loudness_true_peak(const boop_loudness* meter);

/* A source that plays one source and crossfades into another on request (equal power), as
 * ambient does when the preset changes. */
typedef struct boop_crossfader boop_crossfader;

/* Creates one playing `first`. Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT (no render
 * function), BOOP_ERROR_OUT_OF_MEMORY. Thread safety: control thread. */
boop_status boop_crossfader_create(boop_source first, boop_crossfader** out_crossfader);

/* Thread safety: control thread, nothing rendering it (NULL is ignored). */
void boop_crossfader_destroy(boop_crossfader* crossfader);

/* The crossfader as a source for the playback backend. Thread safety: control thread. */
boop_source boop_crossfader_source(boop_crossfader* crossfader);

/* Starts a crossfade into `next` (same rate, channels and block size) over `seconds`
 * (0.001 ... 60), from the next rendered block. The old source must stay alive until
 * boop_crossfader_idle says 1. Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT,
 * BOOP_ERROR_ALREADY_RUNNING (a fade is still running). Thread safety: control thread. */
boop_status boop_crossfader_fade_to(boop_crossfader* crossfader, boop_source next, double seconds);

/* 1 when no fade is pending or running (the previous source is no longer rendered), else 0.
 * Thread safety: any thread. */
int boop_crossfader_idle(const boop_crossfader* crossfader);

/* ====================================================================================== */
/* Audio files (libsndfile): written to a temporary name, renamed on commit                */
/* ====================================================================================== */

typedef struct boop_file_writer boop_file_writer;

typedef enum boop_sample_format {
    BOOP_SAMPLE_FLOAT32 = 0,
    BOOP_SAMPLE_INT16 = 1,
    BOOP_SAMPLE_MAX_ENUM = 0x7FFFFFFF
} boop_sample_format;

/* Opens a temporary file (`.boop-XXXXXX`) beside `path` for writing. The container comes from the
 * extension: .wav, .flac, .ogg (float32 is only possible in .wav). No timestamps are written, so
 * the same samples always give the same bytes. A .wav opened here is a plain RIFF WAV and refuses
 * (BOOP_ERROR_IO) writes that would take its data past 4 GiB; use boop_file_writer_open_sized
 * when the length is known.
 * Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT (unknown extension or unsupported format, a rate outside
 * BOOP_FILE_RATE_MIN ... _MAX or channels outside 1 ... BOOP_FILE_CHANNELS_MAX),
 * BOOP_ERROR_CANNOT_CREATE. Thread safety: one thread per writer. */
boop_status boop_file_writer_open(const char* path, double sample_rate, uint32_t channels, boop_sample_format format,
                                  boop_file_writer** out_writer);

/* As boop_file_writer_open, for a file whose length is known: a .wav whose `expected_frames` do
 * not fit a RIFF WAV (4 GiB of data) is written as RF64 (64-bit sizes) instead; 0 means unknown.
 * Return and thread safety as boop_file_writer_open. */
boop_status boop_file_writer_open_sized(const char* path, double sample_rate, uint32_t channels,
                                        boop_sample_format format, uint64_t expected_frames, boop_file_writer** out);

/* Appends interleaved frames. The writer copies them and writes them to the file on a thread of
 * its own, so an error of the file (a full disk) may be returned by a later call or by
 * boop_file_writer_commit. Return: BOOP_OK, BOOP_ERROR_IO, BOOP_ERROR_INTERNAL.
 * Thread safety: the writer's thread. */
boop_status boop_file_writer_write(boop_file_writer* writer, const float* interleaved, uint64_t frames);

/* Flushes, closes and renames the temporary file to its final name, then frees the writer.
 * Return: BOOP_OK, or BOOP_ERROR_IO: the temporary file is removed, the writer is NOT freed so
 * boop_file_writer_error can say why; free it with boop_file_writer_abort.
 * Thread safety: the writer's thread. */
boop_status boop_file_writer_commit(boop_file_writer* writer);

/* Closes and deletes the temporary file, then frees the writer (NULL is ignored).
 * Thread safety: the writer's thread. */
void boop_file_writer_abort(boop_file_writer* writer);

/* Passes every frame written from now on through `output` (as boop_output_process does: the
 * look-ahead's pre-roll is dropped) on the writer's own thread before the file gets it, and at
 * boop_file_writer_commit writes what boop_output_finish delivers. An offline render hands its
 * stage here so that the limiter runs beside the synthesis instead of after it. The stage must have
 * the writer's rate and channels, stays the caller's (it must outlive the commit or abort), and
 * no one else uses it meanwhile. Call before the first write.
 * Return: BOOP_OK or BOOP_ERROR_INVALID_ARGUMENT (NULL, other channels, frames already written).
 * Thread safety: the writer's thread. */
boop_status boop_file_writer_set_output(boop_file_writer* writer, boop_output* output);

/* The last libsndfile/system error message of this writer ("" if none).
 * Thread safety: the writer's thread. */
const char* boop_file_writer_error(const boop_file_writer* writer);

/* ====================================================================================== */
/* ALSA playback: one C++ I/O thread pulls from a source and writes to the PCM             */
/* ====================================================================================== */

typedef struct boop_playback boop_playback;

/* Which sound system a playback or capture talks to. */
typedef enum boop_backend {
    BOOP_BACKEND_ALSA = 0, /* an ALSA PCM (device); the default */
    BOOP_BACKEND_JACK = 1, /* a client of the running JACK server (jackd, or PipeWire's JACK API):
                              the server's rate and buffer size are used, the process callback
                              renders (same real-time rules as the ALSA I/O thread), xruns are
                              the server's, and its shutdown is BOOP_ERROR_DEVICE_LOST. No
                              server running: BOOP_ERROR_DEVICE_UNAVAILABLE (none is started). */
    BOOP_BACKEND_MAX_ENUM = 0x7FFFFFFF
} boop_backend;

/* How long the device may take no data at all before it counts as lost (the watchdog). A live
 * server that is merely slow (an idle PulseAudio sink waking up takes up to 2 s; a stalled
 * server) stays well under it and is survived. Only time during which the process itself runs
 * counts: a process stopped for any time (SIGSTOP, SIGTSTP, a debugger, a suspended machine) and
 * continued recovers its stream instead of calling the device lost. */
#define BOOP_PLAYBACK_WATCHDOG_SECONDS 10
/* The ceiling of adaptive buffering: the fill level never grows past this. */
#define BOOP_PLAYBACK_MAX_LATENCY_MS 50

typedef struct boop_playback_config {
    const char* device;             /* ALSA PCM name, e.g. "default", "pulse", "hw:0,0" */
    uint32_t period_frames;         /* requested period, BOOP_PERIOD_FRAMES_MIN ... _MAX (default: limit
                                       PLAYBACK_PERIOD_FRAMES, 128) */
    uint32_t periods;               /* requested periods per buffer, BOOP_PERIODS_MIN ... _MAX (default: limit
                                       PLAYBACK_PERIODS, 3): the starting latency */
    int realtime_priority;          /* SCHED_FIFO (or rtkit) priority to try (0 = do not try; default 70) */
    int adaptive;                   /* 1 (default): when xruns come in a burst, keep more audio queued
                                       (doubling, up to BOOP_PLAYBACK_MAX_LATENCY_MS); 0: a fixed buffer */
    boop_backend backend;           /* BOOP_BACKEND_ALSA (default) or BOOP_BACKEND_JACK; with JACK,
                                       device, period_frames, periods, realtime_priority and adaptive
                                       are the server's business and ignored */
    const char* client_name;        /* JACK client name (default "boop"; the server adds a suffix when taken) */
    int connect;                    /* JACK: 1 (default) connects the ports out_1... to the server's
                                       physical playback ports (a mono output to the first two); 0 leaves
                                       the routing to the user */
    boop_output_config output;      /* the output stage every source played passes through (gain and
                                       true-peak limiter; defaults: boop_output_config_default) */
    int midi_out;                   /* 1 adds a MIDI output midi_out (boop_playback_midi_send); default 0.
                                       JACK: a port of the client. ALSA: a sequencer client <client_name>
                                       whose events are scheduled on a queue for the real time their
                                       frame is heard (open fails DEVICE_UNAVAILABLE without /dev/snd/seq) */
    int mute;                       /* 1: MIDI only, default 0. JACK sends silence to the audio ports; ALSA opens no
                                       PCM: a timer runs the engine's clock on CLOCK_MONOTONIC at the rate asked
                                       (frame f heard at its start + f / rate, the sequencer's stamps on that line) */
    int follow_transport;           /* JACK: 1 reports the transport's changes (boop_playback_transport_next);
                                       default 0 */
    int follow_midi_clock;          /* JACK: 1 adds a port midi_in and reports the MIDI clock, Start, Stop,
                                       Continue and Song Position arriving there (boop_playback_transport_next);
                                       default 0 */
    struct boop_midi_in* midi_keys; /* JACK: a keyboard from boop_midi_in_open_jack: a port midi_in whose
                                       channel messages it receives (boop edit --midi); default NULL */
} boop_playback_config;

/* What the JACK transport did, seen at the start of a cycle (play --sync jack). */
typedef enum boop_transport_kind {
    BOOP_TRANSPORT_ROLLING = 0, /* it started rolling, or was moved while rolling */
    BOOP_TRANSPORT_STOPPED = 1,
    BOOP_TRANSPORT_TEMPO = 2, /* the timebase master's BBT tempo changed while rolling */
    /* From midi_in (follow_midi_clock), stamped with the message's own engine frame: */
    BOOP_TRANSPORT_CLOCK = 3, /* a MIDI clock (0xF8) */
    /* Start and Continue hold the engine on their engine frame (silence) until the next clock or
     * Stop, which releases it there: the first clock's frame is the held engine frame. */
    BOOP_TRANSPORT_START = 4,    /* Start (0xFA): from the song's beginning at the next clock */
    BOOP_TRANSPORT_CONTINUE = 5, /* Continue (0xFB): from the song position at the next clock */
    BOOP_TRANSPORT_MIDI_STOP = 6,
    BOOP_TRANSPORT_SONG_POSITION = 7, /* Song Position Pointer: song_position sixteenths */
    /* The transport is starting (or was moved) from transport_frame and waits for its slow-sync
     * clients, boop among them: boop reports ready once boop_playback_transport_arm names this
     * start (request) and its engine has rendered up to the armed frame. Reported again for the
     * same request when an arm came too late (the engine had passed its frame): arm anew. */
    BOOP_TRANSPORT_STARTING = 8
} boop_transport_kind;

typedef struct boop_transport_event {
    boop_transport_kind kind;
    uint64_t engine_frame;    /* the engine frame of the cycle's start (boop_playback_midi_send's clock) */
    uint32_t transport_frame; /* the transport's frame there */
    double bpm;               /* the BBT tempo; 0 when no timebase master gives BBT */
    int32_t bar, beat, tick;  /* BBT position (1-based bar and beat), when bpm > 0 */
    double ticks_per_beat;
    float beats_per_bar, beat_type;
    uint32_t song_position; /* BOOP_TRANSPORT_SONG_POSITION: MIDI beats (sixteenth notes) */
    uint32_t request;       /* STARTING, START, CONTINUE: this start's number (never 0), for
                               boop_playback_transport_arm */
    int prepared;           /* ROLLING: 1 when it rolled on the armed engine frame with that start's
                               events queued (nothing to do); 0: re-anchor at engine_frame. CLOCK
                               releasing a hold: 1 when the Start's or Continue's arm had come */
} boop_transport_event;

/* Which scheduling the I/O thread got. */
typedef enum boop_priority {
    BOOP_PRIORITY_NORMAL = 0, /* neither was permitted */
    BOOP_PRIORITY_FIFO = 1,   /* SCHED_FIFO, set by the thread itself */
    BOOP_PRIORITY_RTKIT = 2,  /* SCHED_RR granted by rtkit (org.freedesktop.RealtimeKit1) */
    BOOP_PRIORITY_MAX_ENUM = 0x7FFFFFFF
} boop_priority;

typedef struct boop_playback_info {
    double sample_rate; /* the rate ALSA granted */
    uint32_t channels;
    uint32_t period_frames;        /* granted */
    uint32_t buffer_frames;        /* the starting latency: period_frames x periods (what is kept queued) */
    const char* format;            /* "FLOAT_LE", "S32_LE" or "S16_LE" (static string) */
    int realtime_scheduling;       /* 1 if the I/O thread runs at a real-time priority (FIFO or rtkit) */
    boop_priority priority;        /* which one (known after boop_playback_start) */
    uint32_t device_buffer_frames; /* what ALSA allocated: room for the adaptive ceiling */
} boop_playback_info;

typedef struct boop_playback_stats {
    uint64_t frames_written; /* frames handed to ALSA */
    int64_t delay_frames;    /* frames written but not yet heard: the device's (the last snd_pcm_delay; JACK: the
                                ports' latency and a cycle) and the output stage's look-ahead */
    uint64_t xruns;          /* recovered underruns */
    uint64_t suspends;       /* recovered suspends */
    int running;             /* 1 while the I/O thread runs */
    boop_status error;       /* BOOP_OK, or why the I/O thread stopped */
    uint64_t stalls;         /* times the device took nothing for longer than its buffer, then resumed */
    double longest_stall_seconds;
    uint32_t latency_frames;  /* what is kept queued now (grows with adaptive buffering) */
    uint32_t latency_growths; /* times adaptive buffering grew it */
    uint64_t resumes;         /* times the process was found to have been stopped (SIGSTOP, a
                                 debugger) and the stream was picked up again */
} boop_playback_stats;

/* Fills a config with the defaults (device "default", 128-frame periods x 3, adaptive).
 * Thread safety: any thread. */
void boop_playback_config_default(boop_playback_config* config);

/* Raises the calling thread to real-time scheduling at `priority` (SCHED_FIFO when the process may
 * set it, else rtkit; priority <= 0 asks for nothing), for a control thread whose lateness would be
 * heard: a live transport's scheduler, which must run on time even when the process is niced
 * beside busy ones. Give it less than the I/O thread's priority. Returns what was granted
 * (BOOP_PRIORITY_NORMAL when neither was permitted: never an error).
 * Thread safety: any control thread, about itself; blocking (it may call D-Bus). */
boop_priority boop_thread_make_realtime(int priority);

/* Opens and configures the PCM for `channels` (1 ... BOOP_DEVICE_CHANNELS_MAX) at `sample_rate`
 * (BOOP_ENGINE_RATE_MIN ... _MAX, or the nearest the device grants; see info). Nothing plays until
 * boop_playback_start.
 * Return: BOOP_OK, BOOP_ERROR_DEVICE_UNAVAILABLE, BOOP_ERROR_INVALID_ARGUMENT (a config value out
 * of its range, the output config's included).
 * Thread safety: control thread. */
boop_status boop_playback_open(const boop_playback_config* config, double sample_rate, uint32_t channels,
                               boop_playback** out_playback);
/* As boop_playback_open, and on failure `why` (NUL-terminated, one line, `why_size` bytes at most)
 * says why the ALSA device would not open or take the settings, in ALSA's words where it gave
 * some ("No such file or directory", "Device or resource busy"); "" when there is nothing to add.
 * Thread safety: control thread. */
boop_status boop_playback_open_why(const boop_playback_config* config, double sample_rate, uint32_t channels,
                                   boop_playback** out_playback, char* why, size_t why_size);

/* What was negotiated. Thread safety: control thread. */
boop_playback_info boop_playback_get_info(const boop_playback* playback);

/* Starts the I/O thread pulling from `source` through the playback's output stage (prepared here
 * for the source's rate and channels, BOOP_CHANNELS_MAX at most). The source's rate should equal
 * the granted rate. What the device plays is the source delayed by the stage's look-ahead.
 * Return: BOOP_OK, BOOP_ERROR_ALREADY_RUNNING, BOOP_ERROR_INVALID_ARGUMENT,
 * BOOP_ERROR_OUT_OF_MEMORY. Thread safety: control thread. */
boop_status boop_playback_start(boop_playback* playback, boop_source source);

/* Changes the output stage's gain (BOOP_GAIN_DB_MIN ... BOOP_GAIN_DB_MAX): before start it
 * replaces the config's; while playing it glides over 20 ms.
 * Return: BOOP_OK or BOOP_ERROR_INVALID_ARGUMENT. Thread safety: any thread (atomic). */
boop_status boop_playback_set_gain_db(boop_playback* playback, double gain_db);

/* The deepest gain reduction of the output stage's limiter since the last call, in dB (0 when it
 * did nothing). Thread safety: any thread (atomic exchange). */
float boop_playback_take_reduction_db(boop_playback* playback);

/* Statistics. Thread safety: any thread. */
boop_playback_stats boop_playback_get_stats(const boop_playback* playback);

/* A descriptor that becomes readable (POLLIN) once the playback's audio has stopped: the device
 * lost or the JACK server gone (boop_playback_get_stats then says why), or stopped. A control loop
 * polls it beside its other descriptors, so it learns of a lost device at once without asking the
 * stats on a timer. Owned by the playback (valid until boop_playback_destroy; never close it or
 * read from it); cleared by boop_playback_start. -1 for NULL, before open succeeded, or when the
 * system had no descriptor to give (then only the stats tell). Thread safety: any thread. */
int boop_playback_ended_fd(const boop_playback* playback);

/* Stops the I/O thread (after draining what ALSA holds when drain != 0) and closes the PCM.
 * Thread safety: control thread. */
void boop_playback_stop(boop_playback* playback, int drain);

/* Stops if needed and frees. NULL is ignored. Thread safety: control thread. */
void boop_playback_destroy(boop_playback* playback);

/* MIDI out (a playback opened with midi_out = 1; on ALSA the message is scheduled on the
 * sequencer queue at once, for the time its frame is heard, and a panic is done on return).
 * Queues one message (1 ... 3 bytes) for
 * engine frame `frame` (the engine's frame clock, as boop_engine_note_on takes): the process
 * callback writes it at its exact offset in the cycle that contains that frame (a frame already
 * past goes out at the start of the next cycle, counted late). Messages must be queued in frame
 * order. Return: BOOP_OK, BOOP_ERROR_QUEUE_FULL, BOOP_ERROR_NOT_RUNNING (no MIDI out),
 * BOOP_ERROR_INVALID_ARGUMENT. Thread safety: one control thread at a time (the queue's producer). */
boop_status boop_playback_midi_send(boop_playback* playback, uint64_t frame, const uint8_t* bytes, uint32_t size);

/* At the next cycle: drops the queued MIDI, sends a note-off for every note sent on and not off,
 * and Stop if a Start or Continue was sent since the last Stop. boop_playback_midi_panic_done says
 * when that went out. Thread safety: control thread. */
boop_status boop_playback_midi_panic(boop_playback* playback);
int boop_playback_midi_panic_done(const boop_playback* playback);

/* The next transport change (a JACK playback opened with follow_transport = 1), oldest first.
 * Return: 1 and the event, 0 when none waits. Thread safety: one control thread. */
int boop_playback_transport_next(boop_playback* playback, boop_transport_event* out_event);

/* Slow sync (follow_transport): the events of the start `request` (a BOOP_TRANSPORT_STARTING's) are
 * queued for a run whose transport frame is heard on engine frame `engine_frame` (a frame the
 * engine has not rendered yet). The process thread then renders the engine up to that frame and
 * holds it there (silence) until the transport rolls, and tells JACK it is ready in the cycle that
 * reaches it: the transport's first rolling frame is the engine's `engine_frame`, whenever the
 * other slow-sync clients let it roll. Request 0 withdraws the arm (after a stop, once the queued
 * events were cancelled): the engine runs on. follow_midi_clock: a START or CONTINUE's request and
 * engine frame (the held one), its events queued there; the next clock says whether it came in
 * time (prepared). Return: BOOP_OK, BOOP_ERROR_NOT_RUNNING (not a JACK playback following the
 * transport or a clock). Thread safety: one control thread; the process thread reads the arm
 * through one atomic word (no lock). */
boop_status boop_playback_transport_arm(boop_playback* playback, uint32_t request, uint64_t engine_frame);

/* Connects midi_out to another client's MIDI input port ("client:port"), after start.
 * Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT (no such MIDI input port), BOOP_ERROR_NOT_RUNNING.
 * Thread safety: control thread. */
boop_status boop_playback_midi_connect(boop_playback* playback, const char* destination);

/* ====================================================================================== */
/* ALSA capture, device listing and pitch detection                                       */
/* ====================================================================================== */

/* ---- Device listing ---------------------------------------------------------------------- */

typedef struct boop_device_list boop_device_list;

typedef struct boop_device_info {
    const char* name;        /* the PCM name to pass as a device, e.g. "default", "hw:CARD=PCH,DEV=0" */
    const char* description; /* one line (ALSA's multi-line hints joined with " - "), "" if none */
    int playback;            /* 1 if the PCM can play */
    int capture;             /* 1 if the PCM can record */
    int is_default;          /* 1 for the PCM named "default" */
} boop_device_info;

/* Lists the ALSA PCMs (snd_device_name_hint), playback and capture, with descriptions.
 * Parameters: out_list receives the list (strings stay valid until it is destroyed).
 * Return: BOOP_OK, BOOP_ERROR_OUT_OF_MEMORY, BOOP_ERROR_DEVICE_UNAVAILABLE (ALSA gave no hints).
 * Thread safety: any thread (one list per caller). */
boop_status boop_device_list_create(boop_device_list** out_list);

/* Lists the audio ports of the running JACK server: name is the full port name
 * ("system:playback_1"), playback = 1 for a port that takes audio (an input port), capture = 1
 * for one that gives audio; the description says which and whether it is physical.
 * Return: BOOP_OK, BOOP_ERROR_OUT_OF_MEMORY, BOOP_ERROR_DEVICE_UNAVAILABLE (no server running; none
 * is started). Thread safety: any thread. */
boop_status boop_device_list_create_jack(boop_device_list** out_list);

/* Lists MIDI ports: the ALSA sequencer's (name "client:port", where /dev/snd/seq exists) and the
 * running JACK server's MIDI ports (full port names). playback = 1 for a port that takes MIDI (a
 * sink), capture = 1 for one that gives MIDI (a source); the description names the system. Neither
 * present is an empty list. Return: BOOP_OK, BOOP_ERROR_OUT_OF_MEMORY. Thread safety: any thread. */
boop_status boop_device_list_create_midi(boop_device_list** out_list);

/* Number of entries. Thread safety: any thread. */
size_t boop_device_list_count(const boop_device_list* list);

/* Entry `index` (< count); an all-empty entry for a bad index. Thread safety: any thread. */
boop_device_info boop_device_list_get(const boop_device_list* list, size_t index);

/* Frees a list (NULL is ignored). Thread safety: any thread, once no other uses the list. */
void boop_device_list_destroy(boop_device_list* list);

/* ---- Capture: one C++ I/O thread reads the PCM into a lock-free ring of mono floats ------- */

typedef struct boop_capture boop_capture;

typedef struct boop_capture_config {
    const char* device;      /* ALSA PCM name (default "default") */
    double sample_rate;      /* requested rate, BOOP_ENGINE_RATE_MIN ... _MAX (default: limit CAPTURE_RATE,
                                16000); see info for the granted one */
    uint32_t channels;       /* device channels to record, averaged to mono, 1 ... BOOP_DEVICE_CHANNELS_MAX
                                (default 1) */
    uint32_t period_frames;  /* requested period, BOOP_PERIOD_FRAMES_MIN ... _MAX (default: limit
                                CAPTURE_PERIOD_FRAMES, 256) */
    uint32_t periods;        /* requested periods per buffer, BOOP_PERIODS_MIN ... _MAX (default: limit
                                CAPTURE_PERIODS, 4) */
    uint32_t ring_frames;    /* mono frames the ring holds, rounded up to a power of two
                                (default 65536: 4 s at 16 kHz); a reader too slow loses frames */
    int realtime_priority;   /* SCHED_FIFO priority to try (0 = do not try; default 70) */
    boop_backend backend;    /* BOOP_BACKEND_ALSA (default) or BOOP_BACKEND_JACK: input ports
                                in_1... at the server's rate (sample_rate, period_frames and
                                periods are ignored) */
    const char* client_name; /* JACK client name (default "boop") */
    int connect;             /* JACK: 1 (default) connects the physical capture ports to in_1... */
} boop_capture_config;

typedef struct boop_capture_info {
    double sample_rate;      /* granted */
    uint32_t channels;       /* granted device channels (all averaged to mono) */
    uint32_t period_frames;  /* granted */
    uint32_t buffer_frames;  /* granted */
    const char* format;      /* device format: "FLOAT_LE", "S32_LE" or "S16_LE" (static string) */
    int realtime_scheduling; /* 1 if the I/O thread runs SCHED_FIFO (after start) */
} boop_capture_info;

typedef struct boop_capture_stats {
    uint64_t frames_captured; /* mono frames put in the ring since start */
    uint64_t frames_dropped;  /* frames lost because the ring was full (reader too slow) */
    uint64_t overruns;        /* recovered device overruns */
    uint64_t suspends;        /* recovered suspends */
    int running;              /* 1 while the I/O thread runs */
    boop_status error;        /* BOOP_OK, or why the I/O thread stopped (BOOP_ERROR_DEVICE_LOST) */
} boop_capture_stats;

/* Fills a config with the defaults. Thread safety: any thread. */
void boop_capture_config_default(boop_capture_config* config);

/* Opens and configures the capture PCM (FLOAT_LE through the plug layer, else S32_LE or S16_LE,
 * converted to float in [-1, 1]). Nothing is recorded until boop_capture_start.
 * Return: BOOP_OK, BOOP_ERROR_DEVICE_UNAVAILABLE, BOOP_ERROR_INVALID_ARGUMENT,
 * BOOP_ERROR_OUT_OF_MEMORY. Thread safety: control thread. */
boop_status boop_capture_open(const boop_capture_config* config, boop_capture** out_capture);
/* As boop_capture_open, and on failure `why` (as boop_playback_open_why gives it) says why the ALSA
 * device would not open ("Device or resource busy" when another program holds the microphone).
 * Thread safety: control thread. */
boop_status boop_capture_open_why(const boop_capture_config* config, boop_capture** out_capture, char* why,
                                  size_t why_size);

/* What was negotiated. Thread safety: control thread. */
boop_capture_info boop_capture_get_info(const boop_capture* capture);

/* Starts the I/O thread. Return: BOOP_OK, BOOP_ERROR_ALREADY_RUNNING, BOOP_ERROR_NOT_RUNNING
 * (stopped captures cannot restart: open a new one). Thread safety: control thread. */
boop_status boop_capture_start(boop_capture* capture);

/* Moves up to max_frames mono frames from the ring into `out` (never blocks).
 * Parameters: out_frames receives how many were read; out_first_frame (may be NULL) receives
 * the index of the first one in the ring's sequence (frames that reached the ring since start;
 * frames dropped on a full ring are not counted).
 * Return: BOOP_OK (possibly 0 frames), BOOP_ERROR_INVALID_ARGUMENT.
 * Thread safety: one reader thread (the ring's single consumer). */
boop_status boop_capture_read(boop_capture* capture, float* out, uint32_t max_frames, uint32_t* out_frames,
                              uint64_t* out_first_frame);

/* Waits until at least min_frames can be read, the I/O thread stops, or timeout_ms passes
 * (sleeping in short steps on the reader's side; the I/O thread never signals).
 * Return: the frames available now. Thread safety: the reader thread. */
uint32_t boop_capture_wait(boop_capture* capture, uint32_t min_frames, int timeout_ms);

/* Statistics. Thread safety: any thread. */
boop_capture_stats boop_capture_get_stats(const boop_capture* capture);

/* Stops the I/O thread promptly and closes the PCM; frames already in the ring stay readable.
 * Thread safety: control thread. */
void boop_capture_stop(boop_capture* capture);

/* Stops if needed and frees. NULL is ignored. Thread safety: control thread. */
void boop_capture_destroy(boop_capture* capture);

/* ---- Pitch detection: YIN (de Cheveigné & Kawahara 2002) ---------------------------------- */

typedef struct boop_pitch_detector boop_pitch_detector;

typedef struct boop_pitch_result {
    double frequency_hz; /* the fundamental, or 0 when unvoiced (silence, noise, out of range) */
    double confidence;   /* 1 - d'(T) of the chosen dip, 0 ... 1 */
} boop_pitch_result;

/* Creates a detector for windows of up to window_frames samples (BOOP_PITCH_WINDOW_MIN ... _MAX)
 * at sample_rate (BOOP_PITCH_RATE_MIN ... BOOP_ENGINE_RATE_MAX).
 * The lag range is window_frames / 2, so the lowest pitch is 2 x sample_rate / window_frames.
 * min_hz / max_hz bound the search (0 = defaults: 40 Hz and sample_rate / 4). Allocates.
 * Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT, BOOP_ERROR_OUT_OF_MEMORY.
 * Thread safety: any thread; one thread per detector afterwards. */
boop_status boop_pitch_detector_create(double sample_rate, uint32_t window_frames, double min_hz, double max_hz,
                                       boop_pitch_detector** out_detector);

/* The YIN absolute threshold (default 0.12) and the silence gate in dBFS RMS (default -60).
 * Thread safety: the detector's thread. */
void boop_pitch_detector_set_threshold(boop_pitch_detector* detector, double threshold);
void boop_pitch_detector_set_silence_dbfs(boop_pitch_detector* detector, double dbfs);

/* Estimates the pitch of the last min(frames, window_frames) samples. Never allocates;
 * real-time safe. Thread safety: the detector's thread. */
boop_pitch_result boop_pitch_detector_process(boop_pitch_detector* detector, const float* samples, uint32_t frames);

/* Frees a detector (NULL is ignored). Thread safety: the detector's thread. */
void boop_pitch_detector_destroy(boop_pitch_detector* detector);

/* ---- Voice pitch tracking: YIN's dips per frame, probabilistic-YIN weights, fixed-lag Viterbi ---- */

typedef struct boop_pitch_tracker boop_pitch_tracker;

typedef struct boop_pitch_frame {
    uint64_t index;      /* frame number, from 0 */
    double frequency_hz; /* on the chosen path; 0 = unvoiced */
    double guess_hz;     /* the path's pitch, or when unvoiced the likeliest candidate (0: none) */
    double voiced_prob;  /* probability of a YIN dip below the threshold, 0 ... 1 */
    double depth;        /* d' of the chosen dip (0 = a perfect period) */
} boop_pitch_frame;

/* Creates a tracker for frames of window_frames samples (BOOP_PITCH_WINDOW_MIN ... _MAX) at
 * sample_rate; each frame is decided lag_frames (0 ... 31) frames later. min_hz / max_hz as for
 * the detector. Allocates. Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT, BOOP_ERROR_OUT_OF_MEMORY.
 * Thread safety: any thread; one thread per tracker afterwards. */
boop_status boop_pitch_tracker_create(double sample_rate, uint32_t window_frames, uint32_t lag_frames, double min_hz,
                                      double max_hz, boop_pitch_tracker** out_tracker);

/* Analyses the last min(frames, window_frames) samples as the next frame (call once per hop).
 * Return: 1 when the decision for the frame lag_frames back is in *out, else 0. Never allocates.
 * Thread safety: the tracker's thread. */
int boop_pitch_tracker_push(boop_pitch_tracker* tracker, const float* samples, uint32_t frames, boop_pitch_frame* out);

/* At the end of a signal: the frames not yet decided, in order. Return: how many were written
 * (at most max); call until 0. Thread safety: the tracker's thread. */
uint32_t boop_pitch_tracker_flush(boop_pitch_tracker* tracker, boop_pitch_frame* out, uint32_t max);

/* Forgets every frame (a new signal). Thread safety: the tracker's thread. */
void boop_pitch_tracker_reset(boop_pitch_tracker* tracker);

/* Frees a tracker (NULL is ignored). Thread safety: the tracker's thread. */
void boop_pitch_tracker_destroy(boop_pitch_tracker* tracker);

/* ====================================================================================== */
/* Live MIDI synth: boop played from a keyboard or another program (boop synth)            */
/* ====================================================================================== */

typedef struct boop_synth boop_synth;

/* A channel's voice: a boop_timbre (0 ... BOOP_TIMBRE_COUNT - 1), or the General MIDI drum kit. Channels
 * (BOOP_MIDI_CHANNELS) and the bend range: CAudioEngineLimits.h. */
#define BOOP_SYNTH_VOICE_DRUMS BOOP_TIMBRE_COUNT

typedef struct boop_synth_config {
    boop_backend backend;                  /* BOOP_BACKEND_JACK (default), or BOOP_BACKEND_ALSA: audio through the
                                              ALSA PCM `device`, MIDI from an ALSA sequencer client <name> with a
                                              writable port midi_in (events placed one period after arrival) */
    const char* client_name;               /* default "boop": ports <name>:midi_in, <name>:out_1, <name>:out_2 */
    int connect;                           /* 1 (default): out_1/out_2 to the server's physical playback ports */
    uint32_t voices;                       /* polyphony, BOOP_ENGINE_VOICES_MIN ... _MAX (default 16) */
    double bend_range;                     /* semitones of a full pitch bend (default 2) */
    int channel_voice[BOOP_MIDI_CHANNELS]; /* default: 1 melody, 2 chords, 3 bass, 10 drums, others melody */
    /* ALSA only (JACK takes the server's): */
    const char* device;     /* ALSA PCM name (default "default") */
    double sample_rate;     /* requested rate (default 48000; the device may grant another) */
    uint32_t period_frames; /* BOOP_PERIOD_FRAMES_MIN ... _MAX (default 256): also the MIDI delay */
    uint32_t periods;       /* BOOP_PERIODS_MIN ... _MAX (default 3) */
    /* Both: the output stage the synth's sound passes through before the ports, the device and
       the recording (gain and true-peak limiter; defaults: boop_output_config_default). Its
       look-ahead delays the sound by boop_synth_output_latency_frames, which JACK's latency
       reporting includes: out_1/out_2 report it as their capture latency past midi_in's. */
    boop_output_config output;
} boop_synth_config;

typedef struct boop_synth_stats {
    uint64_t messages;        /* channel messages received */
    uint64_t malformed_bytes; /* bytes that belonged to no message (skipped) */
    uint64_t ignored;         /* SysEx, clock and other system messages (skipped) */
    uint32_t notes_held;      /* keys down or held by the sustain pedal */
    uint32_t voices;          /* voices sounding */
    int32_t last_note;        /* channel (0-based) << 8 | key of the last note started, -1 if none */
    uint64_t xruns;
    uint64_t frames;   /* frames rendered */
    boop_status error; /* BOOP_OK, or BOOP_ERROR_DEVICE_LOST once the server went away */
    uint64_t late;     /* ALSA: events played after their frame (the I/O thread woke more than a
                          period late), at the start of the next block */
} boop_synth_stats;

/* One channel message as received: frame is the server's frame time it was applied on. */
typedef struct boop_midi_event {
    uint64_t frame;
    uint8_t status, data1, data2;
} boop_midi_event;

/* Fills a config with the defaults. Thread safety: any thread. */
void boop_synth_config_default(boop_synth_config* config);

/* Opens the client and its ports and makes the engine at the server's rate. Nothing sounds until
 * boop_synth_start. Return: BOOP_OK, BOOP_ERROR_DEVICE_UNAVAILABLE (no server), BOOP_ERROR_INVALID_ARGUMENT,
 * BOOP_ERROR_OUT_OF_MEMORY. Thread safety: control thread. */
boop_status boop_synth_open(const boop_synth_config* config, boop_synth** out_synth);

/* As boop_synth_open, and on failure `why` (NUL-terminated, one line, `why_size` bytes at most)
 * says what failed: with ALSA, "no ALSA sequencer (/dev/snd/seq: ...)" before any sound device is
 * opened, or the PCM that cannot be opened. */
boop_status boop_synth_open_why(const boop_synth_config* config, boop_synth** out_synth, char* why, size_t why_size);

/* The server's rate and buffer size (ALSA: the granted rate and period); the MIDI input port's
 * full name ("" until started: the port is registered once the client is active, so that its
 * appearing means it takes connections; ALSA: "boop:midi_in (client:port)" once open).
 * Thread safety: any thread. */
double boop_synth_sample_rate(const boop_synth* synth);
uint32_t boop_synth_buffer_frames(const boop_synth* synth);
const char* boop_synth_midi_port(const boop_synth* synth);
/* The frames the output stage's look-ahead delays the sound (constant after open; 0 for NULL):
 * a note starts this many frames after the frame its event is applied on. Thread safety: any thread. */
uint32_t boop_synth_output_latency_frames(const boop_synth* synth);

/* Activates the client: from the next cycle each MIDI event is applied on its own frame inside
 * the process callback (real-time thread; no allocation, locks or system calls there).
 * Return: BOOP_OK, BOOP_ERROR_ALREADY_RUNNING, BOOP_ERROR_DEVICE_UNAVAILABLE. Thread safety: control thread. */
boop_status boop_synth_start(boop_synth* synth);

/* Connects the MIDI output port `source` ("client:port") to the synth's input, after start. With
 * ALSA, subscribes midi_in to a sequencer port that gives MIDI: "client:port" by numbers, a client
 * number, "name:port", or a part of "client name:port name" (the first such port; case ignored).
 * Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT (no such MIDI output port), BOOP_ERROR_NOT_RUNNING,
 * BOOP_ERROR_DEVICE_UNAVAILABLE (the sequencer refused the subscription).
 * Thread safety: control thread. */
boop_status boop_synth_connect_midi(boop_synth* synth, const char* source);

/* Fades every voice out over `seconds` (0.001 ... 10) at the next cycle. Thread safety: control thread. */
boop_status boop_synth_fade_out(boop_synth* synth, double seconds);

/* Statistics. Thread safety: any thread. */
boop_synth_stats boop_synth_get_stats(const boop_synth* synth);
/* A descriptor that becomes readable (POLLIN) once the synth's sound stopped by itself: the PCM
 * lost or the JACK server gone (boop_synth_get_stats then says why). As boop_playback_ended_fd:
 * owned by the synth, never closed or read by the caller; -1 for NULL or when the system had none.
 * Thread safety: any thread. */
int boop_synth_ended_fd(const boop_synth* synth);

/* The next received message (oldest first, up to 4096 kept), for a -v log. Return: 1 and the
 * event, or 0 when none waits. Thread safety: one control thread. */
int boop_synth_next_event(boop_synth* synth, boop_midi_event* out_event);
/* Messages left out of that log because it was full (the reader fell behind); they were played all
 * the same. Thread safety: any thread. */
uint64_t boop_synth_log_dropped(const boop_synth* synth);

/* Records what the synth plays to `path`, by its extension: .wav (32-bit float, the output's exact
 * samples), .flac (16-bit), .ogg (Vorbis), or .mid (the channel messages on their frames, 960 ticks a
 * quarter at 120 BPM). The audio thread only pushes into a lock-free ring; a writer thread drains it into
 * a temporary file beside the target. Call after open and before start; boop_synth_finish_record after
 * boop_synth_stop renames it into place (destroy without it leaves nothing). Return: BOOP_OK,
 * BOOP_ERROR_INVALID_ARGUMENT (no such format), BOOP_ERROR_CANNOT_CREATE (boop_synth_record_error says
 * why), BOOP_ERROR_ALREADY_RUNNING (after start). Thread safety: control thread. */
boop_status boop_synth_record(boop_synth* synth, const char* path);
/* Return: BOOP_OK (or no recording), BOOP_ERROR_IO / _CANNOT_CREATE (nothing written; the error says
 * why), BOOP_ERROR_ALREADY_RUNNING (not stopped yet). Thread safety: control thread. */
boop_status boop_synth_finish_record(boop_synth* synth);
/* The last recording error in words ("" if none); frames or messages the writer could not keep up with.
 * Thread safety: control thread. */
const char* boop_synth_record_error(const boop_synth* synth);
uint64_t boop_synth_record_dropped(const boop_synth* synth);

/* Deactivates and closes the client; destroy frees (NULL is ignored). Thread safety: control thread. */
void boop_synth_stop(boop_synth* synth);
void boop_synth_destroy(boop_synth* synth);

#ifdef __cplusplus
} /* extern "C" */
#endif

/* Generative ambient, in a header of its own (a third of the API by itself); part of this one. */
#include "CAudioEngineAmbient.h"
/* The boop tool's files and process clean-up (atomic files, temporary files, stop signals, standard
 * descriptors). */
#include "CAudioEngineProcess.h"
/* MIDI keyboard input for a control loop, and tunings (Scala scales and keyboard mappings). */
#include "CAudioEngineKeys.h"
/* The live synth's palette, controllers and JACK manners (boop synth). */
#include "CAudioEngineSynth.h"

#endif /* CAUDIOENGINE_H */
