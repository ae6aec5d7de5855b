#!/usr/bin/env python3
"""`boop edit` on a live server: an auditioned note and a note added while the loop plays are heard
on the sink's monitor at their pitch; a 64 KiB paste of keys and fast typing never crash it nor
turn its sound off; Ctrl-Z for longer than the playback watchdog (10 s) and `fg` bring the sound
back; `boop play` under an interactive bash gives the shell its terminal on Ctrl-Z and takes keys
again after `fg`.

    scripts/edit-live-test.py BOOP WORKDIR       (PULSE_SERVER set to the private null sink)

The monitor is recorded with `boop listen -D pulse --raw` (16 kHz mono float) while the editor,
in a pseudo-terminal, places C4 (auditioned), starts the loop, and places G4 on step 5 while it
plays (auditioned, then played by the loop every 2 s at 120 BPM). The recording is searched for
bursts of energy at each pitch (a 100 ms window's DFT bin at the exact frequency). Expected: C4
at least three times (the audition and the loop), G4 at least twice, separated by the loop's
period, and nothing at a pitch that was never placed (E4).

The paste (5 sessions) is the regression test for heap corruption with a device open: each
session must stay up, keep "pulse" on its status line (a full event queue is back-pressure, not a
lost device), save, and quit with 0. Run it under the AddressSanitizer and ThreadSanitizer builds
too (swift build -c debug --sanitize=address|thread --scratch-path .build-asan|.build-tsan).
"""

import json
import os
import random
import re
import signal
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from edit_driver import Editor, Shell  # noqa: E402

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
failures = 0


def check(ok, what, detail=""):
    global failures
    print(("PASS  " if ok else "FAIL  ") + what + ("" if ok else f": {detail}"), flush=True)
    if not ok:
        failures += 1


check(status == 0 and len(c4) >= 3 and len(g4) >= 2 and not e4,
      f"boop edit on the null sink: C4 heard at {c4} s, G4 (added while playing) at {g4} s, E4 (never placed) at {e4};"
      + f" exit {status}; {taps}")

# -v: each placed note's tap-to-sound on the status line, the engine's part stamped by the render
# that passed the note's frame (no waiting in the editor): within the 100 ms it is shown for.
tap_ms = [re.search(r"tap-to-sound: ([0-9.]+) ms key read to engine \+ ([0-9.]+) ms device buffer", t) for t in taps]
check(all(m and 0 <= float(m.group(1)) < 100 for m in tap_ms), "-v shows each tap's key read to engine", taps)

# A 64 KiB paste of editing keys, five times, with the device open (and the loop started and
# stopped by the p's in it).
rnd = random.Random(int(os.environ.get("BOOP_BURST_SEED", "1")))
keys = b" hjklHL123[]\t+-<>pu\r"
sessions = int(os.environ.get("BOOP_BURST_SESSIONS", "5"))
survived = 0
for i in range(sessions):
    path = os.path.join(WORK, f"burst{i}.json")
    for p in (path, path + ".save"):
        if os.path.exists(p):
            os.remove(p)
    with Editor(BOOP, path, args=["-D", "pulse"]) as ed:
        opened = ed.wait_for("pulse", timeout=10)
        taken = ed.paste(bytes(rnd.choice(keys) for _ in range(65536)), timeout=120)
        # Every key handled: the help opens only after the paste's last key was read.
        ed.keys("c", "?")
        handled = ed.wait_for("undo / redo", timeout=120)
        ed.keys("esc")
        ed.pump(0.3)
        line = ed.status_line()
        ed.keys("c", "s")
        saved = ed.wait_for("saved burst", timeout=20)
        ed.keys("q")
        status = ed.wait_exit(20)
        ok = opened and taken and handled and "pulse" in line and saved and status == 0
        survived += ok
        if not ok:
            print(f"      session {i}: opened {opened}, paste taken {taken}, handled {handled}, saved {saved},"
                  f" exit {status}; status line {line.strip()!r}; {ed.raw[-400:]!r}")
check(survived == sessions, f"a 64 KiB paste with the device open: {survived} of {sessions} sessions kept sound,"
      " saved and quit with 0")

# Typing faster than the engine's immediate lane takes (256 events a block): bursts of 4096
# toggles 0.3 s apart, so each burst's auditions meet the releases of the one before (the gate is
# 0.25 s). A full queue must hold notes back, never turn the sound off.
path = os.path.join(WORK, "fast.json")
for p in (path, path + ".save"):
    if os.path.exists(p):
        os.remove(p)
with Editor(BOOP, path, args=["-D", "pulse"]) as ed:
    ed.wait_for("pulse", timeout=10)
    ed.pump(0.5)
    for _ in range(6):
        ed.paste(b" " * 4096)
        ed.pump(0.3)
    ed.keys("c", "?")
    ed.wait_for("undo / redo", timeout=60)
    ed.keys("esc")
    ed.pump(0.5)
    line = ed.status_line()
    check("pulse" in line and "lost" not in line, "typing faster than the queue takes keeps the sound on", line)
    ed.keys("q", "n")
    ed.wait_exit()

# Ctrl-Z with sound for 12 s (past the playback watchdog), then fg: the sound is back.
path = os.path.join(WORK, "suspend.json")
for p in (path, path + ".save"):
    if os.path.exists(p):
        os.remove(p)
with Shell() as sh:
    sh.run(f"{BOOP} edit {path} -D pulse")
    sh.wait_for("pulse", timeout=10)
    sh.keys(" ", "p")
    sh.pump(0.5)
    prompts = sh.prompts()
    sh.keys("ctrl-z")
    stopped = sh.wait_prompt(prompts)
    time.sleep(12)
    sh.run("fg")
    back = sh.wait_for("step 1/16", timeout=10)
    sh.pump(1.5)
    line = sh.status_line()
    check(stopped and back and "pulse" in line and "playing" in line and "lost" not in line,
          "Ctrl-Z for 12 s with the loop playing, then fg: sound and loop back", (stopped, back, line))
    sh.keys("q", "n")
    sh.pump(0.5)

# boop play (Keyboard): Ctrl-Z gives the shell echo and line mode; fg takes single keys again.
def line_mode(stty):
    words = stty.replace("\r", " ").replace("\n", " ").split()
    return "echo" in words and "icanon" in words


path = os.path.join(WORK, "play.json")
json.dump({"name": "p", "bpm": 60, "length": 32, "tracks": {"melody": [{"step": 0, "pitch": 60}]}}, open(path, "w"))
with Shell() as sh:
    prompts = sh.prompts()
    sh.run(f"{BOOP} play {path} -D pulse --loops 20")
    sh.pump(1.5)
    sh.keys("ctrl-z")
    check(sh.wait_prompt(prompts) and b"Stopped" in sh.raw, "play: Ctrl-Z stops it, the prompt comes back",
          sh.raw[-300:])
    check(line_mode(sh.command_output("stty -a")), "play: echo and line mode back for the shell")
    prompts = sh.prompts()
    sh.run("fg")
    sh.pump(1.0)
    running = bool(sh.children()) and sh.prompts() == prompts
    sh.send(b"q")
    check(running and sh.wait_prompt(prompts, timeout=5), "play: fg continues it and a single q quits it",
          sh.raw[-300:])
    check(line_mode(sh.command_output("stty -a")), "play: line mode after it ends")

print(f"edit live tests: {failures} failed")
sys.exit(1 if failures else 0)
