#!/usr/bin/env python3
"""A terminal that stops reading never stops boop: its screen writes never block.

Each case runs boop on a pseudo-terminal whose reader (this script) stops reading for STALL
seconds while the program keeps drawing, until the terminal's buffers are full. While the
reader is stopped, the program must go on answering keys (edit: a key saves the file; play and
ambient: q exits in seconds). Once reading again, the screen catches up to the latest frame. Its
stdout must stay a blocking descriptor (O_NONBLOCK only on boop's own reopened one), as the shell
and the other processes on the terminal expect.

    scripts/screen-stall-test.py BOOP WORK [STALL]      prints PASS/FAIL lines, exits 1 on a failure
"""
import json
import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from edit_driver import Checks, Terminal  # noqa: E402

BOOP, WORK = sys.argv[1], sys.argv[2]
STALL = float(sys.argv[3]) if len(sys.argv) > 3 else 30.0
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
checks = Checks()


def check(ok, what, detail=""):
    checks(ok, what, detail)
    sys.stdout.flush()


def stall(t, seconds, limit=60.0):
    """Stops reading for `seconds` at least, and on until the terminal's buffers are full (at
    most `limit` seconds in all): a view that draws slowly on a loaded machine (ambient's redraws
    are small and few) takes longer to fill them."""
    start = time.time()
    full = False
    while time.time() < start + seconds or (not full and time.time() < start + limit):
        time.sleep(0.5)
        if not full and t.output_queued() > 0:
            # Full once the queue stops growing for a second while the program draws.
            before = t.output_queued()
            time.sleep(1)
            full = t.output_queued() == before
    return full


# edit: the playing loop and its playhead draw all the time; a resize asks for a whole screen.
path = os.path.join(WORK, "stall.json")
with open(os.path.join(ROOT, "examples", "demo.json")) as f:
    song = json.load(f)
with Terminal([BOOP, "edit", "-D", "null", path], 200, 60) as t:
    ok = t.pump_until(lambda t: "steps" in t.text() or "BPM" in t.text(), 20)
    check(ok, "edit: the editor is drawn", t.text()[:300])
    check(t.stdout_blocking(), "edit: stdout stays a blocking descriptor")
    os.write(t.fd, b"p")
    for size in ((160, 50), (200, 60), (180, 55)):
        t.resize(*size, signal_child=False)
        os.kill(t.pid, signal.SIGWINCH)
        time.sleep(0.3)
    started = time.time()
    full = stall(t, STALL / 2)
    check(full, "edit: the terminal's buffers filled while not read", t.output_queued())
    # Keys while the screen is stuck: a note, then a save; the file appears while nothing is read.
    os.write(t.fd, b" s")
    deadline = time.time() + 10
    while time.time() < deadline and not os.path.exists(path):
        time.sleep(0.1)
    check(os.path.exists(path), f"edit: a key saves while the terminal has not read for {time.time() - started:.0f} s")
    stall(t, max(0, STALL - (time.time() - started)))
    check(t.exited(0) is None, "edit: still running after the stall")
    # Reading again: the screen catches up with the latest frame (the saved file's name, no '*').
    t.resize(180, 55, signal_child=False)
    caught = t.pump_until(lambda t: "stall.json" in t.text() and "saved" in t.text(), 20)
    check(caught, "edit: the screen catches up once read", t.text()[-600:])
    os.write(t.fd, b"q")
    t.pump(5)
    code = t.exited(5)
    check(code == 0, f"edit: q exits 0 after the stall ({code})")

# play and ambient: the view never stops; q while the screen is stuck exits within seconds.
for name, args in (("play", ["play", "-D", "null", os.path.join(ROOT, "examples", "demo.json")]),
                   ("ambient", ["ambient", "-D", "null"])):
    with Terminal([BOOP, *args], 200, 40) as t:
        t.pump_until(lambda t: t.text().strip() != "", 20)
        check(t.stdout_blocking(), f"{name}: stdout stays a blocking descriptor")
        full = stall(t, STALL)
        check(full, f"{name}: the terminal's buffers filled while not read", t.output_queued())
        if name == "play":
            # A key the view shows, typed while the screen is stuck: read again, the screen
            # catches up with the latest frame (the pause).
            os.write(t.fd, b" ")
            time.sleep(1)
            caught = t.pump_until(lambda t: "(paused)" in t.text(), 20)
            check(caught, "play: the screen catches up once read (the pause is shown)", t.text()[:300])
            os.write(t.fd, b" ")
            # The view redraws as the playhead moves: stuck again, past full, before the q.
            full = stall(t, STALL)
            check(full, f"{name}: the terminal's buffers filled again", t.output_queued())
        began = time.time()
        os.write(t.fd, b"q")
        code = t.exited(15)
        check(code == 0, f"{name}: q while the terminal is not read exits 0 in {time.time() - began:.1f} s ({code})")

print(f"screen stall: {checks.failures} failed")
sys.exit(1 if checks.failures else 0)
