#!/usr/bin/env python3
"""Checks `boop play SONG --backend jack --midi-out --clock --no-sound` on the server's frame clock.

    jack_midi_out_song_test.py BOOP     (JACK_DEFAULT_SERVER names the running server)

A version-2 song (two patterns of different lengths, a chain with repeats and a tempo change,
swing, a ratchet, a probability and a condition with a seed) is played once (--loops 1) with
boop:midi_out connected by --midi-connect to a recorder client, which stores each message with its
frame. Checked against scripts/song_model.py (an independent model of the song format): Start
first; every note-on on Start + the model's frame (swing and ratchets included), with the .mid
export's channel and velocity, and no other; six straight clocks per step at each entry's own
tempo (clock c of step k of an entry on its start + floor((k + c/6) x rate x 60 / (bpm x 4) + 0.5));
the song ends by itself (exit 0) with a note-off for every note. About 10 s."""
import json
import math
import os
import subprocess
import sys
import tempfile
import time

import jack

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import song_model  # noqa: E402
from jack_test_lib import Checks  # noqa: E402

BOOP = sys.argv[1]
check = Checks()


SONG = {"version": 2, "name": "midi-out song", "bpm": 150, "seed": 5,
        "instruments": {"bass": {"voice": "pluck"}},
        "patterns": {
            "A": {"length": 6, "swing": 62, "tracks": {
                "melody": [{"step": 0, "pitch": 60}, {"step": 1, "pitch": 64, "probability": 50},
                           {"step": 3, "pitch": 67, "velocity": "sustain", "length": 2},
                           {"step": 5, "pitch": 72, "ratchet": 3, "velocity": "accent"}],
                "rhythm": [{"step": 0, "pitch": 36}, {"step": 2, "pitch": 38, "condition": "1:2"}]}},
            "B": {"length": 4, "tracks": {"bass": [{"step": 0, "pitch": 36, "length": 3},
                                                   {"step": 3, "pitch": 43, "velocity": "accent"}]}}},
        "song": [{"pattern": "A", "repeat": 3}, {"pattern": "B", "repeat": 2, "bpm": 190}, {"pattern": "A"}]}
work = tempfile.mkdtemp(prefix="boop-midi-out-song.")
path = os.path.join(work, "song.json")
json.dump(SONG, open(path, "w"))

rec = jack.Client("boop-songrec", no_start_server=True)
rate = rec.samplerate
port = rec.midi_inports.register("in")
got = []
cycles = []  # (first frame, frames) of each cycle the recorder ran in


@rec.set_process_callback
def on_process(frames):
    base = rec.last_frame_time
    cycles.append((base, frames))
    for offset, data in port.incoming_midi_events():
        got.append((base + offset, bytes(data)))


with rec:
    err = open(os.path.join(work, "err"), "w+")
    boop = subprocess.Popen([BOOP, "play", path, "--loops", "1", "--backend", "jack", "--midi-out", "--clock",
                             "--no-sound", "--no-display", "--midi-connect", "boop-songrec:in"],
                            stdout=subprocess.DEVNULL, stderr=err)
    try:
        rc = boop.wait(120)   # a limit for a loaded machine: the song lasts about 3 s
    except subprocess.TimeoutExpired:
        boop.kill()
        rc = "hang"
    time.sleep(0.2)   # the stop's messages arrive within a cycle of boop's exit
    events = list(got)
err.seek(0)
check(rc == 0, f"the song played to its end: exit {rc} {err.read().strip()}")
starts = [i for i, (_, d) in enumerate(events) if d == b"\xfa"]
if not starts:
    check(False, f"a Start among {len(events)} messages")
    sys.exit(1)
s_frame = events[starts[0]][0]
check(starts[0] == 0, f"Start is the first message (at frame {s_frame})")

# Cycles the recorder itself missed (its own xruns on a loaded machine) carried messages it never
# saw: what falls in them is neither expected nor counted.
missed = [(a[0] + a[1], b[0]) for a, b in zip(cycles, cycles[1:]) if b[0] != a[0] + a[1]]
unseen = lambda f: any(lo <= f < hi for lo, hi in missed)  # noqa: E731
if missed:
    print(f"note: the recorder missed {sum(hi - lo for lo, hi in missed)} frames in {len(missed)} gaps", flush=True)
song_model.RATE = rate
notes, _ = song_model.model(SONG)
channel = {"melody": 0, "chords": 1, "bass": 2, "rhythm": 9}
velocity = {"normal": 96, "accent": 120, "sustain": 108}
vel = {}
for name, p in SONG["patterns"].items():
    for track, ns in p["tracks"].items():
        for n in ns:
            vel[(track, n["pitch"])] = velocity[n.get("velocity", "normal")]
want = sorted((s_frame + f, bytes([0x90 | channel[t], pitch, vel[(t, pitch)]])) for t, pitch, f, _, _, _ in notes)
seen = sorted((f, d) for f, d in events if d[0] & 0xF0 == 0x90 and d[2] > 0)
# Every message seen is one expected, on its frame; one not seen may only lie where the recorder missed.
ok = set(seen) <= set(want) and all(unseen(f) for f, _ in set(want) - set(seen))
check(ok, f"{len(seen)} note-ons, each on the song model's frame (swing, ratchets, probability, condition)"
      + ("" if ok else f": only boop {sorted(set(seen) - set(want))[:6]}, only the model {sorted(set(want) - set(seen))[:6]}"))

clocks = [f for f, d in events if d == b"\xf8"]
expected, frame0 = [], 0
for entry in SONG["song"]:
    p = SONG["patterns"][entry["pattern"]]
    steps = p["length"] * entry.get("repeat", 1)
    fps = rate * 60.0 / (entry.get("bpm", SONG["bpm"]) * 4.0)
    expected += [s_frame + frame0 + math.floor((k + c / 6) * fps + 0.5) for k in range(steps) for c in range(6)]
    frame0 += math.floor(steps * fps + 0.5)
ok = set(clocks) <= set(expected) and len(clocks) == len(set(clocks)) \
    and all(unseen(f) for f in set(expected) - set(clocks))
check(ok, f"{len(clocks)} clocks, six a step, straight, at each entry's tempo (150, 190, 150 BPM)"
      + ("" if ok else f": {len(expected)} expected; only boop {sorted(set(clocks) - set(expected))[:6]}, "
         f"only expected {sorted(set(expected) - set(clocks))[:6]}"))
on = set()
for f, d in events:
    if d[0] & 0xF0 == 0x90 and d[2] > 0:
        on.add((d[0] & 0x0F, d[1]))
    elif d[0] & 0xF0 in (0x80, 0x90):
        on.discard((d[0] & 0x0F, d[1]))
check(not on, f"at the end a note-off for every note (left on: {sorted(on)})")
sys.exit(1 if check.failures else 0)
