#!/usr/bin/env python3
"""`boop edit --backend jack --midi PORT`: a JACK MIDI keyboard in the editor.

    jack_edit_midi_test.py BOOP     (JACK_DEFAULT_SERVER names the running server)

boop edit runs in a pseudo-terminal (edit_driver) as a JACK client; the test client's MIDI output
port is connected by boop to boop:midi_in. With step entry on (`i`), a note-on (velocity 110:
an accent) placed at the cursor, the cursor moves on a step when the key is up; a second key
(velocity 70: normal) lands on the next step, a two-key chord on the one after. Saved, the file
has exactly those notes with their velocities.

Before that, with step entry off, two keys are played from silence at different offsets in their
cycles while a third client records boop's output: each note must start on the frame its event
carried (boop applies it in its process callback, on its frame), so the onset lags the event's frame
by the same number of frames both times (the output stage's look-ahead and the attack's first
audible sample), whatever the offset. About 7 s.
"""
import os
import sys
import tempfile
import threading

import jack
import numpy as np
from edit_driver import Checks, Editor, notes
from jack_test_lib import ServerFaults, wait_until

BOOP = sys.argv[1]
check = Checks()
work = tempfile.mkdtemp(prefix="boop-edit-midi.")
path = os.path.join(work, "keys.json")

keys = jack.Client("boop-keys", no_start_server=True)
out = keys.midi_outports.register("out")
lock = threading.Lock()
pending = []  # (offset or None, message) for the next cycle, from the test's thread
sent = {"count": 0, "frames": []}  # frames: the absolute frame of each message sent


# The server's xruns and this client's irregular cycles: a key sent where they fell may be lost or
# moved by the server, which a measurement there must tell from boop's own errors.
faults = ServerFaults(keys)


@keys.set_process_callback
def on_process(frames):
    faults.cycle(frames)
    out.clear_buffer()
    with lock:
        batch = pending[:]
        pending.clear()
    start = keys.last_frame_time
    for i, (at, message) in enumerate(batch):
        offset = min(i if at is None else at, frames - 1)
        out.write_midi_event(offset, bytes(message))
        sent["frames"].append(start + offset)
    sent["count"] += len(batch)


def play(*messages, at=None):
    """Sends the messages in the next cycle (at offset `at`, or 0, 1, ...) and waits until they
    went out; returns the absolute frame of the first."""
    with lock:
        target = sent["count"] + len(messages)
        pending.extend((at, m) for m in messages)
    wait_until("the test client's cycle to send", 10, lambda: sent["count"] >= target)
    return sent["frames"][target - len(messages)]


# boop's first output, recorded with each cycle's absolute frame (this client runs after boop).
ear = jack.Client("boop-ear", no_start_server=True)
ear_in = ear.inports.register("in")
heard = []  # (first frame, samples)


@ear.set_process_callback
def on_ear(frames):
    block = ear_in.get_array().copy()
    with lock:
        heard.append((ear.last_frame_time, block))


def heard_since(frame):
    """boop's output from `frame` on, as one array."""
    with lock:
        blocks = [(t, b) for t, b in heard if t + len(b) > frame]
    if not blocks:
        return np.zeros(0, dtype=np.float32)
    samples = np.concatenate([b for _, b in blocks])
    return samples[frame - blocks[0][0]:]


def silent_for(frames):
    """The last `frames` recorded are silence (a note ended and its release faded)."""
    with lock:
        if not heard or sum(len(b) for _, b in heard) < frames:
            return False
        recent = np.concatenate([b for _, b in heard[-(frames // len(heard[-1][1]) + 1):]])
    return float(np.max(np.abs(recent[-frames:]))) < 1e-6


def onset_lag(key, offset, tries=3):
    """Plays `key` from silence at `offset` in its cycle; the frames from its event to the first
    audible sample (|x| > 1e-4) of boop's output. A measurement an xrun touched (the recorded
    cycles' frames are then not the sent ones) is taken again, at most `tries` times in all."""
    period = keys.blocksize
    for attempt in range(1, tries + 1):
        wait_until("boop's output to fall silent", 10, lambda: silent_for(4800))
        frame = play([0x90, key, 100], at=offset)
        wait_until(f"key {key} to be heard", 10, lambda: np.any(np.abs(heard_since(frame)) > 1e-4))
        lag = int(np.argmax(np.abs(heard_since(frame)) > 1e-4))
        play([0x80, key, 0])
        if not faults.touches(frame - period, frame + lag + 2 * period):
            return lag
        print(f"note: the onset at offset {offset} (try {attempt} of {tries}) was touched by an xrun; measured "
              "again", flush=True)
    return None


def step_entry(want, *groups, tries=3):
    """With step entry on, plays each group of messages in a cycle of its own and waits for the
    status line to show `want`. A key that never shows is a product defect unless the server lost
    it: heard in boop's output (it sounds in the callback that queues it for the editor), it
    reached boop; not heard, and an xrun near it, the server lost it and the keys are played again
    (at most `tries` times in all); not heard with no xrun near it, it is boop's loss too.
    Returns (placed, what happened)."""
    period = keys.blocksize
    for attempt in range(1, tries + 1):
        wait_until("boop's output to fall silent", 10, lambda: silent_for(4800))
        frames = [play(*g) for g in groups]
        if ed.wait_for(want):
            return True, f"on try {attempt}" if attempt > 1 else ""
        heard = bool(np.any(np.abs(heard_since(frames[0])) > 1e-4))
        lost = any(faults.touches(f - period, f + 4 * period) for f in frames)
        if heard or not lost:
            return False, (f"boop sounded the keys but the editor did not place them ({ed.status_line()})" if heard
                           else f"the keys were neither heard nor placed, with no xrun near them ({faults.summary()})")
        print(f"note: keys sent at frames {frames} lost by the server (an xrun there; try {attempt} of {tries}): "
              "played again", flush=True)
    return False, f"lost by the server's xruns {tries} times"


keys.activate()
ear.activate()
try:
    with Editor(BOOP, path, args=["--backend", "jack", "--no-connect", "--midi", "boop-keys:out"]) as ed:
        check(ed.wait_for("step 1/16"), "the editor runs on JACK", ed.text())
        connected = lambda: any(p.name.endswith(":midi_in") for p in keys.get_all_connections(out))
        wait_until("boop-keys:out connected to boop's midi_in", 30, connected)
        check(True, "boop-keys:out is connected to boop:midi_in by --midi")
        boop_out = [p.name for p in ear.get_ports(is_audio=True, is_output=True) if p.name.endswith(":out_1")
                    and not p.name.startswith("system")]
        check(bool(boop_out), "boop's output port out_1 is there", boop_out)
        ear.connect(boop_out[0], ear_in)
        first, second = onset_lag(69, 37), onset_lag(69, 211)
        print(f"note: {faults.summary()}", flush=True)
        check(first is not None and first == second and 0 <= first < 48000 // 10,
              f"a key starts on its event's frame: the same lag ({first} frames) from offsets 37 and 211", (first, second))
        ed.keys("i")
        check(ed.wait_for("step entry"), "i: step entry on", ed.status_line())
        placed, how = step_entry("step 2/16", [[0x90, 64, 110]], [[0x80, 64, 0]])
        check(placed, f"a played key moves the cursor on a step {how}", how or ed.status_line())
        placed, how = step_entry("step 3/16", [[0x90, 67, 70], [0x80, 67, 64]])
        check(placed, f"a second key: the next step {how}", how or ed.status_line())
        placed, how = step_entry("step 4/16", [[0x90, 60, 100], [0x90, 72, 100]], [[0x80, 60, 0], [0x80, 72, 0]])
        check(placed, f"a chord: one step {how}", how or ed.status_line())
        ed.keys("s")
        check(ed.wait_for("saved"), "saved", ed.status_line())
        ed.keys("q")
        check(ed.wait_exit() == 0, "quits with 0", ed.status)
    got = notes(path, "melody")
    want = [(0, 64, "accent", 1), (1, 67, "normal", 1), (2, 60, "accent", 1), (2, 72, "accent", 1)]
    check(got == want, "the saved notes at the cursor with their velocities", got)
finally:
    ear.deactivate()
    ear.close()
    keys.deactivate()
    keys.close()
sys.exit(1 if check.failures else 0)
