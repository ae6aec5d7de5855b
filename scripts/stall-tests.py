#!/usr/bin/env python3
"""The terminal can never stall the sound: `boop edit` and `boop play` keep playing, every note on
its frame, while their terminal stops reading for 30 s and is resized meanwhile.

    scripts/stall-tests.py BOOP WORKDIR [CASE...]   (PULSE_SERVER set to the private null sink)

CASE is edit, play, edit-nice or play-nice (default: all four). Each runs the command in a
pseudo-terminal on a pattern with a note on every step (C5 and G5 in turn at 120 BPM, each held
for 0.8 of its step, whose release tail lasts into the next: the pattern never falls to exact
silence), and once the sink's monitor hears it, stops reading the terminal for STALL seconds
(default 30; BOOP_STALL_SECONDS), resizing the window three times on the way, so the screen
writes fill the terminal's buffer and then block (as on a frozen terminal or a stalled ssh
connection). The -nice cases run the command at nice 19 beside two busy processes
(`yes >/dev/null`) for the whole run.

The monitor is recorded (parec, 44.1 kHz mono float) from before the start to after the stall.
Over the stall (which starts 2.5 s after the sink first hears the loop), expected:
- no gap: no run of exact digital silence longer than GAP_MS (the pattern's rests never reach
  exact silence, and the null sink's monitor is exact zeros only when nothing plays: a note not
  queued in time leaves silence once the one before has died away);
- no late note: every note's onset (the 1 ms RMS rising through a threshold) lies on the formula's grid, onset(k) = t0 + floor(k x rate x 60 / (bpm x 4) + 0.5)
  / rate, within ONSET_TOLERANCE_MS (t0 fitted, odd and even steps apart since the two pitches
  rise through the threshold at slightly different moments), and none is missing.
Every wait is for the thing itself with a generous limit; no fixed short sleeps decide anything.
"""

import json
import os
import subprocess
import sys
import threading
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from edit_driver import Editor  # noqa: E402

BOOP, WORK = sys.argv[1], sys.argv[2]
CASES = sys.argv[3:] or ["edit", "play", "edit-nice", "play-nice"]
os.makedirs(WORK, exist_ok=True)
RATE = 44100
BPM = 120
STEPS = 16
PITCHES = (72, 79)  # C5, G5
STALL = float(os.environ.get("BOOP_STALL_SECONDS", "30"))
GAP_MS = 10.0
ONSET_TOLERANCE_MS = 1.0
failures = 0


def check(ok, what, detail=""):
    global failures
    print(("PASS  " if ok else "FAIL  ") + what + ("" if ok else f": {detail}"), flush=True)
    if not ok:
        failures += 1


def hz(midi):
    return 440.0 * 2 ** ((midi - 69) / 12)


def write_pattern(path):
    notes = [{"step": k, "pitch": PITCHES[k % 2], "length": 1} for k in range(STEPS)]
    with open(path, "w") as f:
        json.dump({"name": "Stall", "bpm": BPM, "length": STEPS, "tracks": {"melody": notes}}, f)


class Monitor:
    """parec on the null sink's monitor, into memory on a reader thread."""

    def __init__(self):
        sink = os.environ.get("BOOP_PULSE_SINK", "boop_null")
        self.proc = subprocess.Popen(
            ["parec", "-d", sink + ".monitor", "--raw", "--format=float32le", f"--rate={RATE}", "--channels=1",
             "--latency-msec=20"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.lock = threading.Lock()
        self.chunks = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        fd, pending = self.proc.stdout.fileno(), b""
        while True:
            data = os.read(fd, 65536)
            if not data:
                return
            pending += data
            usable = len(pending) // 4 * 4
            with self.lock:
                self.chunks.append(np.frombuffer(pending[:usable], dtype="<f4").copy())
            pending = pending[usable:]

    def samples(self):
        with self.lock:
            return np.concatenate(self.chunks) if self.chunks else np.zeros(0, np.float32)

    def wait_loud(self, limit):
        """Until the last 50 ms hold sound; returns the sample index where sound began, or None."""
        end = time.time() + limit
        while time.time() < end:
            x = self.samples()
            if x.size > RATE // 20 and np.sqrt(np.mean(x[-RATE // 20:].astype(np.float64) ** 2)) > 1e-3:
                return int(np.argmax(np.abs(x) > 0))
            time.sleep(0.05)
        return None

    def wait_samples(self, count, limit):
        end = time.time() + limit
        while time.time() < end and self.samples().size < count:
            time.sleep(0.05)
        return self.samples().size >= count

    def close(self):
        self.proc.terminate()
        self.proc.wait()


def longest_zero_run(x):
    """Length in samples of the longest run of exact zeros, and where it starts."""
    zero = np.concatenate(([0], (x == 0).astype(np.int8), [0]))
    edges = np.flatnonzero(np.diff(zero))
    starts, ends = edges[::2], edges[1::2]
    if starts.size == 0:
        return 0, 0
    i = int(np.argmax(ends - starts))
    return int(ends[i] - starts[i]), int(starts[i])


def step_onsets(x):
    """Times (s) where a note starts: the 1 ms RMS rising through a quarter of its typical peak
    (the notes rise from their predecessor's quiet tail), interpolated, at most one per 50 ms.
    The first and last millisecond are left out: there the RMS window runs past the recording,
    and a cut that lands in a note's tail can rise through the threshold where nothing started."""
    n = int(0.001 * RATE)
    x = x.astype(np.float64)
    env = np.sqrt(np.convolve(x * x, np.ones(n) / n, mode="same"))
    threshold = 0.25 * np.percentile(env, 90)
    out, last = [], -RATE
    rising = np.flatnonzero((env[:-1] < threshold) & (env[1:] >= threshold))
    for i in rising[(rising >= n) & (rising < env.size - n)]:
        if i - last >= 0.05 * RATE:
            out.append((i + (threshold - env[i]) / (env[i + 1] - env[i])) / RATE)
            last = i
    return np.array(out)


def onset_residuals(changes):
    """Each change's distance (ms) from the formula's grid, t0 fitted per parity of the step."""
    if changes.size < 8:
        return None
    fps = RATE * 60 / (BPM * 4)
    grid = lambda k: np.floor(k * fps + 0.5) / RATE  # noqa: E731
    k = np.round((changes - changes[0]) * RATE / fps).astype(int)
    residuals = np.zeros(changes.size)
    for parity in (0, 1):
        sel = (k % 2) == parity
        if not sel.any():
            continue
        offset = np.median(changes[sel] - grid(k[sel]))
        residuals[sel] = (changes[sel] - grid(k[sel]) - offset) * 1000
    return residuals


def busy_processes():
    return [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(2)]


def stall_case(case):
    command = case.split("-")[0]
    nice = case.endswith("-nice")
    path = os.path.join(WORK, f"stall-{command}.json")
    write_pattern(path)
    busy = busy_processes() if nice else []
    mon = Monitor()
    try:
        argv = ["nice", "-n", "19"] if nice else []
        argv += [BOOP, command, path, "-D", "pulse"]
        if command == "edit":
            # play's buffer (1024 x 3 frames, 70 ms) instead of the editor's 9 ms: on a two-core
            # machine shared with builds an underrun of the device itself is a gap too, and that
            # is not what this measures (the scheduling runs 40 ms plus the buffer ahead either way).
            argv += ["--period-frames", "1024", "--periods", "3"]
        with Editor(BOOP, path, argv=argv) as ed:
            if command == "edit":
                if not ed.wait_for("pulse", timeout=60):
                    return check(False, f"{case}: the editor opened the pulse device", ed.status_line())
                ed.keys("p")
            first = mon.wait_loud(60)
            if first is None:
                return check(False, f"{case}: the sink hears the loop within 60 s")
            # The first loop with the terminal read (an idle null sink may start a new stream
            # with a hiccup, which is the server's, not the stall's): the stall starts after it.
            while mon.samples().size < first + int(2.5 * RATE) and ed.pump(0.05):
                pass
            stall_start = mon.samples().size
            # Stop reading the terminal; resize it on the way (each resize is a whole redraw).
            sizes = [(120, 40), (60, 20), (100, 30)]
            for i, (cols, rows) in enumerate(sizes):
                mon.wait_samples(stall_start + int(STALL * RATE * (i + 1) / (len(sizes) + 1)), STALL * 4)
                ed.resize(cols, rows, signal_child=False)   # the kernel sends SIGWINCH
            mon.wait_samples(stall_start + int(STALL * RATE), STALL * 4)
            stall_end = mon.samples().size
            pending = blocked_bytes(ed)
            wchan = main_thread_wchan(ed.pid)
            ed.pump(1.0)   # reading again
            ed.keys("q")
            status = ed.wait_exit(30)
    finally:
        mon.close()
        for p in busy:
            p.kill()
            p.wait()
    detail = (f"terminal held {pending} unread bytes at the end of the stall; main thread waiting in {wchan!r};"
              f" load average {os.getloadavg()[0]:.1f}")
    check(status == 0, f"{case}: exits 0 after the stall", f"exit {status}")
    judge_stall(case, mon.samples()[stall_start:stall_end], detail)


def judge_stall(case, stalled, detail):
    """The sound heard while the terminal was stalled: no gap, every step on its frame."""
    gap, at = longest_zero_run(stalled)
    check(stalled.size >= STALL * RATE * 0.99 and gap < GAP_MS / 1000 * RATE,
          f"{case}: no gap over {STALL:.0f} s of a stalled, resized terminal (longest exact silence"
          f" {gap / RATE * 1000:.1f} ms; {detail})",
          f"{gap / RATE * 1000:.1f} ms of exact silence {at / RATE:.2f} s into the stall")
    # The stall starts in the second loop: the very first note, which rises a little
    # differently (no tail before it), is not among these.
    changes = step_onsets(stalled)
    residuals = onset_residuals(changes)
    expected = int(stalled.size / RATE * BPM * 4 / 60)
    if residuals is None:
        return check(False, f"{case}: note onsets found", f"{changes.size}")
    worst = float(np.max(np.abs(residuals)))
    check(worst <= ONSET_TOLERANCE_MS and changes.size >= expected - 2,
          f"{case}: {changes.size} steps (about {expected} expected) on the formula's frames, worst"
          f" {worst:.2f} ms off (tolerance {ONSET_TOLERANCE_MS} ms)",
          f"worst {changes[int(np.argmax(np.abs(residuals)))]:.3f} s into the stall")


def blocked_bytes(ed):
    import fcntl
    import termios
    import array
    buf = array.array("i", [0])
    fcntl.ioctl(ed.fd, termios.FIONREAD, buf)
    return buf[0]


def main_thread_wchan(pid):
    try:
        with open(f"/proc/{pid}/wchan") as f:
            return f.read().strip()
    except OSError:
        return "?"


for case in CASES:
    stall_case(case)
sys.exit(1 if failures else 0)
