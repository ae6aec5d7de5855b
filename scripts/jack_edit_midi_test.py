#!/usr/bin/env python3
"""`boop edit --backend jack --midi PORT`: a JACK MIDI keyboard in the editor.

    jack_edit_midi_test.py BOOP     (JACK_DEFAULT_SERVER names the running server)

boop edit runs in a pseudo-terminal (edit_driver) as a JACK client; the test client's MIDI output
port is connected by boop to boop:midi_in. With step entry on (`i`), a note-on (velocity 110:
an accent) placed at the cursor, the cursor moves on a step when the key is up; a second key
(velocity 70: normal) lands on the next step, a two-key chord on the one after. Saved, the file
has exactly those notes with their velocities. About 5 s.
"""
import os
import sys
import tempfile
import threading

import jack
from edit_driver import Checks, Editor, notes
from jack_test_lib import wait_until

BOOP = sys.argv[1]
check = Checks()
work = tempfile.mkdtemp(prefix="boop-edit-midi.")
path = os.path.join(work, "keys.json")

keys = jack.Client("boop-keys", no_start_server=True)
out = keys.midi_outports.register("out")
lock = threading.Lock()
pending = []  # messages for the next cycle, from the test's thread
sent = {"count": 0}


@keys.set_process_callback
def on_process(frames):
    out.clear_buffer()
    with lock:
        batch = pending[:]
        pending.clear()
    for i, message in enumerate(batch):
        out.write_midi_event(min(i, frames - 1), bytes(message))
    sent["count"] += len(batch)


def play(*messages):
    """Sends the messages in the next cycle and waits until they went out."""
    with lock:
        target = sent["count"] + len(messages)
        pending.extend(messages)
    wait_until("the test client's cycle to send", 10, lambda: sent["count"] >= target)


keys.activate()
try:
    with Editor(BOOP, path, args=["--backend", "jack", "--no-connect", "--midi", "boop-keys:out"]) as ed:
        check(ed.wait_for("step 1/16"), "the editor runs on JACK", ed.text())
        connected = lambda: any(p.name.endswith(":midi_in") for p in keys.get_all_connections(out))
        wait_until("boop-keys:out connected to boop's midi_in", 30, connected)
        check(True, "boop-keys:out is connected to boop:midi_in by --midi")
        ed.keys("i")
        check(ed.wait_for("step entry"), "i: step entry on", ed.status_line())
        play([0x90, 64, 110])
        play([0x80, 64, 0])
        check(ed.wait_for("step 2/16"), "a played key moves the cursor on a step", ed.status_line())
        play([0x90, 67, 70], [0x80, 67, 64])
        check(ed.wait_for("step 3/16"), "a second key: the next step", ed.status_line())
        play([0x90, 60, 100], [0x90, 72, 100])
        play([0x80, 60, 0], [0x80, 72, 0])
        check(ed.wait_for("step 4/16"), "a chord: one step", ed.status_line())
        ed.keys("s")
        check(ed.wait_for("saved"), "saved", ed.status_line())
        ed.keys("q")
        check(ed.wait_exit() == 0, "quits with 0", ed.status)
    got = notes(path, "melody")
    want = [(0, 64, "accent", 1), (1, 67, "normal", 1), (2, 60, "accent", 1), (2, 72, "accent", 1)]
    check(got == want, "the saved notes at the cursor with their velocities", got)
finally:
    keys.deactivate()
    keys.close()
sys.exit(1 if check.failures else 0)
