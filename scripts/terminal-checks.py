#!/usr/bin/env python3
"""Live status lines and keys as a terminal shows them: the lines of ambient, listen and play fit 40,
80 and 100 columns and follow a resize (one row on screen, never a new row per refresh);
ambient's n / Right / > and p / Left / < step through the presets; the editor survives a 65535 x 65535 window.

    scripts/terminal-checks.py BOOP       prints PASS/FAIL lines, exits 1 on a failure
"""
import fcntl
import os
import select
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from edit_driver import Checks, Terminal  # noqa: E402

boop = sys.argv[1]
presets = [line.split()[0] for line in subprocess.run([boop, "ambient", "--list"], capture_output=True,
                                                       text=True).stdout.splitlines() if line.strip()]
check = Checks()

# The status lines: 2.5 s of refreshes, then a resize to 40 columns, must leave one row on screen.
for cols in (40, 80, 100):
    with Terminal([boop, "ambient", "-D", "null", "--preset", presets[0]], cols) as t:
        t.pump(2.5)
        rows = t.shown()
        check(len(rows) == 1 and presets[0] in rows[0] and len(rows[0]) < cols,
              f"ambient at {cols} columns: one row, within the width", rows)
        if cols == 100:
            t.resize(40, 24, signal_child=False)
            os.kill(t.pid, signal.SIGWINCH)
            # A line already on its way when the window shrank wraps (this reader cannot reflow it as
            # a terminal would): it is read, then the screen is cleared, and what follows must fit.
            t.pump(0.5)
            t.screen.reset()
            t.pump(1.5)
            rows = t.shown()
            check(len(rows) == 1 and len(rows[0]) < 40, "ambient after a resize 100 -> 40: one row", rows)
        check(t.finish() == 0, f"ambient at {cols} columns: q exits 0")

for cols in (40, 80, 100):
    with Terminal([boop, "listen", "-D", "null", "--duration", "2"], cols) as t:
        t.wait_exit(30)
        rows = t.shown()
        check(len(rows) == 1 and "dBFS" in rows[0] and len(rows[0]) < cols,
              f"listen at {cols} columns: one row, within the width", rows)

# play's playhead block (a header wider than 40 columns, then a row per track): each row within the
# width, so a refresh moves up over the block and never leaves rows behind.
demo = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "demo.json")
for cols in (40, 80):
    with Terminal([boop, "play", demo, "-D", "null"], cols) as t:
        t.pump(2.5)
        rows = t.shown()
        check(len(rows) == 5 and all(len(r) < cols for r in rows), f"play at {cols} columns: 5 rows within the width",
              rows)
        check(t.finish() == 0, f"play at {cols} columns: q exits 0")

# The editor in a window of 65535 x 65535 columns and rows (any program may set that size): it asked
# for a cell per position (100 GB) and aborted; it must keep editing and draw the grid at 80 x 24 again.
with tempfile.TemporaryDirectory() as folder, Terminal([boop, "edit", os.path.join(folder, "big.json"), "-D", "null"],
                                                        80) as t:
    check(t.pump_until(lambda t: "step 1/16" in t.text(), 30), "edit opens", t.shown())
    fcntl.ioctl(t.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 65535, 65535, 0, 0))
    os.kill(t.pid, signal.SIGWINCH)
    # Read what it draws without a screen of that size (pyte would build one), until its bottom row
    # (512: the largest size it draws) or its end, at most 30 s.
    drawn, end = b"", time.time() + 30
    while time.time() < end and b"\x1b[512;1H" not in drawn and t.alive():
        try:
            if select.select([t.fd], [], [], 0.05)[0]:
                drawn = drawn[-64:] + os.read(t.fd, 1 << 20)
        except OSError:
            break
    t.screen.reset()
    t.resize(80, 24)
    os.write(t.fd, b"l")
    check(t.pump_until(lambda t: "step 2/16" in t.text(), 30), "edit after a 65535 x 65535 window: still editing",
          (t.status, t.shown()[-1:]))
    check(t.finish() == 0, "edit: q exits 0 after the huge window")

# Keys: n, Right and > go to the next preset, p, Left and < to the previous (cyclic, as the media keys).
with Terminal([boop, "ambient", "-D", "null", "--preset", presets[0]], 100) as t:
    def showing(name):
        return lambda t: any(r.startswith(name + " ") for r in t.shown())

    check(t.pump_until(showing(presets[0]), 10), "ambient shows the first preset", t.shown())
    steps = [(b"n", 1), (b"\x1b[C", 2), (b">", 3), (b"p", 2), (b"\x1b[D", 1), (b"<", 0), (b"<", -1)]
    for key, index in steps:
        # A crossfade takes 2 s; a press during one waits for it, so each waits for the last to show.
        os.write(t.fd, key)
        name = presets[index % len(presets)]
        check(t.pump_until(showing(name), 10), f"ambient key {key!r} -> {name}", t.shown())
        t.pump(2.3)
    check(t.finish() == 0, "ambient: q exits 0 after the keys")

# How fast q and Ctrl-C end each command is timed by quit-keys-test.py (cli-tests.d/quit.sh), which
# runs alone: this file runs beside the other pieces, where the wall clock measures their load.

help_text = subprocess.run([boop, "ambient", "--help"], capture_output=True, text=True).stdout
check(all(k in " ".join(help_text.split()) for k in ("n, Right or >", "p, Left or <")),
      "ambient --help names the keys", help_text)
sys.exit(1 if check.failures else 0)
