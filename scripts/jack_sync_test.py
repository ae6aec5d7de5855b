#!/usr/bin/env python3
"""Checks `boop play --backend jack --sync jack --midi-out --clock --no-sound` against the transport.

    jack_sync_test.py BOOP     (JACK_DEFAULT_SERVER names the running server)

The test client is the timebase master (BBT at 100 BPM, the pattern file says 120) and records
boop:midi_out with each message's frame. It places the transport in the middle of a step and
starts it, stops it a while later, and starts it again from where it stopped. The formula
(PatternTransport+Sync.swift): a step is fps = rate x 60 / (bpm x 4) frames at the master's
tempo, step k on transport frame T(k) = floor(k x fps + 0.5); rolling from transport frame F,
seen in the cycle starting on server frame R, the first step k0 with T(k0) >= F is on R +
T(k0) - F, and step k on that + floor((k - k0) x fps + 0.5). Checked: Song Position k0 and
Continue before the first note of each run, every note-on and note-off of each run on the
formula's frame (0 frames error), nothing but note-offs and Stop once the transport stopped, and
exit 0 on SIGTERM. Prints PASS/FAIL lines; exits 1 on a failure. BOOP_SYNC_DEBUG=1 also prints every
message but the clocks.
"""
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import time

import jack
from jack_test_lib import Checks, wait_until  # noqa: E402

BOOP = sys.argv[1]
check = Checks()


MASTER_BPM, LENGTH = 100.0, 16
steps = [1, 3, 6, 9, 12, 14]
pattern = {"name": "sync test", "bpm": 120, "length": LENGTH,
           "tracks": {"melody": [{"step": s, "pitch": 60 + s, "velocity": "normal", "length": 1} for s in steps],
                      "chords": [], "bass": [], "rhythm": []}}
work = tempfile.mkdtemp(prefix="boop-sync.")
path = os.path.join(work, "p.json")
with open(path, "w") as f:
    json.dump(pattern, f)

rec = jack.Client("boop-sync", no_start_server=True)
rate = rec.samplerate
fps = rate * 60.0 / (MASTER_BPM * 4.0)
port = rec.midi_inports.register("in")
got = []    # (frame, bytes)
rolls = []  # (server frame of the cycle, transport frame) where a run began
stops = []  # server frame of the first stopped cycle after a run
state = {"rolling": False}
cycles = []  # (first frame, frames) of each cycle the recorder ran in


@rec.set_process_callback
def on_process(frames):
    base = rec.last_frame_time
    cycles.append((base, frames))
    rolling, pos = rec.transport_query()
    rolling = rolling == jack.ROLLING
    if rolling and not state["rolling"]:
        rolls.append((base, pos["frame"]))
    if not rolling and state["rolling"]:
        stops.append(base)
    state["rolling"] = rolling
    for offset, data in port.incoming_midi_events():
        got.append((base + offset, bytes(data)))


@rec.set_timebase_callback
def on_timebase(_state, _blocksize, pos, _new_pos):
    # BBT from the frame at the master's tempo, 4/4, 1920 ticks a beat.
    beats = pos.frame / (rate * 60.0 / MASTER_BPM)
    pos.valid = jack._lib.JackPositionBBT
    pos.beats_per_minute = MASTER_BPM
    pos.beats_per_bar, pos.beat_type, pos.ticks_per_beat = 4.0, 4.0, 1920.0
    pos.bar = int(beats // 4) + 1
    pos.beat = int(beats % 4) + 1
    pos.tick = int((beats % 1) * 1920)
    pos.bar_start_tick = (pos.bar - 1) * 4 * 1920.0


def step_frame(k):
    return math.floor(k * fps + 0.5)


def expected_run(r, f, until):
    """The notes of a run rolling from transport frame f on server frame r, before `until`."""
    k0 = 0
    while step_frame(k0) < f:
        k0 += 1
    first = r + step_frame(k0) - f
    out = []
    k = k0
    while first + step_frame(k - k0) < until:
        if k % LENGTH in steps:
            on = first + step_frame(k - k0)
            key = 60 + k % LENGTH
            out.append((on, bytes([0x90, key, 96])))
            off = on + math.floor(0.8 * fps + 0.5)
            if off < until:
                out.append((off, bytes([0x80, key, 0x40])))
        k += 1
    return k0, first, sorted(out)


with rec:
    rec.transport_stop()
    err = open(os.path.join(work, "err"), "w+")
    boop = subprocess.Popen([BOOP, "play", path, "--backend", "jack", "--sync", "jack", "--midi-out", "--clock",
                             "--no-sound", "--no-display", "--midi-connect", "boop-sync:in"],
                            stdout=subprocess.DEVNULL, stderr=err)
    wait_until("boop:midi_out to be connected to boop-sync:in", 60,
               lambda: boop.poll() is not None or any(p.name == "boop:midi_out"
                                                     for p in rec.get_all_connections("boop-sync:in")))
    # Stopped: nothing plays. Then placed mid-step (0.75 of a step before step 3) and started.
    rec.transport_locate(step_frame(3) - math.floor(0.75 * fps))
    rec.transport_start()
    wait_until("two seconds of the first run", 60, lambda: rolls and rec.last_frame_time > rolls[0][0] + 2 * rate)
    rec.transport_stop()
    wait_until("the transport to stop", 60, lambda: stops)
    wait_until("a second stopped", 60, lambda: rec.last_frame_time > stops[0] + rate)
    rec.transport_start()
    wait_until("two seconds of the second run", 60, lambda: len(rolls) > 1 and rec.last_frame_time > rolls[1][0] + 2 * rate)
    rec.transport_stop()
    wait_until("the transport to stop again", 60, lambda: len(stops) > 1)
    boop.send_signal(signal.SIGTERM)
    try:
        rc = boop.wait(20)
    except subprocess.TimeoutExpired:
        boop.kill()
        rc = "hang"
    events = list(got)
if os.environ.get("BOOP_SYNC_DEBUG"):
    print(rolls, stops)
    for t, d in events:
        if d[0] != 0xF8:
            print(t, d.hex())
err.seek(0)
check(rc == 0, f"SIGTERM: exit {rc} {err.read().strip()}")

# Cycles the recorder itself missed (its own xruns on a loaded machine) carried messages it never
# saw: what falls in them is neither expected nor counted.
missed = [(a[0] + a[1], b[0]) for a, b in zip(cycles, cycles[1:]) if b[0] != a[0] + a[1]]
unseen = lambda f: any(lo <= f < hi for lo, hi in missed)
if missed:
    print(f"note: the recorder missed {sum(hi - lo for lo, hi in missed)} frames in {len(missed)} gaps", flush=True)
for run, ((r, f), stop) in enumerate(zip(rolls, stops)):
    k0, first, want = expected_run(r, f, stop)
    want = [(t, d) for t, d in want if not unseen(t)]
    # What was due in a cycle boop missed too goes out at the start of the next one (late):
    # where the recorder missed cycles, those are left out as well.
    late = {hi for lo, hi in missed}
    mine = [(t, d) for t, d in events if r <= t < stop]
    notes = [(t, d) for t, d in mine if d[0] & 0xE0 == 0x80 and t not in late]
    same = sorted(notes) == want
    check(same, f"run {run + 1}: the transport rolls from frame {f} (server frame {r}); {len(want)} note-ons and "
          f"note-offs at {MASTER_BPM:g} BPM from step {k0} on frame {first}, each on the formula's frame"
          + ("" if same else f"; only boop: {sorted(set(notes) - set(want))[:4]}, only expected: "
             f"{sorted(set(want) - set(notes))[:4]}"))
    spp = [(t, d) for t, d in mine if d[0] == 0xF2]
    cont = [t for t, d in mine if d[0] == 0xFB]
    spp_ok = spp and spp[0][1] == bytes([0xF2, k0 & 0x7F, k0 >> 7]) and cont and cont[0] == first and \
        (not notes or notes[0][0] >= first)
    check(bool(spp_ok), f"run {run + 1}: Song Position {k0} and Continue on frame {first}, before the first note")
    after = [(t, d) for t, d in events if stop <= t < (rolls[run + 1][0] if run + 1 < len(rolls) else 1 << 62)]
    quiet = all(d[0] & 0xF0 == 0x80 or d[0] in (0xFC, 0xF8) for t, d in after if t < stop + 256) and \
        not any(d[0] & 0xF0 == 0x90 or d[0] == 0xF8 for t, d in after if t >= stop + 256)
    stop_seen = any(d[0] == 0xFC for _, d in after) or any(lo < stop + rate for lo, hi in missed if hi > stop)
    check(quiet and stop_seen,
          f"run {run + 1}: after the transport stopped only note-offs and Stop ({len(after)} messages)")
check(len(rolls) == 2 and len(stops) == 2, f"two runs seen: {len(rolls)} starts, {len(stops)} stops")
sys.exit(1 if check.failures else 0)
