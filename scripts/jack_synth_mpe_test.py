#!/usr/bin/env python3
"""`boop synth --backend jack --mpe lower:3`: per-note pitch bend on a JACK server.

    jack_synth_mpe_test.py BOOP     (JACK_DEFAULT_SERVER names the running server)

Channel 1 (the lower zone's manager) plays the sine voice; a chord C4, E4, G4 arrives on member
channels 2, 3 and 4, E4 panned hard left and the others hard right (CC 10 on their own channels).
RPN 0 on member 3 sets every member's bend range to 4 semitones, then member 3 bends by +4096:
E4 on the left moves +200 cents within 0.01 cent (zero crossings of the recording, what the
ports carried), the right side's C4 and G4 stay within 0.01 cent (the same spectral estimate
before and after). Prints PASS/FAIL lines; exits 1 on a failure.
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
from loudness import read  # noqa: E402

BOOP = sys.argv[1]
check = Checks()
work = tempfile.TemporaryDirectory()
send = jack.Client("mpe-sender", no_start_server=True)
midi_out = send.midi_outports.register("out")
rate = send.samplerate
plan, state = [], {"start": None, "next": 0}
send_plan(send, midi_out, plan, state)


def at(seconds, data):
    plan.append((int(seconds * rate), bytes(data)))


for n, key in enumerate((60, 64, 67)):
    at(0.1, [0xB1 + n, 10, 0 if key == 64 else 127])
    at(0.2, [0x91 + n, key, 100])
at(1.6, [0xB2, 101, 0])
at(1.6, [0xB2, 100, 0])
at(1.6, [0xB2, 6, 4])
at(1.7, [0xE2, 0, 96])  # 96 << 7 = 12288: +4096
BEND = 1.7
plan.sort(key=lambda event: event[0])


def zero_crossing_hz(x):
    s = np.signbit(x)
    i = np.flatnonzero(s[:-1] & ~s[1:])  # rising
    t = i + x[i] / (x[i] - x[i + 1])
    return rate * (len(t) - 1) / (t[-1] - t[0])


def peaks_hz(x, near):
    w = np.hanning(len(x))
    spectrum = np.abs(np.fft.rfft(x * w, 16 * len(x)))
    hz = np.fft.rfftfreq(16 * len(x), 1 / rate)
    found = []
    for f in near:
        band = np.flatnonzero(np.abs(hz - f) < 10)
        k = band[np.argmax(spectrum[band])]
        a, b, c = np.log(spectrum[k - 1:k + 2])
        found.append(hz[k] + (a - c) / (2 * (a - 2 * b + c)) * (hz[1] - hz[0]))
    return found


def cents(a, b):
    return 1200 * np.log2(a / b)


with send:
    record = os.path.join(work.name, "mpe.wav")
    proc = subprocess.Popen([BOOP, "synth", "--backend", "jack", "--name", "mpe", "--no-connect", "--no-display",
                             "--midi-connect", "mpe-sender", "--mpe", "lower:3", "--channel", "1=sine",
                             "--record", record], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wait_until("mpe:midi_in linked", 60, lambda: proc.poll() is not None or any(
        p.name == "mpe:midi_in" for p in send.get_all_connections(midi_out)))
    if proc.poll() is not None:
        raise SystemExit(f"FAIL  boop synth --mpe exited at once: {proc.stderr.read()}")
    state["start"] = send.frame_time + rate // 4
    wait_until("the plan to be sent and heard", 30, lambda: state["next"] >= len(plan))
    time.sleep(1.8)
    proc.send_signal(signal.SIGTERM)
    rc = proc.wait(20)
    check(rc == 0, f"SIGTERM: exit {rc}")

    _, audio = read(record)
    left, right = audio[:, 0].astype(np.float64), audio[:, 1].astype(np.float64)
    onset = int(np.flatnonzero(np.abs(audio).max(axis=1) > 0)[0])
    base = onset - int(0.2 * rate)  # file frame = plan frame + base

    def span(a, b):
        return slice(base + int(a * rate), base + int(b * rate))

    e4 = 440 * 2 ** ((64 - 69) / 12)
    before, after = zero_crossing_hz(left[span(0.5, 1.5)]), zero_crossing_hz(left[span(BEND + 0.3, BEND + 1.3)])
    check(abs(cents(before, e4)) < 0.01, f"member 3's E4 before its bend: {cents(before, e4):+.4f} cent")
    moved = cents(after, before)
    check(abs(moved - 200) < 0.01, f"member 3's own bend (RPN 0 = 4, +4096): E4 moved {moved:.4f} cents (200)")
    c4, g4 = 440 * 2 ** (-9 / 12), 440 * 2 ** (-2 / 12)
    was = peaks_hz(right[span(0.5, 1.5)], (c4, g4))
    now = peaks_hz(right[span(BEND + 0.3, BEND + 1.3)], (c4, g4))
    for name, a, b in (("C4", was[0], now[0]), ("G4", was[1], now[1])):
        check(abs(cents(b, a)) < 0.01, f"{name} on members 2 and 4 stays put: {cents(b, a):+.5f} cent")
sys.exit(1 if check.failures else 0)
