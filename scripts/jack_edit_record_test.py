#!/usr/bin/env python3
"""Live recording in `boop edit --backend jack --midi PORT` (`*`), judged in frames.

    jack_edit_record_test.py BOOP     (JACK_DEFAULT_SERVER names the running server)

A played part, as a player with loose timing plays it, goes into boop's midi_in from a test client
that also records boop's out_1. The song's melody is silent (level 0), so all that boop sounds
while recording is its metronome: the count-in's four clicks, then one on every beat. Each note's
truth is taken from what boop sounded: the click of its beat, heard, less the output's lag (a key's
event-to-onset lag, measured first on an audible track), gives its step's frame on boop's clock;
the note's own frame then says where it was played (step and offset). A note whose stretch from
that click to its note-off the server's faults touched is not judged (too many: exit 75, run again).

  1. `*` with the loop stopped: four clicks a beat apart, then the loop from its first step.
  2. Pass 1, quantize 100 %: every note of a part played up to 30 ms off its step lands on its
     step, with its velocity (1-127) and its length from the note-off; no offset in the file.
  3. Pass 2 after `%` 0 (recording started again while the loop plays): each note keeps its
     played offset as micro-timing, within 0.002 step (the file's grid is 0.001).
  4. `u` takes back pass 2 whole; replace (`&`) clears the track on its pass's first note; `u`.
  5. A key on channel 10 while recording sounds as the rhythm track's kit, where it is recorded.
About 30 s.
"""
import json
import os
import random
import sys
import tempfile

import numpy as np
from edit_driver import Checks, Editor
from jack_player import Remote
from jack_test_lib import INCONCLUSIVE, wait_until

BOOP = sys.argv[1]
RATE = 48000
BPM = 120
STEP = RATE * 60 // (BPM * 4)  # 6000 frames
BEAT = 4 * STEP
check = Checks()
work = tempfile.mkdtemp(prefix="boop-edit-record.")
path = os.path.join(work, "take.json")
json.dump({"version": 2, "bpm": BPM,
           "instruments": {"melody": {"level": 0}, "chords": {"voice": "sine", "attack": 0, "level": 1}},
           "patterns": {"A": {"length": 16, "tracks": {}}}}, open(path, "w"))

player = Remote(RATE)
now = player.now


def next_pass(since, lag, margin=RATE // 4):
    """The absolute frame of the next pass's first step that is at least `margin` frames away,
    from the last downbeat heard since `since` (the server's skipped cycles move boop's clock against the
    server's, so earlier arithmetic drifts)."""
    heard_start = player.downbeats(since)[-1] - lag
    while heard_start < now() + margin:
        heard_start += 16 * STEP
    return heard_start


def saved_melody():
    song = json.load(open(path))
    return sorted((n["step"], n["pitch"], n.get("velocity", "normal"), n.get("length", 1), n.get("offset", 0))
                  for n in song["patterns"]["A"]["tracks"].get("melody", []))


def part(rng, steps, pitches):
    """A played part: (step, pitch, velocity, length, jitter in frames) on the given steps."""
    out = []
    for i, (s, p) in enumerate(zip(steps, pitches)):
        room = (steps[i + 1] if i + 1 < len(steps) else 16) - s
        out.append((s, p, rng.randint(20, 127), rng.randint(1, min(3, room)), rng.randint(-1440, 1440)))
    return out


def play_part(notes, step0):
    """Sends a part whose step 0 is at absolute frame `step0`; returns (on frame, off frame) per note."""
    frames, events = [], []
    for s, p, v, length, jitter in notes:
        on = step0 + s * STEP + jitter
        off = on + length * STEP - STEP // 4
        events += [(on, bytes([0x90, p, v])), (off, bytes([0x80, p, 0]))]
        frames.append((on, off))
    player.send_at(events)
    return frames


def truth(notes, frames, step0, lag):
    """Each note's step and offset as boop heard them, from the heard click of its beat (nearest
    to where it was expected), or None where that click is missing or a fault touched the stretch."""
    clicks = player.onsets(step0 - BEAT)
    out = []
    for (s, p, v, length, jitter), (on, off) in zip(notes, frames):
        expected = step0 + (s - s % 4) * STEP + lag
        near = [c for c in clicks if abs(c - expected) < 2000]
        if not near or player.touches(min(near[0] - lag, on) - PERIOD, off + 2 * PERIOD):
            out.append(None)
            continue
        position = (on - (near[0] - lag)) / STEP + (s - s % 4)
        step = round(position)
        out.append((step, position - step))
    return out


PERIOD = player.period()
try:
    with Editor(BOOP, path, args=["--backend", "jack", "--no-connect", "--midi", "boop-rec:out"]) as ed:
        check(ed.wait_for("step 1/16"), "the editor runs on JACK", ed.text())
        wait_until("boop-rec:out connected to boop's midi_in", 30,
                   player.keyboard_connected)
        boop_out = player.listen_to_boop()
        check(bool(boop_out), "boop's out_1 is there, connected to the test's input", boop_out)

        # The output's lag: a key's event to its first audible sample, on the audible chords.
        ed.keys("tab")
        check(ed.wait_for("chords"), "Tab: the chords track", ed.status_line())
        wait_until("silence", 10, lambda: player.silent_since(4800))
        at = now() + 4 * PERIOD + 37
        player.send_at([(at, bytes([0x90, 69, 100])), (at + 2400, bytes([0x80, 69, 0]))])
        wait_until("the key to be heard", 10, lambda: bool(player.onsets(at)))
        lag = player.onsets(at)[0] - at
        check(0 <= lag < 4800, f"a key sounds {lag} frames after its event (the output's lag)", lag)
        ed.keys("tab", "tab", "tab")
        check(ed.wait_for("melody"), "back on the melody track", ed.status_line())
        wait_until("silence", 10, lambda: player.silent_since(4800))

        # 1. Count-in.
        pressed = now()
        ed.keys("*")
        check(ed.wait_for("count-in"), "*: a count-in, then recording", ed.status_line())
        wait_until("the count-in's first click", 10, lambda: bool(player.onsets(pressed)))
        first = player.onsets(pressed)[0]
        step0 = first + 4 * BEAT - lag
        rng = random.Random(41)
        part_a = part(rng, [0, 3, 4, 6, 9, 12, 14], [60, 62, 64, 65, 67, 69, 71])
        frames_a = play_part(part_a, step0)
        end_a = step0 + 16 * STEP
        wait_until("pass 1 to be played", 15, lambda: now() > end_a + 2 * PERIOD)
        clicks = [c for c in player.onsets(pressed) if c < first + 9 * BEAT - BEAT // 2]
        gaps = np.diff(clicks[:5]).tolist()
        if player.touches(first - BEAT, first + 4 * BEAT):
            print(f"note: the count-in's spacing not judged: the server's faults touched it ({gaps})")
        else:
            check(len(clicks) >= 5 and all(abs(g - BEAT) <= 1 for g in gaps),
                  f"four count-in clicks a beat ({BEAT} frames) apart, then the loop's first beat: {gaps}", gaps)
        ed.keys("*")
        check(ed.wait_for("recording off"), "* stops recording", ed.status_line())

        # 2. Pass 1 at 100 %: on the steps.
        ed.keys("s")
        check(ed.wait_for("saved"), "saved", ed.status_line())
        got = {(n[0], n[1]): n for n in saved_melody()}
        true_a = truth(part_a, frames_a, step0, lag)
        judged = [(n, t) for n, t in zip(part_a, true_a) if t is not None]
        if len(judged) < (len(part_a) + 1) // 2:
            print(f"note: {player.summary()}; {len(part_a) - len(judged)} of pass 1's notes untrusted")
            sys.exit(INCONCLUSIVE)
        wrong = [(n, t, got.get((t[0], n[1]))) for n, t in judged
                 if got.get((t[0], n[1])) != (t[0], n[1], n[2], n[3], 0)]
        check(not wrong and len(got) == len(part_a),
              f"quantize 100 %: {len(judged)} of {len(part_a)} notes judged, each on its step with its velocity and "
              f"length, played up to {max(abs(n[4]) for n in part_a) * 1000 // RATE} ms off", (wrong, sorted(got)))

        # 3. Pass 2 at 0 %: the offsets kept.
        ed.keys("%")
        check(ed.wait_for("quantize strength"), "%: the quantize strength is asked", ed.status_line())
        ed.keys("0", "enter")
        check(ed.wait_for("quantize 0%"), "quantize 0 %", ed.status_line())
        ed.keys("*")
        check(ed.wait_for("from now"), "* while the loop plays: recording at once", ed.status_line())
        step0_b = next_pass(first, lag)
        part_b = part(rng, [1, 5, 7, 10, 13], [72, 74, 76, 77, 79])
        frames_b = play_part(part_b, step0_b)
        wait_until("pass 2 to be played", 15, lambda: now() > step0_b + 16 * STEP + 2 * PERIOD)
        ed.keys("*")
        check(ed.wait_for("recording off"), "* stops recording", ed.status_line())
        ed.keys("s")
        check(ed.wait_for("saved"), "saved", ed.status_line())
        true_b = truth(part_b, frames_b, step0_b, lag)
        got = {n[1]: n for n in saved_melody() if n[1] >= 72}
        judged = [(n, t) for n, t in zip(part_b, true_b) if t is not None]
        if len(judged) < (len(part_b) + 1) // 2:
            print(f"note: {player.summary()}; {len(part_b) - len(judged)} of pass 2's notes untrusted")
            sys.exit(INCONCLUSIVE)
        errors = [abs(got[n[1]][4] - t[1]) if n[1] in got and got[n[1]][0] == t[0] else 1 for n, t in judged]
        check(len(got) == len(part_b) and max(errors) <= 0.002,
              f"quantize 0 %: {len(judged)} of {len(part_b)} notes judged, each with its played offset "
              f"(up to {max(abs(t[1]) for _, t in judged):.3f} step) kept within {max(errors):.4f} step",
              ([(n, t) for n, t in judged], sorted(got.values())))
        check(len(saved_melody()) == len(part_a) + len(part_b), "overdub: pass 1's notes are kept",
              saved_melody())

        # 4. Undo a pass; replace.
        ed.keys("u")
        check(ed.wait_for("undone: pattern A, melody: 5 notes"), "u takes back pass 2 whole", ed.status_line())
        ed.keys("s")
        ed.wait_for("saved")
        check(len(saved_melody()) == len(part_a), "pass 1's notes are left", saved_melody())
        ed.keys("&")
        check(ed.wait_for("replace:"), "&: replace", ed.status_line())
        ed.keys("*")
        ed.wait_for("from now")
        step0_c = next_pass(first, lag)
        play_part([(8, 84, 100, 1, 0)], step0_c)
        wait_until("the replacing pass", 15, lambda: now() > step0_c + 16 * STEP)
        ed.keys("*", "s")
        ed.wait_for("saved")
        replaced = saved_melody()
        check(len(replaced) == 1 and replaced[0][:2] == (8, 84), "replace: the pass's note alone is left", replaced)
        ed.keys("u", "s")
        ed.wait_for("saved")
        check(len(saved_melody()) == len(part_a), "u brings the replaced notes back", saved_melody())

        # 5. Channel 10's keys go to the rhythm track and sound as its kit, though the track under
        # the cursor (the melody, level 0) is silent: a snare half-way between two clicks is heard.
        ed.keys("*")
        check(ed.wait_for("from now"), "* again: recording", ed.status_line())
        since = now()
        wait_until("a click", 5, lambda: bool(player.onsets(since)))
        at = player.onsets(since)[-1] - lag + 2 * BEAT + BEAT // 2
        player.send_at([(at, bytes([0x99, 38, 110])), (at + 2400, bytes([0x89, 38, 0]))])
        wait_until("the snare's time to pass", 10, lambda: now() > at + lag + RATE // 2)
        ed.keys("*")
        check(ed.wait_for("recording off"), "* stops recording", ed.status_line())
        heard = [o - at - lag for o in player.onsets(at - BEAT // 4) if o < at + BEAT // 4]
        if player.touches(at - PERIOD, at + lag + 4800):
            print(f"note: the channel-10 snare's sound not judged: the server's faults touched it ({heard})")
        else:
            check(len(heard) == 1 and abs(heard[0]) <= 2 * PERIOD,
                  f"a key on channel 10 sounds as the rhythm track's kit, {heard} frames from its event", heard)
        ed.keys("s")
        ed.wait_for("saved")
        rhythm = json.load(open(path))["patterns"]["A"]["tracks"].get("rhythm", [])
        check([n["pitch"] for n in rhythm] == [38], "and is recorded on the rhythm track", rhythm)
        ed.keys("q")
        check(ed.wait_exit() == 0, "quits with 0", ed.status)
    print(f"note: {player.summary()}")
finally:
    player.close()
sys.exit(1 if check.failures else 0)
