#!/usr/bin/env python3
"""`boop edit` on a live server: an auditioned note and a note added while the loop plays are heard
on the sink's monitor at their pitch.

    scripts/edit-live-test.py BOOP WORKDIR       (PULSE_SERVER set to the private null sink)

The monitor is recorded with `boop listen -D pulse --raw` (16 kHz mono float) while the editor,
in a pseudo-terminal, places C4 (auditioned), starts the loop, and places G4 on step 5 while it
plays (auditioned, then played by the loop every 2 s at 120 BPM). The recording is searched for
bursts of energy at each pitch (a 100 ms window's DFT bin at the exact frequency). Expected: C4
at least three times (the audition and the loop), G4 at least twice, separated by the loop's
period, and nothing at a pitch that was never placed (E4).
"""

import os
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from edit_driver import Editor  # noqa: E402

BOOP, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)
path = os.path.join(WORK, "live.json")
for p in (path, path + ".save"):
    if os.path.exists(p):
        os.remove(p)
raw = os.path.join(WORK, "monitor.f32")
rate = 16000
recorder = subprocess.Popen([BOOP, "listen", "-D", "pulse", "--raw", "--duration", "10"],
                            stdout=open(raw, "wb"), stderr=subprocess.DEVNULL)
# Until the recording stream runs on the server (the monitor is RUNNING), at most 60 s.
deadline = time.time() + 60
while recorder.poll() is None and time.time() < deadline:
    sources = subprocess.run(["pactl", "list", "short", "sources"], capture_output=True, text=True).stdout
    if "RUNNING" in sources:
        break
    time.sleep(0.05)
else:
    print("FAIL  the recorder (boop listen) did not start recording within 60 s")
    recorder.kill()
    sys.exit(1)
taps = []
with Editor(BOOP, path, args=["-D", "pulse", "-v"]) as ed:
    if not ed.wait_for("pulse"):
        print("FAIL  the editor did not open the pulse device:", ed.status_line())
        sys.exit(1)
    ed.pump(2.5)  # an idle sink starts a new stream up to 2 s late
    ed.keys(" ")  # C4, auditioned
    ed.pump(0.3)
    taps.append(ed.line(ed.rows - 2).strip())
    ed.keys("p")
    ed.pump(0.4)
    ed.keys("l", "l", "l", "l", *(["k"] * 7), " ")  # G4 on step 5, while playing
    ed.pump(0.3)
    taps.append(ed.line(ed.rows - 2).strip())
    ed.pump(4.5)
    ed.keys("q", "n")
    status = ed.wait_exit()
recorder.wait()

x = np.fromfile(raw, dtype="<f4").astype(np.float64)
win = int(0.1 * rate)
t = np.arange(win) / rate


def levels(freq):
    basis = np.exp(-2j * np.pi * freq * t) * np.hanning(win)
    return np.array([abs(np.dot(x[i:i + win], basis)) / win for i in range(0, len(x) - win, win // 2)])


freqs = {"C4": 261.6256, "E4": 329.6276, "G4": 391.9954}
all_levels = {name: levels(f) for name, f in freqs.items()}
strongest = np.max(np.vstack(list(all_levels.values())), axis=0)


def bursts(name):
    """Start times of the stretches where the pitch is loud and the strongest of the three (a
    neighbour's onset leaks a little into every bin; it never leads)."""
    loud = (all_levels[name] > 1e-3) & (all_levels[name] >= 0.5 * strongest)
    starts, previous = [], False
    for k, on in enumerate(loud):
        if on and not previous:
            starts.append(round(k * win / 2 / rate, 2))
        previous = on
    return starts


c4, g4, e4 = bursts("C4"), bursts("G4"), bursts("E4")
ok = status == 0 and len(c4) >= 3 and len(g4) >= 2 and not e4
print(("PASS  " if ok else "FAIL  ")
      + f"boop edit on the null sink: C4 heard at {c4} s, G4 (added while playing) at {g4} s, E4 (never placed) at {e4};"
      + f" exit {status}; {taps}")
sys.exit(0 if ok else 1)
