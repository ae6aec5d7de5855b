/*
 * CAudioEngine — the live synth's palette, controllers and JACK manners (boop synth). A part of
 * CAudioEngine.h (which includes it at its end); on its own it includes the main header first. Conventions as there, a
 * thread note on every function.
 */
#ifndef PIXELBOOP_CAUDIOENGINE_SYNTH_H
#define PIXELBOOP_CAUDIOENGINE_SYNTH_H

#include "CAudioEngine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A channel's voice (boop_synth_config.channel_voice) beyond the version-1 timbres and
 * BOOP_SYNTH_VOICE_DRUMS: a voice of the palette (BOOP_SYNTH_VOICE_PALETTE + boop_instrument_voice),
 * a kit (BOOP_SYNTH_VOICE_KIT + boop_kit; BOOP_SYNTH_VOICE_KIT + BOOP_KIT_GM is the drums), or off. */
#define BOOP_SYNTH_VOICE_OFF (-1)
#define BOOP_SYNTH_VOICE_PALETTE 16
#define BOOP_SYNTH_VOICE_KIT 32

/* General MIDI's sixteen program families (program / 8): X(name, voice). A Program Change whose
 * family holds voices of the palette (by their GM program, BOOP_VOICES) plays the one whose
 * program is nearest (the lower on a tie); the others play their family's voice here. */
#define BOOP_GM_FAMILIES(X)                  \
    X("piano", BOOP_VOICE_PLUCK)             \
    X("chromatic percussion", BOOP_VOICE_FM) \
    X("organ", BOOP_VOICE_TRIANGLE)          \
    X("guitar", BOOP_VOICE_PLUCK)            \
    X("bass", BOOP_VOICE_SUB)                \
    X("strings", BOOP_VOICE_PLUCK)           \
    X("ensemble", BOOP_VOICE_PAD)            \
    X("brass", BOOP_VOICE_SAW)               \
    X("reed", BOOP_VOICE_PULSE)              \
    X("pipe", BOOP_VOICE_SINE)               \
    X("synth lead", BOOP_VOICE_SAW)          \
    X("synth pad", BOOP_VOICE_PAD)           \
    X("synth effects", BOOP_VOICE_PAD)       \
    X("ethnic", BOOP_VOICE_PLUCK)            \
    X("percussive", BOOP_VOICE_FM)           \
    X("sound effects", BOOP_VOICE_SINE)

/* What the synth does with each MIDI message beyond notes: X(message, name, effect), one line a
 * message, in the order the help and the README list them (their one source). */
#define BOOP_SYNTH_CONTROLS(X)                                                                                   \
    X("program change", "voice",                                                                                 \
      "a melodic channel plays the palette voice of the program's GM family (see the map); sounding notes fade " \
      "in 5 ms")                                                                                                 \
    X("CC 0", "bank select", "on a rhythm channel: the kit at once, 0 gm, 1 808, 2 chip (others ignored)")       \
    X("CC 1", "modulation", "vibrato, 5.5 Hz, up to +-50 cents at 127 (palette voices)")                         \
    X("CC 7", "volume", "value^2/100^2, 100 unity, ramped over 5 ms")                                            \
    X("CC 10", "pan",                                                                                            \
      "equal-power pan of a palette channel (64 centre: unity both sides; 0/127 +3 dB one side, "                \
      "silent the other); 808 and chip kits pan as a song's rhythm")                                             \
    X("CC 11", "expression", "value^2/127^2 times the volume, ramped over 5 ms")                                 \
    X("CC 64", "sustain pedal", "held at 64 and over: released keys sound until it lifts")                       \
    X("CC 71", "resonance", "the palette lowpass's Q, 0.5 x 40^(value/127): 0.5 ... 20")                         \
    X("CC 72", "release", "0.001 x 10^(4 x value/127) s: 1 ms ... 10 s")                                         \
    X("CC 73", "attack", "0.001 x 10^(4 x value/127) s: 1 ms ... 10 s (at least 2 ms is used)")                  \
    X("CC 74", "cutoff", "20 x 1000^(value/127) Hz: 20 Hz ... 20 kHz (127: no filter)")                          \
    X("CC 120", "all sound off", "every note of the channel silent within 10 ms, pedal or not")                  \
    X("CC 121", "reset controllers", "bend centred, pedal up, expression 127, modulation and pressure 0")        \
    X("CC 123", "all notes off",                                                                                 \
      "a note-off for each key down; keys the pedal holds sound until it lifts "                                 \
      "(CC 124 ... 127 too)")                                                                                    \
    X("channel pressure", "aftertouch", "vibrato as CC 1 (the larger of the two counts)")                        \
    X("poly pressure", "key aftertouch", "as channel pressure, for the whole channel")                           \
    X("pitch bend", "bend", "+- --bend-range semitones, sounding notes included")                                \
    X("RPN 0", "bend range",                                                                                     \
      "in an MPE zone: semitones (CC 6) and cents (CC 38) of the manager's bend, or of every member's")          \
    X("RPN 6", "MPE configuration",                                                                              \
      "on channel 1 (16): the lower (upper) zone's member channels, CC 6 = 0 ... 15, 0 ends it (--mpe)")

/* The map and the table above as the loaded library has them. boop_synth_program_voice: the voice a
 * Program Change (0 ... 127) picks, BOOP_VOICE_MAX_ENUM for a program out of range. Labels, names
 * and effects are static strings, NULL past the count. Thread safety: any thread. */
boop_instrument_voice boop_synth_program_voice(int program);
const char* boop_gm_family_name(uint32_t family);
uint32_t boop_synth_control_count(void);
const char* boop_synth_control_message(uint32_t index);
const char* boop_synth_control_name(uint32_t index);
const char* boop_synth_control_effect(uint32_t index);

/* A palette channel's sound (a song's instrument) in place of its voice's own, before
 * boop_synth_start; `channel` 0 ... 15 must be set to a palette voice (the sound's voice replaces
 * it). Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT, BOOP_ERROR_ALREADY_RUNNING (after start).
 * Thread safety: control thread. */
boop_status boop_synth_set_channel_sound(boop_synth* synth, uint32_t channel, const boop_instrument* sound);

/* The output stage's look-ahead, before boop_synth_start: 1 (the default) the true-peak limiter,
 * whose look-ahead boop_synth_output_latency_frames gives (and JACK's port latency reports); 0
 * none: the gain, then a soft clipper 3 dB under the ceiling, for playing live without delay. The
 * true peak of the synth's sound then stays within BOOP_SYNTH_CLIP_MARGIN_DB of the ceiling
 * (docs/DESIGN.md gives the measurements).
 * Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT, BOOP_ERROR_ALREADY_RUNNING. Thread safety: control. */
#define BOOP_SYNTH_CLIP_MARGIN_DB 1.0
boop_status boop_synth_set_lookahead(boop_synth* synth, int lookahead);

/* Tunes every key by `tuning` (boop_tuning_load: a Scala scale on the keyboard), before
 * boop_synth_start; keys it leaves unmapped are silent, pitch bend and vibrato apply on top. The
 * synth copies the frequencies: the tuning may be freed afterwards. Kits are not tuned.
 * Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT (NULL), BOOP_ERROR_ALREADY_RUNNING.
 * Thread safety: control thread. */
boop_status boop_synth_set_tuning(boop_synth* synth, const boop_tuning* tuning);

/* MPE zones, before boop_synth_start (the MPE Configuration Message, RPN 6 on channel 1 or 16,
 * changes them while playing): `lower` member channels after channel 1 (its manager) and `upper`
 * member channels below channel 16, 0 ... 15 each, lower + upper at most 14 (15 for one zone
 * alone). Members play their manager's sound; each member's pitch bend (+-48 semitones, RPN 0 on
 * a member sets every member's), channel pressure (vibrato depth) and CC 74 (cutoff) move its
 * note alone; the manager's bend (+-2) and controllers reach the whole zone.
 * Return: BOOP_OK, BOOP_ERROR_INVALID_ARGUMENT, BOOP_ERROR_ALREADY_RUNNING. Thread safety: control. */
#define BOOP_SYNTH_MPE_MEMBERS_MAX 15
boop_status boop_synth_set_mpe(boop_synth* synth, int lower, int upper);

/* JACK: a stopped process (Ctrl-Z, SIGTSTP) must not stall the server: suspend deactivates the
 * client (its links go; the server runs on without it), resume activates it again and links what
 * it had linked (the playback ports unless connect was 0, the MIDI sources connected), every note
 * that sounded gone. ALSA: both do nothing (the PCM underruns while the process is stopped).
 * Return: BOOP_OK, BOOP_ERROR_NOT_RUNNING (not started), BOOP_ERROR_DEVICE_LOST, BOOP_ERROR_DEVICE_UNAVAILABLE.
 * Thread safety: control thread. */
boop_status boop_synth_suspend(boop_synth* synth);
boop_status boop_synth_resume(boop_synth* synth);

/* SIGTSTP for a synth on JACK: handled by writing a byte to the returned descriptor (non-blocking;
 * poll it, read what is there) instead of stopping at once, so the control loop suspends the
 * client first; -1 when SIGTSTP is ignored (a shell without job control) or no pipe can be made.
 * boop_synth_stop_now then stops the process as SIGTSTP would (only this process), returns once it
 * is continued and handles SIGTSTP again. Thread safety: control thread. */
int boop_synth_stop_signal_install(void);
void boop_synth_stop_now(void);

#ifdef __cplusplus
}
#endif

#endif
