/*
 * CAudioEngine — limits: the one source of every range boop accepts. A part of CAudioEngine.h
 * (which includes it before its declarations); it needs nothing else and may be included alone.
 *
 * Every range is written here once: the engine checks its arguments against these, the Swift
 * wrapper and the command line build their ranges, help and error messages from them, the README
 * quotes them, and scripts/cli-tests.d/limits.sh tries every one of them one past each end. All
 * bounds are inclusive.
 */
#ifndef PIXELBOOP_CAUDIOENGINE_LIMITS_H
#define PIXELBOOP_CAUDIOENGINE_LIMITS_H

/* ---- Named bounds the declarations of CAudioEngine.h use (plain numbers: usable in #if) ---- */

/* Sample rates of the engine, the output stage, the loudness meter, playback and capture (Hz). */
#define BOOP_ENGINE_RATE_MIN 8000
#define BOOP_ENGINE_RATE_MAX 384000
/* Polyphony of the engine's voice pool (drums have 8 of their own besides). */
#define BOOP_ENGINE_VOICES_MIN 1
#define BOOP_ENGINE_VOICES_MAX 256
#define BOOP_ENGINE_VOICES_DEFAULT 8
/* The largest block a render is asked for (frames), and the event queue (events). */
#define BOOP_ENGINE_BLOCK_FRAMES_MAX 8192
#define BOOP_ENGINE_QUEUE_MIN 16
#define BOOP_ENGINE_QUEUE_MAX 1048576
/* Interleaved channels of the engine, an ambient piece and the output stage: 1 or 2. */
#define BOOP_CHANNELS_MAX 2
/* An event's velocity gain (0 ... max), and the fade of all-notes-off and cancel (seconds). */
#define BOOP_EVENT_GAIN_MAX 4.0
#define BOOP_FADE_SECONDS_MIN 0.003
#define BOOP_FADE_SECONDS_MAX 10.0

/* The output stage: the gain before the limiter (dB) and the limiter's true-peak ceiling (dBTP). */
#define BOOP_GAIN_DB_MIN (-60.0)
#define BOOP_GAIN_DB_MAX 12.0
#define BOOP_CEILING_DBTP (-1.0)
#define BOOP_CEILING_DBTP_MIN (-20.0)
#define BOOP_CEILING_DBTP_MAX 0.0

/* Sound devices (playback and capture): the device channels, the period in frames and the periods
 * per buffer a config may request. 8192 x 16 frames is 3 s at 44.1 kHz, past any use; a device
 * may grant less (see the info structs). */
#define BOOP_DEVICE_CHANNELS_MAX 32
#define BOOP_PERIOD_FRAMES_MIN 16
#define BOOP_PERIOD_FRAMES_MAX 8192
#define BOOP_PERIODS_MIN 2
#define BOOP_PERIODS_MAX 16
/* How long opening a JACK client may wait for the server's answer. libjack itself waits for ever
 * (a stopped or hung server, a lock another process left held); an open normally takes a few
 * tens of milliseconds. The text is the same figure for messages. */
#define BOOP_JACK_ANSWER_SECONDS 5.0
#define BOOP_JACK_ANSWER_TEXT "5 s"

/* Audio files (boop_file_writer_open): the rates a file's header may carry (Hz) and its channels.
 * Wider than the engine's: a file is written at whatever rate its frames were made or captured. */
#define BOOP_FILE_RATE_MIN 1000
#define BOOP_FILE_RATE_MAX 768000
#define BOOP_FILE_CHANNELS_MAX 8
/* Pitch detection: the lowest sample rate (Hz) and the window (frames). */
#define BOOP_PITCH_RATE_MIN 4000
#define BOOP_PITCH_WINDOW_MIN 64
#define BOOP_PITCH_WINDOW_MAX 65536

/* What the front ends check before anything reaches the engine (patterns and tones are built in
 * Swift): a pattern's tempo (BPM) and how many times a render plays it, and the frequencies and
 * lengths (seconds) of tones. */
#define BOOP_TEMPO_BPM_MIN 60
#define BOOP_TEMPO_BPM_MAX 200
#define BOOP_LOOPS_MIN 1
#define BOOP_LOOPS_MAX 10000
#define BOOP_TONE_HZ_MIN 20
#define BOOP_TONE_HZ_MAX 20000
#define BOOP_TONE_SECONDS_MIN 0.02
#define BOOP_TONE_SECONDS_MAX 3600

/* The live synth's MIDI channels, and a full pitch bend (semitones either way). */
#define BOOP_MIDI_CHANNELS 16
#define BOOP_SYNTH_BEND_RANGE_MIN 0.0
#define BOOP_SYNTH_BEND_RANGE_MAX 24.0

/* ---- The table: every limit, one line each ------------------------------------------------ */

/* X(NAME, min, max, default, unit, description): boop_limit_get(BOOP_LIMIT_NAME) gives the row. The
 * default is the value taken when none is given; where nothing single is taken in its place (a
 * voice's own envelope, a required field) it is the lower bound. A bound named above is written by
 * its name, so each number is written once. A new limited flag is a line here and one check in
 * its command that reads it (Limits in Swift). */
#define BOOP_LIMITS(X)                                                                                                \
    /* The engine, devices, files and the output stage. */                                                            \
    X(ENGINE_RATE, BOOP_ENGINE_RATE_MIN, BOOP_ENGINE_RATE_MAX, 44100, "Hz", "sample rate of the engine and devices")  \
    X(ENGINE_VOICES, BOOP_ENGINE_VOICES_MIN, BOOP_ENGINE_VOICES_MAX, BOOP_ENGINE_VOICES_DEFAULT, "", "polyphony")     \
    X(BLOCK_FRAMES, 1, BOOP_ENGINE_BLOCK_FRAMES_MAX, 4096, "frames", "the largest block a render is asked for")       \
    X(QUEUE, BOOP_ENGINE_QUEUE_MIN, BOOP_ENGINE_QUEUE_MAX, 4096, "events", "the engine's event queue")                \
    X(CHANNELS, 1, BOOP_CHANNELS_MAX, 1, "", "interleaved channels of the engine and the output stage")               \
    X(EVENT_GAIN, 0, BOOP_EVENT_GAIN_MAX, 0, "", "an event's velocity gain")                                          \
    X(FADE_SECONDS, BOOP_FADE_SECONDS_MIN, BOOP_FADE_SECONDS_MAX, BOOP_FADE_SECONDS_MIN, "s", "all-notes-off fade")   \
    X(GAIN_DB, BOOP_GAIN_DB_MIN, BOOP_GAIN_DB_MAX, 0, "dB", "the gain before the output limiter")                     \
    X(CEILING_DBTP, BOOP_CEILING_DBTP_MIN, BOOP_CEILING_DBTP_MAX, BOOP_CEILING_DBTP, "dBTP", "the limiter's ceiling") \
    X(DEVICE_CHANNELS, 1, BOOP_DEVICE_CHANNELS_MAX, 1, "", "a sound device's channels")                               \
    X(PLAYBACK_PERIOD_FRAMES, BOOP_PERIOD_FRAMES_MIN, BOOP_PERIOD_FRAMES_MAX, 128, "frames", "an ALSA period")        \
    X(PLAYBACK_PERIODS, BOOP_PERIODS_MIN, BOOP_PERIODS_MAX, 3, "", "ALSA periods per buffer")                         \
    X(TIMER_PERIOD_FRAMES, BOOP_PERIOD_FRAMES_MIN, BOOP_PERIOD_FRAMES_MAX, 256, "frames", "MIDI-only timer period")   \
    X(TIMER_PERIODS, BOOP_PERIODS_MIN, BOOP_PERIODS_MAX, 3, "", "MIDI-only timer periods per buffer")                 \
    X(CAPTURE_RATE, BOOP_ENGINE_RATE_MIN, BOOP_ENGINE_RATE_MAX, 16000, "Hz", "a capture stream's rate")               \
    X(CAPTURE_PERIOD_FRAMES, BOOP_PERIOD_FRAMES_MIN, BOOP_PERIOD_FRAMES_MAX, 256, "frames", "an ALSA capture period") \
    X(CAPTURE_PERIODS, BOOP_PERIODS_MIN, BOOP_PERIODS_MAX, 4, "", "ALSA capture periods per buffer")                  \
    X(FILE_RATE, BOOP_FILE_RATE_MIN, BOOP_FILE_RATE_MAX, BOOP_FILE_RATE_MIN, "Hz", "an audio file's sample rate")     \
    X(FILE_CHANNELS, 1, BOOP_FILE_CHANNELS_MAX, 1, "", "an audio file's channels")                                    \
    X(PITCH_RATE, BOOP_PITCH_RATE_MIN, BOOP_ENGINE_RATE_MAX, BOOP_PITCH_RATE_MIN, "Hz", "pitch detection's rate")     \
    X(PITCH_WINDOW, BOOP_PITCH_WINDOW_MIN, BOOP_PITCH_WINDOW_MAX, BOOP_PITCH_WINDOW_MIN, "frames", "a pitch window")  \
    /* Patterns, songs and tones, as the front ends check them. */                                                    \
    X(TEMPO_BPM, BOOP_TEMPO_BPM_MIN, BOOP_TEMPO_BPM_MAX, 120, "BPM", "a pattern's or song's tempo")                   \
    X(LOOPS, BOOP_LOOPS_MIN, BOOP_LOOPS_MAX, 1, "", "how many times a render plays a pattern")                        \
    X(TONE_HZ, BOOP_TONE_HZ_MIN, BOOP_TONE_HZ_MAX, BOOP_TONE_HZ_MIN, "Hz", "a tone's frequency")                      \
    X(TONE_SECONDS, BOOP_TONE_SECONDS_MIN, BOOP_TONE_SECONDS_MAX, BOOP_TONE_SECONDS_MIN, "s", "a tone's length")      \
    X(TONE_REFERENCE_HZ, 300, 600, 440, "Hz", "tone --reference: the frequency of A4")                                \
    X(TONE_CENTS, -1200, 1200, 0, "cents", "tone --cents: a transposition of up to an octave either way")             \
    X(AMBIENT_SECONDS, 0.1, 86400, 0.1, "s", "ambient --duration: up to a day")                                       \
    X(LISTEN_SECONDS, 0.001, 604800, 0.001, "s", "listen --duration: up to a week")                                   \
    /* A song's instruments (boop_instrument; a song file's "instruments"). */                                        \
    X(INSTRUMENT_WIDTH, 0.05, 0.95, 0.5, "", "pulse width: the fraction of a cycle high")                             \
    X(INSTRUMENT_ATTACK, 0, 10, 0, "s", "attack (the voice's own when none is given)")                                \
    X(INSTRUMENT_DECAY, 0, 10, 0, "s", "decay (the voice's own when none is given)")                                  \
    X(INSTRUMENT_SUSTAIN, 0, 1, 0, "", "sustain level (the voice's own when none is given)")                          \
    X(INSTRUMENT_RELEASE, 0, 10, 0, "s", "release (the voice's own when none is given)")                              \
    X(INSTRUMENT_CUTOFF, 20, 20000, 20, "Hz", "lowpass cutoff (the voice's own when none is given)")                  \
    X(INSTRUMENT_RESONANCE, 0.5, 20, 0.5, "Q", "the lowpass's Q (the voice's own when none is given)")                \
    X(INSTRUMENT_PAN, -1, 1, 0, "", "pan: -1 left ... +1 right")                                                      \
    X(TRACK_LEVEL, 0, 2, 1, "", "a song track's level in the mix")                                                    \
    /* A song's structure (a song file's patterns, chain and notes). */                                               \
    X(PATTERN_STEPS, 1, 64, 16, "steps", "a pattern's and a track's length")                                          \
    X(SONG_PATTERNS, 1, 64, 1, "", "patterns in a song")                                                              \
    X(SONG_CHAIN, 1, 1024, 1, "", "entries in a song's chain")                                                        \
    X(SONG_SWING, 50, 75, 50, "%", "swing")                                                                           \
    X(CHAIN_REPEATS, 1, 256, 1, "", "how many times a chain entry plays its pattern")                                 \
    X(CHAIN_TRANSPOSE, -24, 24, 0, "semitones", "a chain entry's transposition")                                      \
    X(NOTE_PROBABILITY, 0, 100, 100, "%", "the chance a note plays on a pass")                                        \
    X(NOTE_RATCHET, 1, 4, 1, "", "hits inside a note's step")                                                         \
    /* MIDI. */                                                                                                       \
    X(MIDI_NOTE, 0, 127, 0, "", "a MIDI note number")                                                                 \
    X(MIDI_VELOCITY, 1, 127, 1, "", "a note's MIDI velocity")                                                         \
    X(MIDI_DATA, 0, 127, 0, "", "a MIDI data byte: a controller's number or value, a drum key")                       \
    X(MIDI_CHANNEL, 1, BOOP_MIDI_CHANNELS, 1, "", "a MIDI channel")                                                   \
    X(SYNTH_BEND_RANGE, BOOP_SYNTH_BEND_RANGE_MIN, BOOP_SYNTH_BEND_RANGE_MAX, 2, "semitones", "a full pitch bend")    \
    /* Ear training (boop train). */                                                                                  \
    X(TRAIN_GAP, 0, 5, 0.4, "s", "train --gap: silence between the two tones")                                        \
    X(TRAIN_REFERENCE_HZ, 400, 480, 440, "Hz", "train --reference: A4")                                               \
    X(TRAIN_MAX_CENTS, 10, 1200, 100, "cents", "train --max-cents: the largest difference played")                    \
    X(TRAIN_INTERVAL_CENTS, 10, 400, 100, "cents", "train interval --max-cents: at most the interval's width")        \
    X(TRAIN_TRIALS, 1, 500, 40, "", "train --trials")                                                                 \
    X(TRAIN_NOTE_SECONDS, 0.1, 5, 1, "s", "train --duration: how long each note sounds")

#define BOOP_LIMIT_ID(NAME, ...) BOOP_LIMIT_##NAME,
typedef enum boop_limit_id { BOOP_LIMITS(BOOP_LIMIT_ID) BOOP_LIMIT_COUNT } boop_limit_id;

/* One row of the table. name is NAME as written ("ENGINE_RATE"); unit "" for a plain count. */
typedef struct boop_limit {
    double min;
    double max;
    double default_value;
    const char* name;
    const char* unit;
    const char* description;
} boop_limit;

/* A row of the table; an id outside 0 ... BOOP_LIMIT_COUNT - 1 gives a row of zeros named "". Inline
 * (constexpr in C++, usable on the audio thread and in constant expressions): no symbol in the
 * library, so it is the header the caller was compiled with that answers. Thread safety: any thread. */
#ifdef __cplusplus
#define BOOP_LIMIT_FUNCTION static constexpr
#else
#define BOOP_LIMIT_FUNCTION static inline
#endif
#define BOOP_LIMIT_ROW(NAME, lo, hi, def, unit, text)            \
    case BOOP_LIMIT_##NAME: {                                    \
        const boop_limit row = {lo, hi, def, #NAME, unit, text}; \
        return row;                                              \
    }
BOOP_LIMIT_FUNCTION boop_limit boop_limit_get(boop_limit_id id) {
    switch (id) {
        BOOP_LIMITS(BOOP_LIMIT_ROW)
        default: {
            const boop_limit none = {0, 0, 0, "", "", ""};
            return none;
        }
    }
}
#undef BOOP_LIMIT_ROW
#undef BOOP_LIMIT_FUNCTION

#endif /* PIXELBOOP_CAUDIOENGINE_LIMITS_H */
