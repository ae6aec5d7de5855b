#!/usr/bin/env python3
"""`boop play --midi-out --clock --loops N` sends MIDI Stop where the music ends.

    jack_midi_out_stop_test.py BOOP     (JACK_DEFAULT_SERVER names the running server)

A pattern at an odd tempo (steps not whole frames) is played twice (--loops 2), with its sound
(boop:out_1/2 unconnected: the last notes ring on after the music ends) and with --no-sound, with
boop:midi_out connected to a recorder client, which stores each message with its frame. Checked:
boop ends by itself with 0; one Start and one Stop; the Stop is on the frame where the second
loop ends (Start + round(2 x length x rate x 60 / (bpm x 4)), within a frame), after the last
clock, not when the output closes after the tail. Prints PASS/FAIL lines; exits 1 on a failure.
"""
import json
import os
import subprocess
import sys
import tempfile

import jack
from jack_test_lib import Checks, wait_until

BOOP = sys.argv[1]
check = Checks()
LENGTH, BPM, LOOPS = 8, 151.5, 2
pattern = {"name": "stop test", "bpm": BPM, "length": LENGTH,
           "tracks": {"melody": [{"step": 0, "pitch": 60}, {"step": 7, "pitch": 67, "length": 1}],
                      "bass": [{"step": 4, "pitch": 36}]}}
work = tempfile.mkdtemp(prefix="boop-midi-stop.")
path = os.path.join(work, "p.json")
with open(path, "w") as f:
    json.dump(pattern, f)

rec = jack.Client("boop-stoprec", no_start_server=True)
rate = rec.samplerate
port = rec.midi_inports.register("in")
got = []  # (frame, bytes)


@rec.set_process_callback
def on_process(frames):
    base = rec.last_frame_time
    for offset, data in port.incoming_midi_events():
        got.append((base + offset, bytes(data)))


def take(sound):
    """Plays the pattern; returns boop's exit status, its stderr and the messages recorded."""
    got.clear()
    err = open(os.path.join(work, "err"), "w+")
    boop = subprocess.Popen([BOOP, "play", path, "--backend", "jack", "--midi-out", "--clock",
                             "--no-connect" if sound else "--no-sound", "--no-display", "--loops", str(LOOPS),
                             "--midi-connect", "boop-stoprec:in"], stdout=subprocess.DEVNULL, stderr=err)
    try:
        rc = boop.wait(60)
    except subprocess.TimeoutExpired:
        boop.kill()
        rc = "hang"
    # boop waits for its last messages to go out before it closes the port.
    wait_until("the Stop to arrive", 5, lambda: any(d == b"\xfc" for _, d in got))
    err.seek(0)
    return rc, err.read().strip(), list(got)


def judge(name, rc, err, events):
    check(rc == 0, f"{name} --loops {LOOPS}: exit {rc} {err}")
    starts = [f for f, d in events if d == b"\xfa"]
    stops = [f for f, d in events if d == b"\xfc"]
    clocks = [f for f, d in events if d == b"\xf8"]
    ok = len(starts) == 1 and len(stops) == 1
    check(ok, f"{name}: one Start and one Stop: {len(starts)} Start, {len(stops)} Stop in {len(events)} messages")
    if ok:
        end = starts[0] + round(LOOPS * LENGTH * rate * 60 / (BPM * 4))
        late_ms = (stops[0] - end) / rate * 1000
        check(abs(stops[0] - end) <= 1 and (not clocks or clocks[-1] < stops[0]),
              f"{name}: Stop on frame {stops[0] - starts[0]} after Start, the end of loop {LOOPS} is {end - starts[0]} "
              f"({late_ms:+.1f} ms); {len(clocks)} clocks, the last "
              f"{stops[0] - clocks[-1] if clocks else '-'} frames before it")


with rec:
    for sound in (True, False):
        judge("with sound" if sound else "--no-sound", *take(sound))
os.remove(path)
for name in os.listdir(work):
    os.remove(os.path.join(work, name))
os.rmdir(work)
sys.exit(1 if check.failures else 0)
