#!/usr/bin/env python3
"""`boop synth --backend jack` as a palette instrument and a JACK citizen.

    jack_synth_palette_test.py BOOP     (JACK_DEFAULT_SERVER names the running server)

One synth, named with --name, its MIDI linked by --midi-connect from part of the test sender's
port name, channel 1 a palette sine and channel 2 a saw, recording its output (--record, what the
ports carried). Checked in that file: CC 10 pans channel 1 with the equal-power law (0: left
+3 dB over the centre, right silent; 127 the mirror), and CC 120 leaves the output at least 60 dB
under what sounded, from 10 ms after the heard frame. Then SIGTSTP: the client leaves the graph,
`jack_lsp` answers within a second while boop is stopped; SIGCONT brings the ports and the
--midi-connect link back and a note sounds again. A second synth with --lookahead 0 reports no
port latency and keeps a loud chord at +12 dB within 1 dB of the -1 dBTP ceiling (scripts/
loudness.py's meter). Prints PASS/FAIL lines; exits 1 on a failure.
"""
import os
import signal
import subprocess
import sys
import tempfile
import time

import jack
import numpy as np
from jack_test_lib import Checks, send_plan, wait_until  # noqa: E402
from loudness import measure, read  # noqa: E402

BOOP = sys.argv[1]
check = Checks()
work = tempfile.TemporaryDirectory()
send = jack.Client("synthp-sender", no_start_server=True)
midi_out = send.midi_outports.register("out")
rate = send.samplerate
plan, marks, state = [], {}, {"start": None, "next": 0}
send_plan(send, midi_out, plan, state)


def at(seconds, data, mark=None):
    frame = int(seconds * rate)
    plan.append((frame, bytes(data)))
    if mark:
        marks[mark] = frame


for i, pan in enumerate((0, 127, 64)):
    t = 0.2 + 0.8 * i
    at(t - 0.05, [0xB0, 10, pan])
    at(t, [0x90, 57, 100], ("pan", pan))
    at(t + 0.5, [0x80, 57, 0])
for key in (48, 55, 60, 64):
    at(2.6, [0x90, key, 127])
    at(2.6, [0x91, key - 12, 127])
at(3.1, [0xB0, 120, 0], "cc120")
at(3.1, [0xB1, 120, 0])
PLAYED = 3.6


def capture_latency(port):
    out = subprocess.run(["jack_lsp", "-l", port], capture_output=True, text=True, timeout=30).stdout
    for line in out.splitlines():
        if "port capture latency" in line:
            lo, hi = line.split("[")[1].split("]")[0].split()
            return int(lo), int(hi)
    return None, None


def start(name, *args):
    record = os.path.join(work.name, name + ".wav")
    proc = subprocess.Popen([BOOP, "synth", "--backend", "jack", "--name", name, "--no-connect", "--no-display",
                             "--midi-connect", "synthp-send", "--record", record, *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wait_until(f"{name}:midi_in linked", 60, lambda: proc.poll() is not None or any(
        p.name == f"{name}:midi_in" for p in send.get_all_connections(midi_out)))
    if proc.poll() is not None:
        raise SystemExit(f"FAIL  boop synth --name {name} exited at once: {proc.stderr.read()}")
    return proc, record


def finish(proc):
    proc.send_signal(signal.SIGTERM)
    try:
        return proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
        return "hang"


def rms(x):
    return float(np.sqrt(np.mean(np.square(x, dtype=np.float64)))) + 1e-15


def db(x):
    return 20 * np.log10(x)


def job_control(proc, name):
    """SIGTSTP: jack_lsp answers within a second while boop is stopped; SIGCONT: back, linked."""
    def process_state():
        return open(f"/proc/{proc.pid}/stat").read().split(")")[1].split()[0]

    sent = time.monotonic()
    proc.send_signal(signal.SIGTSTP)
    # It leaves the graph first, then stops: waited for (a loaded machine takes its time).
    try:
        wait_until("boop to stop", 20, lambda: process_state() == "T")
    except SystemExit:
        pass
    stopping = time.monotonic() - sent
    began = time.monotonic()
    lsp = subprocess.run(["jack_lsp"], capture_output=True, text=True, timeout=30)
    took = time.monotonic() - began
    stopped = process_state()
    check(stopped == "T" and lsp.returncode == 0 and took < 1.0,
          f"SIGTSTP: boop stopped (state {stopped}) {stopping * 1000:.0f} ms after the signal, "
          f"jack_lsp answered in {took * 1000:.0f} ms")
    check(not any(p.name == f"{name}:midi_in" for p in send.get_all_connections(midi_out)),
          "while stopped the client is out of the graph (its links gone)")
    proc.send_signal(signal.SIGCONT)
    wait_until("the --midi-connect link to come back", 10, lambda: any(
        p.name == f"{name}:midi_in" for p in send.get_all_connections(midi_out)))
    check(True, "SIGCONT: the client is back, the --midi-connect link made again")
    now = send.last_frame_time - state["start"]
    plan.append((now + rate // 4, bytes([0x90, 69, 100])))
    plan.append((now + rate // 2, bytes([0x80, 69, 0])))
    time.sleep(1.0)


with send:
    proc, record = start("synthp", "--channel", "1=sine", "--channel", "2=saw")
    state["start"] = send.frame_time + rate // 4
    time.sleep(PLAYED + 0.5)
    job_control(proc, "synthp")
    rc = finish(proc)
    check(rc == 0, f"SIGTERM after the stop and continue: exit {rc}")

    _, audio = read(record)
    left, right = audio[:, 0], audio[:, 1]
    onset = int(np.flatnonzero(np.abs(audio).max(axis=1) > 0)[0])
    base = onset - marks[("pan", 0)]  # file frame = plan frame + base (latency + 1 included)

    def window(mark, a, b):
        f = base + marks[mark]
        return slice(f + int(a * rate), f + int(b * rate))

    w = window(("pan", 64), 0.1, 0.45)
    centre = rms(left[w])
    for pan, side in ((0, "left"), (127, "right")):
        w = window(("pan", pan), 0.1, 0.45)
        loud, quiet = (left, right) if side == "left" else (right, left)
        up, down = db(rms(loud[w]) / centre), db(rms(quiet[w]) / centre)
        # 0.2 dB: room for an xrun's silent cycle in the window; the linear law would give 0 or +6 dB.
        check(abs(up - 3.0103) < 0.2 and down < -80,
              f"CC 10 = {pan}: {side} {up:+.2f} dB re the centre (equal power: +3.01), the other side {down:.0f} dB")
    w = window(("pan", 64), 0.1, 0.45)
    check(abs(db(rms(right[w]) / centre)) < 0.01, "CC 10 = 64: both sides at the centre's unity level")
    cc = base + marks["cc120"] - 1  # the heard frame of CC 120 (base counts the envelope's first 0)
    before = float(np.abs(audio[cc - int(0.2 * rate):cc]).max())
    after = float(np.abs(audio[cc + int(0.01 * rate):cc + int(0.3 * rate)]).max())
    down = db(before / max(after, 1e-15))
    check(down >= 60, f"CC 120: {down:.1f} dB under the sound before it, from 10 ms after the heard frame")
    check(float(np.abs(audio[-int(0.8 * rate):]).max()) > 0.01, "after SIGCONT a note sounds again")

    plan.clear()
    state.update(start=None, next=0)
    for key in (60, 64, 67, 72):
        at(0.1, [0x90, key, 127])
        at(0.1, [0x91, key - 24, 127])
        at(0.1, [0x92, key + 12, 127])
    proc, record = start("synthz", "--lookahead", "0", "--gain", "12", "--channel", "1=saw", "--channel", "2=pulse",
                         "--channel", "3=sub")
    lat = capture_latency("synthz:out_1")
    check(lat == (0, 0), f"--lookahead 0: synthz:out_1 reports a capture latency of {lat} (none)")
    state["start"] = send.frame_time + rate // 4
    time.sleep(1.5)
    rc = finish(proc)
    m = measure(record, skip_dropouts=True)
    check(rc == 0 and m["true_peak_dbtp"] <= 0.0,
          f"--lookahead 0 --gain 12, a loud chord: true peak {m['true_peak_dbtp']:.2f} dBTP (ceiling -1, margin 1 dB)")
sys.exit(1 if check.failures else 0)
