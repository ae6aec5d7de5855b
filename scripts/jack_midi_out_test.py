#!/usr/bin/env python3
"""Checks `boop play --backend jack --midi-out --clock --no-sound` on the server's frame clock.

    jack_midi_out_test.py BOOP [SECONDS]     (JACK_DEFAULT_SERVER names the running server)

A random pattern (seeded; every track, sustained and repeated notes, an odd tempo so steps are
not whole frames) is played with boop:midi_out connected by --midi-connect to a recorder client,
which stores each message with its frame (cycle start + offset). Then SIGTERM. Checked: Start
comes first; clock k is on frame Start + round(k x rate x 60 / (bpm x 24)) for every clock; every
note-on and note-off before the stop is the one the sequencer's formula gives (step k on
Start + round(k x rate x 60 / (bpm x 4)); gates 0.8 x length x step, sustain to the next step;
channels 1, 2, 3, 10; velocities 96/120/108), note-offs before note-ons on a frame; after
SIGTERM a Stop and a note-off for every note still on; exit 0.
"""
import json
import math
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

import jack
from jack_test_lib import INCONCLUSIVE, Checks, ServerFaults

BOOP = sys.argv[1]
SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 6.0
check = Checks()


rng = random.Random(int(os.environ.get("BOOP_MIDI_SEED", "26")))
length = rng.choice([16, 24, 32])
bpm = rng.choice([97.0, 133.0, 151.5])
tracks = {}
for kind, low, high in (("melody", 60, 84), ("chords", 48, 72), ("bass", 28, 48), ("rhythm", 35, 52)):
    notes, used = [], set()
    for _ in range(rng.randrange(4, 12)):
        step = rng.randrange(length)
        pitch = rng.randrange(low, high)
        if (step, pitch) in used:
            continue
        used.add((step, pitch))
        notes.append({"step": step, "pitch": pitch, "velocity": rng.choice(["normal", "accent", "sustain"]),
                      "length": rng.randrange(1, min(4, length - step) + 1)})
    tracks[kind] = notes
pattern = {"name": "midi-out test", "bpm": bpm, "length": length, "tracks": tracks}
work = tempfile.mkdtemp(prefix="boop-midi-out.")
path = os.path.join(work, "p.json")
with open(path, "w") as f:
    json.dump(pattern, f)

rec = jack.Client("boop-midirec", no_start_server=True)
rate = rec.samplerate
port = rec.midi_inports.register("in")
got = []  # (frame, bytes)
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
    boop = subprocess.Popen([BOOP, "play", path, "--backend", "jack", "--midi-out", "--clock", "--no-sound",
                             "--no-display", "--midi-connect", "boop-midirec:in"],
                            stdout=subprocess.DEVNULL, stderr=err)
    start = time.monotonic()
    # Until SECONDS of music were recorded (clocks counted), or boop ended, within a limit.
    while sum(1 for _, d in got if d == b"\xf8") < SECONDS * bpm / 60 * 24:
        if boop.poll() is not None or time.monotonic() - start > 60 + SECONDS * 3:
            break
        time.sleep(0.05)
    boop.send_signal(signal.SIGTERM)
    try:
        rc = boop.wait(20)
    except subprocess.TimeoutExpired:
        boop.kill()
        rc = "hang"
    # The stop's messages arrive within a cycle of boop's exit.
    time.sleep(0.2)
    events = list(got)
err.seek(0)
check(rc == 0, f"SIGTERM: exit {rc} {err.read().strip()}")

starts = [i for i, (_, d) in enumerate(events) if d == b"\xfa"]
stops = [i for i, (_, d) in enumerate(events) if d == b"\xfc"]
if not starts or not stops:
    check(False, f"a Start and a Stop: {len(starts)} Start, {len(stops)} Stop in {len(events)} messages")
    sys.exit(1)
s_frame = events[starts[0]][0]
check(starts[0] == 0, f"Start is the first message (at frame {s_frame})")
stop_i = stops[0]
# The stop's note-offs go out with the Stop, at the start of its cycle: the music is what came before.
played = [e for e in events[:stop_i] if e[0] < events[stop_i][0]]
# Where the server's xruns or the recorder's irregular cycles (a cycle skipped, the next stamped
# a period off) fell, a message's frame as recorded is not the frame it was sent on: what falls
# there is neither expected nor judged, and said.
unseen = faults.touches
print(f"note: {faults.summary()}", flush=True)
if unseen(s_frame):
    print("INCONCLUSIVE  an xrun touched the Start, which every frame is counted from", flush=True)
    sys.exit(INCONCLUSIVE)
all_clocks = [f for f, d in played if d == b"\xf8"]
clocks = [f for f in all_clocks if not unseen(f)]
clock_at = lambda k: s_frame + math.floor(k * rate * 60.0 / (bpm * 24.0) + 0.5)
last_k = round((clocks[-1] - s_frame) * bpm * 24.0 / (rate * 60.0)) if clocks else -1
want = [clock_at(k) for k in range(last_k + 1) if not unseen(clock_at(k))]
errors = [f - clock_at(round((f - s_frame) * bpm * 24.0 / (rate * 60.0))) for f in clocks]
if len(want) < 0.75 * (last_k + 1):
    print(f"INCONCLUSIVE  xruns touched {last_k + 1 - len(want)} of {last_k + 1} clocks (at most a quarter may be)",
          flush=True)
    sys.exit(INCONCLUSIVE)
check(clocks == want, f"{len(clocks)} of {len(all_clocks)} clocks judged (the rest near xruns) at {bpm} BPM, each on "
      f"Start + round(k x rate x 60 / (bpm x 24)): largest error {max(map(abs, errors), default=0)} frames, "
      f"{len(want) - len(clocks)} missing")

# The sequencer's events, as the .mid export maps them, up to the last clock's frame.
fps = rate * 60.0 / (bpm * 4.0)
frame_of = lambda k: s_frame + math.floor(k * fps + 0.5)
channel = {"melody": 0, "chords": 1, "bass": 2, "rhythm": 9}
velocity = {"normal": 96, "accent": 120, "sustain": 108}
notes = []  # (on, off, status channel, key, velocity)
k = 0
horizon = clocks[-1] if clocks else s_frame
while frame_of(k) <= horizon + 4 * fps:
    local = k % length
    for kind, ns in tracks.items():
        for n in ns:
            if n["step"] != local:
                continue
            on = frame_of(k)
            off = frame_of(k + n["length"]) if n["velocity"] == "sustain" else \
                on + math.floor(0.8 * n["length"] * fps + 0.5)
            notes.append([on, off, channel[kind], n["pitch"], velocity[n["velocity"]]])
    k += 1
# A key struck again on its channel while sounding ends the earlier note there.
expected = []
notes.sort(key=lambda n: n[0])
for i, n in enumerate(notes):
    for m in notes[i + 1:]:
        if m[2] == n[2] and m[3] == n[3] and n[0] < m[0] < n[1]:
            n[1] = m[0]
            break
    expected.append((n[0], 1, bytes([0x90 | n[2], n[3], n[4]])))
    expected.append((n[1], 0, bytes([0x80 | n[2], n[3], 0x40])))
expected.sort()
stop_frame = events[stop_i][0]
expected = [(f, d) for f, _, d in expected if f < stop_frame and not unseen(f)]
seen = [(f, d) for f, d in played if d[0] < 0xF0 and not unseen(f)]
n_all = sum(1 for f, d in played if d[0] < 0xF0)
n_ok = sorted(seen) == sorted(expected)
check(n_ok, f"{len(seen)} of {n_all} note-ons and note-offs before the stop judged (the rest near xruns), each on "
      f"the sequencer's frame"
      + ("" if n_ok else f": first difference {next(((a, b) for a, b in zip(sorted(seen), sorted(expected)) if a != b), (len(seen), len(expected)))}"))
if not n_ok:
    print("      only boop:", sorted(set(seen) - set(expected))[:8])
    print("      only expected:", sorted(set(expected) - set(seen))[:8])
order_ok = all(not (a[0] == b[0] and a[1][0] & 0xF0 == 0x90 and b[1][0] & 0xF0 == 0x80) for a, b in zip(seen, seen[1:]))
check(order_ok, "on a shared frame every note-off comes before the note-ons" + ("" if order_ok else ": " + str(
    [(a, b) for a, b in zip(seen, seen[1:]) if a[0] == b[0] and a[1][0] & 0xF0 == 0x90 and b[1][0] & 0xF0 == 0x80][:3])))
on = set()
for f, d in events:
    if d[0] & 0xF0 == 0x90 and d[2] > 0:
        on.add((d[0] & 0x0F, d[1]))
    elif d[0] & 0xF0 in (0x80, 0x90):
        on.discard((d[0] & 0x0F, d[1]))
check(not on, f"after SIGTERM a Stop and a note-off for every held note (left on: {sorted(on)})")
sys.exit(1 if check.failures else 0)
