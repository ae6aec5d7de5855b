/* PixelBoop's C API: how keys arrive and what they sound. MIDI keyboard input for a control loop
 * (boop edit --midi), and tunings read from Scala files (.scl scales, .kbm keyboard mappings). Part
 * of <pixelboop/CAudioEngine.h>, which includes it at its end (the types it uses are that header's);
 * conventions as there, a thread note on every function. */
#ifndef CAUDIOENGINE_KEYS_H
#define CAUDIOENGINE_KEYS_H

#ifdef __cplusplus
extern "C" {
#endif

/* ====================================================================================== */
/* MIDI keyboard input for a control loop (boop edit --midi)                              */
/* ====================================================================================== */

/* An ALSA sequencer client <client_name> with a writable port midi_in, subscribed to `source`
 * (as boop_synth_connect_midi reads it). A reader thread (never an audio thread) takes each event,
 * keeps the channel messages in a lock-free queue (up to 1024) and makes the descriptor readable;
 * the control loop polls the descriptor and reads them. Nothing here touches a sound device. */
typedef struct boop_midi_in boop_midi_in;

/* Return: BOOP_OK, BOOP_ERROR_DEVICE_UNAVAILABLE (no /dev/snd/seq, or the sequencer refused),
 * BOOP_ERROR_INVALID_ARGUMENT (no source matches `source`); on failure `why` (one line, at most
 * `why_size` bytes) says which. Thread safety: control thread. */
boop_status boop_midi_in_open(const char* client_name, const char* source, boop_midi_in** out_input, char* why,
                              size_t why_size);

/* The same keyboard on JACK: no client of its own. A playback opened with it as `midi_keys` gets a port
 * midi_in; its process callback queues the channel messages (lock-free, each with its engine frame: no
 * system call, so it wakes nobody) and boop_midi_in_read takes them from that queue directly. There is
 * no descriptor (-1): the control loop reads when it wakes, at its screen's cadence. `source` (may be
 * NULL) is only remembered, for boop_midi_in_source; boop_playback_midi_in_connect connects it.
 * Return: BOOP_OK, BOOP_ERROR_OUT_OF_MEMORY, BOOP_ERROR_INTERNAL. Thread safety: control thread. */
boop_status boop_midi_in_open_jack(const char* source, boop_midi_in** out_input);

/* What a JACK keyboard's notes sound with. The playback's process callback sounds each note-on on
 * the engine at the note's own frame (it renders up to it, then starts the note), and ends it at its
 * note-off's frame, as boop synth --backend jack does; the control loop only chooses the sound.
 * kind: SILENT (the notes are only queued for boop_midi_in_read), TIMBRE (index: a boop_timbre),
 * INSTRUMENT (index: an instrument slot, boop_engine_set_instrument) or DRUMS (index: a boop_kit;
 * the key is the GM drum). gain: a note-on below accent_velocity, accent_gain: at or above it
 * (0 ... BOOP_EVENT_GAIN_MAX). keys: bit (k & 7) of keys[k >> 3] set: key k sounds, else silent. */
typedef enum boop_keys_kind {
    BOOP_KEYS_SILENT,
    BOOP_KEYS_TIMBRE,
    BOOP_KEYS_INSTRUMENT,
    BOOP_KEYS_DRUMS
} boop_keys_kind;
typedef struct boop_keys_sound {
    uint32_t kind; /* a boop_keys_kind */
    uint32_t index, accent_velocity;
    float gain, accent_gain;
    uint8_t keys[16];
} boop_keys_sound;
/* Sets what the notes of a keyboard from boop_midi_in_open_jack sound with on `engine`, which must be
 * the source of the playback opened with the keyboard and outlive it (a playback opened again forgets
 * the sound: set it again). Taken by the process callback at its next cycle. A pitched note is a note
 * id of its own per key (0xEFFFFF00 + key). Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT (not a
 * JACK keyboard, an index or gain out of range), BOOP_ERROR_QUEUE_FULL (16 settings not yet taken).
 * Thread safety: control thread. */
boop_status boop_midi_in_set_sound(boop_midi_in* input, boop_engine* engine, const boop_keys_sound* sound);
/* The sound of one channel's notes (0-based; 9 is General MIDI's drums, channel 10), over the sound set
 * above: `boop edit` recording sends channel 10's keys to the rhythm track, and they sound as its kit.
 * One channel at a time: a call replaces the last. sound NULL: that channel's notes sound as the others
 * again. A note-off ends its key's note whichever sound began it. Taken as boop_midi_in_set_sound.
 * Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT (not a JACK keyboard, no engine, a channel over 15, an
 * index or gain out of range), BOOP_ERROR_QUEUE_FULL. Thread safety: control thread. */
boop_status boop_midi_in_set_channel_sound(boop_midi_in* input, boop_engine* engine, uint8_t channel,
                                           const boop_keys_sound* sound);
/* Connects another client's JACK MIDI output port (its full name) to the playback's midi_in (opened
 * with midi_keys). Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT (no such MIDI output port),
 * BOOP_ERROR_NOT_RUNNING (not started, or no midi_in), BOOP_ERROR_DEVICE_UNAVAILABLE. Thread safety:
 * control thread. */
boop_status boop_playback_midi_in_connect(boop_playback* playback, const char* source);

/* Readable when messages wait (poll it for POLLIN); -1 for a keyboard on JACK (read it on every wake).
 * Thread safety: any thread. */
int boop_midi_in_descriptor(const boop_midi_in* input);

/* "client:port name" of the subscribed source. Thread safety: any thread. */
const char* boop_midi_in_source(const boop_midi_in* input);

/* Clears the descriptor and takes up to `max` waiting messages, oldest first (frame: the
 * CLOCK_MONOTONIC nanosecond each arrived; on JACK the engine frame it came on). Returns how many;
 * when more wait the descriptor stays readable. Thread safety: one control thread. */
uint32_t boop_midi_in_read(boop_midi_in* input, boop_midi_event* out_events, uint32_t max);

/* Messages dropped because the queue was full. Thread safety: any thread. */
uint64_t boop_midi_in_dropped(const boop_midi_in* input);

/* Stops the reader and closes the client (NULL is ignored). Thread safety: control thread. */
void boop_midi_in_destroy(boop_midi_in* input);

/* ====================================================================================== */
/* Tunings: Scala scales (.scl) and keyboard mappings (.kbm)                               */
/* ====================================================================================== */

/* A tuning: the frequency of each of the 128 MIDI keys, computed once by the Scala arithmetic
 * (www.huygens-fokker.org/scala/scl_format.html and help.htm#mappings). A scale lists its degrees
 * above 1/1 in cents (a value with a period) or as ratios (n/d, or n); its last degree is the
 * period. A mapping places the scale on the keyboard: the key range it retunes (keys outside it are
 * unmapped and do not sound), the middle key that gets degree 0, the reference key and its
 * frequency, the degree that is the mapping's formal octave, and the degree of each key of its
 * pattern ("x": unmapped); a map size of 0 maps consecutive keys to consecutive degrees. Without a
 * mapping: keys 0-127, degree 0 on middle C (key 60) at 261.6255653 Hz, the 12-tone equal
 * tempered C4 under A4 = 440 Hz, consecutive keys on consecutive degrees. Immutable once made. */
typedef struct boop_tuning boop_tuning;

/* Limits on what is read: a file of at most 1 MiB, a scale of 1 to 4096 degrees, each ratio's terms
 * and the reference frequency positive and finite, every mapped key's frequency 0.01 Hz ... 1 MHz. */
#define BOOP_TUNING_FILE_BYTES_MAX 1048576
#define BOOP_TUNING_DEGREES_MAX 4096

/* Reads a scale and, when `kbm_path` is not NULL, a keyboard mapping. On failure nothing is made and
 * `why` (one line, at most `why_size` bytes, may be NULL) says where and what was expected, as
 * "line 3: expected a pitch (cents with a period, or a ratio n/d), found \"abc\"" (a mapping's
 * problem starts "mapping, "). Return: BOOP_OK; BOOP_ERROR_IO (a file cannot be read; errno kept);
 * BOOP_ERROR_INVALID_ARGUMENT (malformed content, or a NULL pointer); BOOP_ERROR_OUT_OF_MEMORY.
 * Thread safety: any thread (not the audio thread: it reads files and allocates). */
boop_status boop_tuning_load(const char* scl_path, const char* kbm_path, boop_tuning** out_tuning, char* why,
                             size_t why_size);

/* As boop_tuning_load, from text in memory (`kbm_text` may be NULL; lengths in bytes, NUL not needed;
 * BOOP_ERROR_INVALID_ARGUMENT past BOOP_TUNING_FILE_BYTES_MAX). Thread safety: as boop_tuning_load. */
boop_status boop_tuning_parse(const char* scl_text, size_t scl_length, const char* kbm_text, size_t kbm_length,
                              boop_tuning** out_tuning, char* why, size_t why_size);

/* Key `key`'s frequency in Hz; 0 for a key the mapping leaves unmapped, a key outside 0-127, or NULL.
 * Thread safety: any thread, the audio thread included (reads the table made at load). */
double boop_tuning_key_hz(const boop_tuning* tuning, int key);

/* The scale's description line (UTF-8 as the file gave it, "" when empty) and its number of degrees
 * (the period included; 0 for NULL). Thread safety: any thread. */
const char* boop_tuning_description(const boop_tuning* tuning);
uint32_t boop_tuning_degree_count(const boop_tuning* tuning);

/* Frees a tuning (NULL is ignored). Thread safety: once nothing reads it. */
void boop_tuning_free(boop_tuning* tuning);

/* ====================================================================================== */
/* The voice as a MIDI controller (boop listen --midi-out)                                 */
/* ====================================================================================== */

/* Adds a JACK MIDI output port midi_out to a JACK capture (boop_capture_config.backend JACK), between
 * boop_capture_open and boop_capture_start. Its process callback writes each event queued with
 * boop_capture_midi_send in the cycle that brings in the event's capture frame (the frame sequence
 * boop_capture_read numbers), at that frame's offset; one already past goes out at the next cycle's
 * start and is counted late. Return: BOOP_OK, BOOP_ERROR_NOT_RUNNING (not a JACK capture, or already
 * started), BOOP_ERROR_DEVICE_UNAVAILABLE, BOOP_ERROR_OUT_OF_MEMORY. Thread safety: control thread. */
boop_status boop_capture_midi_open(boop_capture* capture);
/* Queues one message (1-3 bytes) for capture frame `frame`, in frame order. Return: BOOP_OK,
 * BOOP_ERROR_INVALID_ARGUMENT, BOOP_ERROR_NOT_RUNNING (no midi_out), BOOP_ERROR_QUEUE_FULL.
 * Thread safety: one thread (the queue's single producer); lock-free. */
boop_status boop_capture_midi_send(boop_capture* capture, uint64_t frame, const uint8_t* bytes, uint32_t size);
/* At the next cycle: drops what is queued and sends a note-off for every note sent on and not off;
 * boop_capture_midi_panic_done says when that cycle has run (1 also without midi_out). Thread safety:
 * the sending thread. */
boop_status boop_capture_midi_panic(boop_capture* capture);
int boop_capture_midi_panic_done(const boop_capture* capture);
/* Connects midi_out to another client's MIDI input port ("client:port"), after start. Return: BOOP_OK,
 * BOOP_ERROR_INVALID_ARGUMENT (no such MIDI input port), BOOP_ERROR_NOT_RUNNING,
 * BOOP_ERROR_DEVICE_UNAVAILABLE. Thread safety: control thread. */
boop_status boop_capture_midi_connect(boop_capture* capture, const char* destination);
/* Messages written, and those written late (their frame already past). Thread safety: any thread. */
uint64_t boop_capture_midi_written(const boop_capture* capture);
uint64_t boop_capture_midi_late(const boop_capture* capture);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CAUDIOENGINE_KEYS_H */
