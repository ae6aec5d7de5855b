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
the song ends by itself (exit 0) with a note-off for every note; right after Start, each track's Program
Change, volume and pan, as the .mid export sets them up. About 10 s."""
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
from jack_test_lib import INCONCLUSIVE, Checks, ServerFaults  # noqa: E402

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
# The server's xruns and the recorder's irregular cycles (ServerFaults): what falls there is not judged.
faults = ServerFaults(rec)


@rec.set_process_callback
def on_process(frames):
    base = rec.last_frame_time
    faults.cycle(frames)
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

# Where the server's xruns or the recorder's irregular cycles (a cycle skipped, the next stamped
# a period off) fell, a message's frame as recorded is not the frame it was sent on: what falls
# there is neither expected nor judged, and said.
unseen = faults.touches
print(f"note: {faults.summary()}", flush=True)
if unseen(s_frame):
    print("INCONCLUSIVE  an xrun touched the Start, which every frame is counted from", flush=True)
    sys.exit(INCONCLUSIVE)
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
seen = sorted((f, d) for f, d in events if d[0] & 0xF0 == 0x90 and d[2] > 0 and not unseen(f))
want = [(f, d) for f, d in want if not unseen(f)]
# Every message judged is one expected, on its frame, and every one expected there is seen.
ok = set(seen) == set(want)
check(ok, f"{len(seen)} note-ons judged (those no xrun touched), each on the song model's frame (swing, ratchets, "
      f"probability, condition)"
      + ("" if ok else f": only boop {sorted(set(seen) - set(want))[:6]}, only the model {sorted(set(want) - set(seen))[:6]}"))

all_clocks = [f for f, d in events if d == b"\xf8"]
clocks = [f for f in all_clocks if not unseen(f)]
expected, frame0 = [], 0
for entry in SONG["song"]:
    p = SONG["patterns"][entry["pattern"]]
    steps = p["length"] * entry.get("repeat", 1)
    fps = rate * 60.0 / (entry.get("bpm", SONG["bpm"]) * 4.0)
    expected += [s_frame + frame0 + math.floor((k + c / 6) * fps + 0.5) for k in range(steps) for c in range(6)]
    frame0 += math.floor(steps * fps + 0.5)
total_clocks = len(expected)
expected = [f for f in expected if not unseen(f)]
if len(expected) < 0.75 * total_clocks:
    print(f"INCONCLUSIVE  xruns touched {total_clocks - len(expected)} of {total_clocks} clocks (at most a quarter "
          f"may be)", flush=True)
    sys.exit(INCONCLUSIVE)
ok = set(clocks) == set(expected) and len(clocks) == len(set(clocks))
check(ok, f"{len(clocks)} of {total_clocks} clocks judged (the rest near xruns), six a step, straight, at each "
      f"entry's tempo (150, 190, 150 BPM)"
      + ("" if ok else f": {len(expected)} expected; only boop {sorted(set(clocks) - set(expected))[:6]}, "
         f"only expected {sorted(set(expected) - set(clocks))[:6]}"))


def mid_setup(path):
    """The channel messages on tick 0 of each track of a Standard MIDI File, in file order."""
    b = open(path, "rb").read()
    i, out = 14, []
    while i < len(b):
        end = i + 8 + int.from_bytes(b[i + 4:i + 8], "big")
        i, tick = i + 8, 0
        while i < end:
            delta = 0
            while True:
                delta, i = delta << 7 | b[i] & 0x7F, i + 1
                if b[i - 1] < 0x80:
                    break
            tick += delta
            status = b[i]
            if status == 0xFF:
                n, j = 0, i + 2
                while True:
                    n, j = n << 7 | b[j] & 0x7F, j + 1
                    if b[j - 1] < 0x80:
                        break
                i = j + n
                continue
            size = 2 if status & 0xF0 in (0xC0, 0xD0) else 3
            if tick == 0 and status & 0xF0 in (0xB0, 0xC0):
                out.append(bytes(b[i:i + size]))
            i += size
    return out


# Before its first note the song sets up each track's channel as its .mid does: Program Change,
# volume (CC 7) and pan (CC 10), right after Start, in the file's order.
mid = os.path.join(work, "song.mid")
subprocess.run([BOOP, "render", path, "-o", mid, "-q"], check=True)
setup = mid_setup(mid)
sent = [d for _, d in events[1:1 + len(setup)]]
first_note = next((i for i, (_, d) in enumerate(events) if d[0] & 0xF0 == 0x90), len(events))
check(len(setup) == 8 and sent == setup and first_note > len(setup),
      f"after Start, each track's Program Change, volume and pan as the .mid has them ({len(setup)} messages)"
      + ("" if sent == setup else f": sent {[d.hex() for d in sent]}, the .mid {[d.hex() for d in setup]}"))
on = set()
for f, d in events:
    if d[0] & 0xF0 == 0x90 and d[2] > 0:
        on.add((d[0] & 0x0F, d[1]))
    elif d[0] & 0xF0 in (0x80, 0x90):
        on.discard((d[0] & 0x0F, d[1]))
check(not on, f"at the end a note-off for every note (left on: {sorted(on)})")
stops = [f for f, d in events if d == b"\xfc"]
end = s_frame + frame0
ok = len(stops) == 1 and (unseen(stops[0]) or abs(stops[0] - end) <= 1)
check(ok, f"one Stop, on the frame the song ends ({len(stops)} Stop, "
      f"{[round((f - end) / rate * 1000, 1) for f in stops]} ms from the end)")
sys.exit(1 if check.failures else 0)
