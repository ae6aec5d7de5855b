#!/usr/bin/env python3
"""Sound that survives a stopped process, and a device that comes back, heard on the null sink.

    scripts/suspend-live-test.py BOOP WORKDIR CASE      (PULSE_SERVER set to a private null sink)

CASE is one of:
  play, ambient, tone, edit   the command plays (a looping pattern, ambient, a 60 s tone, the
                              editor's loop); once the sink's monitor hears it, the process is
                              stopped (SIGSTOP) for 15 s, during which the sink must fall silent,
                              then continued (SIGCONT): the sink must hear it again within 1 s,
                              and it plays on (sound in most of the next 2 s) until q or Ctrl-C
                              ends it with exit 0. edit's status line must not say "lost".
  listen                      boop listen --json is stopped for 15 s and continued: it goes on
                              printing and hears a tone (A4) played afterwards; Ctrl-C exits 0.
  reconnect-ambient           boop ambient --reconnect; the server is killed (SIGKILL), ambient
  reconnect-edit              (or the editor, looping) says it waits/reconnects and keeps
                              running; the server is started again (BOOP_KILL_DIR, by
                              scripts/pulse-null-sink.sh) and the sink hears the music again.
  late-device-edit            boop edit started while no server runs says it edits silently; once
                              a server starts, it takes the device (within seconds) and p plays.

The monitor is recorded by parec (16 kHz mono float, 20 ms fragments) on a reader thread that
stamps every fragment with its arrival time (CLOCK_MONOTONIC), so "heard again after SIGCONT" is
measured from the signal to the arrival of the first loud 50 ms window: an upper bound of the true
delay. Every wait is for the thing itself, with a generous limit and a clear failure.
"""

import json
import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

BOOP, WORK, CASE = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(WORK, exist_ok=True)
RATE = 16000
WIN = RATE // 20  # 50 ms
LOUD = 1e-4  # RMS; the monitor of an idle null sink is exact zeros
STOP_SECONDS = 15.0
RESUME_LIMIT = 1.0
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fail(msg):
    print(f"FAIL  {CASE}: {msg}")
    sys.exit(1)


class Monitor:
    """parec on the sink's monitor; windows of 50 ms with the time their last sample arrived."""

    def __init__(self):
        sink = os.environ.get("BOOP_PULSE_SINK", "boop_null")
        self.proc = subprocess.Popen(
            ["parec", "-d", sink + ".monitor", "--raw", "--format=float32le", f"--rate={RATE}", "--channels=1",
             "--latency-msec=20"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.lock = threading.Lock()
        self.samples = []  # float32 arrays
        self.count = 0
        self.arrivals = []  # (sample count after the fragment, monotonic arrival)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        fd = self.proc.stdout.fileno()
        pending = b""
        while True:
            data = os.read(fd, 4096)
            if not data:
                return
            now = time.monotonic()
            pending += data
            usable = len(pending) // 4 * 4
            block = np.frombuffer(pending[:usable], dtype="<f4")
            pending = pending[usable:]
            with self.lock:
                self.samples.append(block)
                self.count += block.size
                self.arrivals.append((self.count, now))

    def windows(self):
        """[(arrival time, rms)] of every whole 50 ms window so far."""
        with self.lock:
            x = np.concatenate(self.samples) if self.samples else np.zeros(0, np.float32)
            arrivals = list(self.arrivals)
        n = x.size // WIN
        rms = np.sqrt(np.mean(x[:n * WIN].astype(np.float64).reshape(n, WIN) ** 2, axis=1)) if n else []
        ends = np.array([a[0] for a in arrivals])
        times = np.array([a[1] for a in arrivals])
        out = []
        for k in range(n):
            i = np.searchsorted(ends, (k + 1) * WIN)
            out.append((times[min(i, len(times) - 1)], float(rms[k])))
        return out

    def wait_for(self, predicate, limit, what):
        end = time.monotonic() + limit
        while time.monotonic() < end:
            result = predicate(self.windows())
            if result is not None:
                return result
            time.sleep(0.02)
        fail(f"{what} (waited {limit:.0f} s)")

    def close(self):
        self.proc.terminate()
        self.proc.wait()


def first_loud_after(t0, run=1):
    """The arrival time of the first of `run` consecutive loud windows that arrived after t0."""
    def check(ws):
        streak = 0
        for t, r in ws:
            if t <= t0:
                continue
            streak = streak + 1 if r > LOUD else 0
            if streak >= run:
                return t
        return None
    return check


def silent_after(t0, seconds):
    """True once a silent stretch of `seconds` arrived after t0."""
    def check(ws):
        streak = 0
        for t, r in ws:
            if t <= t0:
                continue
            streak = streak + 1 if r <= LOUD else 0
            if streak * WIN / RATE >= seconds:
                return True
        return None
    return check


def loud_fraction(ws, t0, t1):
    sel = [r for t, r in ws if t0 < t <= t1]
    return (sum(r > LOUD for r in sel) / len(sel)) if sel else 0.0


def pause_wait(seconds, alive=None):
    """The stop itself lasts this long (the scenario, not a wait for something)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if alive is not None:
            alive()
        time.sleep(min(0.1, max(0.0, end - time.monotonic())))


def stop_and_continue(pid, mon, pump=None):
    """SIGSTOP for STOP_SECONDS (the sink falls silent), SIGCONT; the sound must be back within
    RESUME_LIMIT. Returns (resume delay, fraction of loud windows over the next 2 s)."""
    t_stop = time.monotonic()
    os.kill(pid, signal.SIGSTOP)
    mon.wait_for(silent_after(t_stop, 1.0), 8, "the sink never fell silent while the process was stopped")
    pause_wait(STOP_SECONDS - (time.monotonic() - t_stop), pump)
    t_cont = time.monotonic()
    os.kill(pid, signal.SIGCONT)
    heard = mon.wait_for(first_loud_after(t_cont), 10, "no sound within 10 s of SIGCONT")
    delay = heard - t_cont
    # It plays on: the next 2 s (waited for as sound arriving, and bounded).
    mon.wait_for(lambda ws: True if ws and ws[-1][0] > heard + 2.0 else None, 10, "the monitor stopped delivering")
    frac = loud_fraction(mon.windows(), heard, heard + 2.0)
    return delay, frac


def wait_exit(proc, limit):
    try:
        return proc.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return "hang"


def run_command(argv, min_loud_fraction, expect_in_stderr=None):
    mon = Monitor()
    err = open(os.path.join(WORK, f"{CASE}.err"), "w+")
    proc = subprocess.Popen([BOOP, *argv], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
    started = time.monotonic()
    # Heard for half a second (an idle sink starts a new stream up to 2 s late).
    mon.wait_for(first_loud_after(started, run=10), 20, "the command was never heard")
    delay, frac = stop_and_continue(proc.pid, mon)
    alive = proc.poll() is None
    proc.send_signal(signal.SIGINT)
    rc = wait_exit(proc, 10)
    mon.close()
    err.seek(0)
    text = err.read()
    tail = text[-300:].replace("\n", " | ")
    said = expect_in_stderr is None or expect_in_stderr in text
    ok = alive and rc == 0 and delay <= RESUME_LIMIT and frac >= min_loud_fraction and said
    verdict = (f"boop {' '.join(argv)}: stopped {STOP_SECONDS:.0f} s, heard again {delay:.2f} s after SIGCONT"
               f" (limit {RESUME_LIMIT} s), loud {frac:.0%} of the next 2 s, still running {alive}, Ctrl-C -> {rc}"
               + (f", -v says '{expect_in_stderr}': {said}" if expect_in_stderr else ""))
    if not ok:
        fail(verdict + (f"; stderr: {tail}" if tail else ""))
    print("PASS  " + verdict)


def dense_editor(ed):
    """A loop with a note on every step of the melody (each auditioned as placed), then p."""
    for _ in range(16):
        ed.keys(" ", "l")
    ed.keys("p")


def run_edit():
    from edit_driver import Editor
    path = os.path.join(WORK, "suspend.json")
    for p in (path, path + ".save"):
        if os.path.exists(p):
            os.remove(p)
    mon = Monitor()
    with Editor(BOOP, path, args=["-D", "pulse"]) as ed:
        if not ed.wait_for("pulse", timeout=10):
            fail("the editor did not open the pulse device: " + ed.status_line())
        dense_editor(ed)
        started = time.monotonic()
        mon.wait_for(first_loud_after(started, run=10), 20, "the editor's loop was never heard")
        delay, frac = stop_and_continue(ed.pid, mon, pump=None)
        ed.pump(0.5)
        status = ed.status_line().strip()
        ed.keys("q", "n")
        rc = ed.wait_exit(timeout=10)
    mon.close()
    ok = delay <= RESUME_LIMIT and frac >= 0.5 and "lost" not in status and "pulse" in status and rc == 0
    verdict = (f"boop edit looping: stopped {STOP_SECONDS:.0f} s, heard again {delay:.2f} s after SIGCONT"
               f" (limit {RESUME_LIMIT} s), loud {frac:.0%} of the next 2 s, status '{status}', q -> {rc}")
    if not ok:
        fail(verdict)
    print("PASS  " + verdict)


def run_listen():
    out_path = os.path.join(WORK, "listen.jsonl")
    out = open(out_path, "w")
    err = open(os.path.join(WORK, "listen.err"), "w+")
    proc = subprocess.Popen([BOOP, "listen", "-D", "pulse", "--json"], stdin=subprocess.DEVNULL, stdout=out,
                            stderr=err)

    def rows():
        with open(out_path) as f:
            return [json.loads(line) for line in f if line.endswith("\n") and line.strip()]

    def wait_rows(n, limit, what):
        end = time.monotonic() + limit
        while time.monotonic() < end:
            r = rows()
            if len(r) >= n:
                return r
            if proc.poll() is not None:
                fail(f"{what}: boop listen exited {proc.returncode}")
            time.sleep(0.05)
        fail(f"{what} (waited {limit:.0f} s)")

    before = len(wait_rows(5, 15, "boop listen printed nothing"))
    os.kill(proc.pid, signal.SIGSTOP)
    pause_wait(STOP_SECONDS)
    t_cont = time.monotonic()
    os.kill(proc.pid, signal.SIGCONT)
    stopped_rows = len(rows())
    wait_rows(stopped_rows + 5, 10, "boop listen printed nothing after SIGCONT")
    resumed = time.monotonic() - t_cont
    tone = subprocess.run([BOOP, "tone", "A4", "-D", "pulse", "--duration", "2"], stdin=subprocess.DEVNULL,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)
    after = rows()
    voiced = [r for r in after[stopped_rows:] if r.get("note") == "A4"]
    alive = proc.poll() is None
    proc.send_signal(signal.SIGINT)
    rc = wait_exit(proc, 5)
    err.seek(0)
    tail = err.read()[-300:].replace("\n", " | ")
    ok = alive and rc == 0 and len(voiced) >= 5 and tone.returncode == 0
    verdict = (f"boop listen --json: stopped {STOP_SECONDS:.0f} s, printing again {resumed:.2f} s after SIGCONT,"
               f" {before} rows before, {len(after) - stopped_rows} after, A4 (tone after the stop) in"
               f" {len(voiced)}, still running {alive}, Ctrl-C -> {rc}")
    if not ok:
        fail(verdict + (f"; stderr: {tail}" if tail else ""))
    print("PASS  " + verdict)


def server(cmd):
    kill_dir = os.environ["BOOP_KILL_DIR"]
    subprocess.run([os.path.join(ROOT, "scripts", "pulse-null-sink.sh"), cmd, kill_dir], check=True,
                   stdout=subprocess.DEVNULL)
    if cmd == "stop":
        return None
    with open(os.path.join(kill_dir, "pid")) as f:
        return int(f.read())


def kill_server(pid):
    os.kill(pid, signal.SIGKILL)
    while True:  # the server is not our child: wait for it to be gone
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.02)
    os.remove(os.path.join(os.environ["BOOP_KILL_DIR"], "pid"))


def start_reconnect_player(editor):
    """boop edit (a dense loop playing) or boop ambient --reconnect on the pulse device. Returns
    the editor or the process, its pump, and what it says (the status line, or its stderr)."""
    if editor:
        from edit_driver import Editor
        path = os.path.join(WORK, "reconnect.json")
        for p in (path, path + ".save"):
            if os.path.exists(p):
                os.remove(p)
        ed = Editor(BOOP, path, args=["-D", "pulse"])
        if not ed.wait_for("pulse", timeout=10):
            fail("the editor did not open the pulse device: " + ed.status_line())
        dense_editor(ed)
        return ed, ed.pump, ed.status_line
    err = open(os.path.join(WORK, "reconnect.err"), "w+")
    proc = subprocess.Popen([BOOP, "ambient", "-D", "pulse", "--reconnect", "-q"], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=err)

    def stderr_text():
        err.seek(0)
        return err.read()
    return proc, (lambda *_: True), stderr_text


def run_reconnect(editor):
    kill_dir = os.environ["BOOP_KILL_DIR"]
    os.environ["PULSE_SERVER"] = f"unix:{kill_dir}/run/pulse/native"
    spid = server("start")
    mon = Monitor()
    player, pump, said = start_reconnect_player(editor)
    ed, proc = (player, None) if editor else (None, player)
    started = time.monotonic()
    mon.wait_for(first_loud_after(started, run=10), 20, "never heard before the server was killed")
    kill_server(spid)
    mon.close()
    t_kill = time.monotonic()
    # It notices and waits (generous: the watchdog alone would take 10 s).
    end = t_kill + 30
    noticed = None
    while time.monotonic() < end and noticed is None:
        pump(0.1)
        text = said()
        if ("reconnecting" in text) if editor else ("waiting for it to return" in text):
            noticed = time.monotonic() - t_kill
        if not editor and proc.poll() is not None:
            fail(f"ambient --reconnect exited {proc.returncode} when the server was killed: {said()[-300:]}")
        time.sleep(0.05)
    if noticed is None:
        fail("the loss was never reported: " + said()[-300:])
    spid = server("start")  # waits for the server itself
    mon = Monitor()
    t_back = time.monotonic()
    end = t_back + 30
    heard = None
    while time.monotonic() < end and heard is None:
        pump(0.05)
        heard = first_loud_after(t_back, run=4)(mon.windows())
    mon.close()
    if editor:
        ed.pump(0.3)
        status = ed.status_line().strip()
        ed.keys("q", "n")
        rc = ed.wait_exit(timeout=10)
        ed.__exit__()
        ok = heard is not None and "pulse" in status and "lost" not in status and rc == 0
        what = f"boop edit (looping), status '{status}'"
    else:
        back_note = "device is back" in said()
        proc.send_signal(signal.SIGINT)
        rc = wait_exit(proc, 10)
        ok = heard is not None and back_note and rc == 0
        what = f"boop ambient --reconnect ('device is back' said: {back_note})"
    server("stop")
    verdict = (f"{what}: server killed, loss reported after {noticed:.2f} s, server started again,"
               f" sound back {'%.2f s' % (heard - t_back) if heard else 'never (30 s)'} after it was up, exit {rc}")
    if not ok:
        fail(verdict)
    print("PASS  " + verdict)


def run_late_device():
    """The editor started while no server runs edits silently, and takes the device once it appears."""
    from edit_driver import Editor
    kill_dir = os.environ["BOOP_KILL_DIR"]
    os.environ["PULSE_SERVER"] = f"unix:{kill_dir}/run/pulse/native"
    path = os.path.join(WORK, "late.json")
    with Editor(BOOP, path, args=["-D", "pulse"]) as ed:
        if not ed.wait_for("no sound device", timeout=20):
            fail("with no server, the editor did not say it edits silently: " + ed.status_line())
        dense_editor(ed)  # edited silently meanwhile; p is pressed with no device to play
        spid = server("start")  # waits for the server itself
        t_up = time.monotonic()
        try:
            if not ed.wait_for("pulse", timeout=20):
                fail("the editor never took the device that appeared: " + ed.status_line())
            opened = time.monotonic() - t_up
            mon = Monitor()
            ed.keys("p")
            started = time.monotonic()
            heard = mon.wait_for(first_loud_after(started, run=4), 20, "the loop was never heard on the new device")
            mon.close()
            status = ed.status_line().strip()
            ed.keys("q", "n")
            rc = ed.wait_exit(timeout=10)
        finally:
            server("stop")
    verdict = (f"boop edit started with no server: device taken {opened:.2f} s after the server was up,"
               f" the loop heard {heard - started:.2f} s after p, status '{status}', q -> {rc}")
    if rc != 0 or "pulse" not in status:
        fail(verdict)
    print("PASS  " + verdict)


if CASE == "play":
    run_command(["play", os.path.join(ROOT, "examples", "demo.json"), "-D", "pulse", "--no-display", "-v"], 0.5,
                "resumed after stops: 1")
elif CASE == "ambient":
    run_command(["ambient", "-D", "pulse", "-q"], 0.9)
elif CASE == "tone":
    run_command(["tone", "A4", "-D", "pulse", "--duration", "60"], 0.9)
elif CASE == "edit":
    run_edit()
elif CASE == "listen":
    run_listen()
elif CASE == "reconnect-ambient":
    run_reconnect(editor=False)
elif CASE == "reconnect-edit":
    run_reconnect(editor=True)
elif CASE == "late-device-edit":
    run_late_device()
else:
    print(f"unknown case {CASE}", file=sys.stderr)
    sys.exit(64)
