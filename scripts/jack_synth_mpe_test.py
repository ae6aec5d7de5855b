#!/usr/bin/env python3
"""`boop synth --backend jack --mpe lower:3`: per-note pitch bend on a JACK server.

    jack_synth_mpe_test.py BOOP     (JACK_DEFAULT_SERVER names the running server)

Channel 1 (the lower zone's manager) plays the sine voice; a chord C4, E4, G4 arrives on member
channels 2, 3 and 4, E4 panned hard left and the others hard right (CC 10 on their own channels).
RPN 0 on member 3 sets every member's bend range to 4 semitones, then member 3 bends by +4096:
E4 on the left moves +200 cents within 0.01 cent (zero crossings of the recording, what the
ports carried), the right side's C4 and G4 stay within 0.01 cent (the same spectral estimate
before and after). Prints PASS/FAIL lines; exits 1 on a failure.

The server's xruns: at 64-frame periods on a busy machine jackd's dummy driver skips cycles (its
log says "XRun"), often several a second. A cycle the server ran without the synth is silence on
the ports, and --record writes it as that silence, so the file keeps the server's time line; the
synth itself renders nothing for it, so its notes resume after the gap where they paused. A
frequency read across such a gap is off by as much as the gap makes it: a zero crossing gained at
the silence's edge, the gap's length of cycles lost, so one skipped 64-frame cycle in a 1-s stretch
reads a steady E4 +2.95 cents (or -2.3, by where it falls), on every note alike, bent or not. So each measured stretch is read with those silent cycles taken
out (runs of exact digital silence on both channels, at least 16 frames: a sounding note never
has one), which leaves exactly what the synth rendered, in order; when they are more than a
quarter of a stretch the run is inconclusive (exit 75). A MIDI event in a cycle the server ran
without the synth never reaches it, so the pans, the RPN and the bend (each the same again
changes nothing) are sent more than once, and a run with skipped cycles next to every copy of the
RPN or of the bend is inconclusive too; events are sent late rather than never when the sender's
own cycle was skipped (the stretches' edges are 0.1 s and more from every event).
"""
import os
import signal
import subprocess
import sys
import tempfile
import time

import jack
import numpy as np
from jack_test_lib import INCONCLUSIVE, Checks, wait_until  # noqa: E402
from loudness import read  # noqa: E402

BOOP = sys.argv[1]
check = Checks()
work = tempfile.TemporaryDirectory()
send = jack.Client("mpe-sender", no_start_server=True)
midi_out = send.midi_outports.register("out")
rate = send.samplerate
plan, state = [], {"start": None, "next": 0, "late": 0}


@send.set_process_callback
def on_send(frames):
    """Each event on its frame from state["start"]; one whose cycle the server skipped goes at the
    start of the next cycle run, counted in state["late"]."""
    midi_out.clear_buffer()
    if state["start"] is None:
        return
    now = send.last_frame_time - state["start"]
    i = state["next"]
    while i < len(plan) and plan[i][0] < now + frames:
        state["late"] += plan[i][0] < now
        midi_out.write_midi_event(max(0, plan[i][0] - now), plan[i][1])
        i += 1
    state["next"] = i


def at(seconds, data):
    plan.append((int(seconds * rate), bytes(data)))


for n, key in enumerate((60, 64, 67)):
    # The pans three times (the same value again changes nothing): all three lost is too unlikely
    # to count; the note-ons once, together in one cycle.
    for t in (0.05, 0.1, 0.15):
        at(t, [0xB1 + n, 10, 0 if key == 64 else 127])
    at(0.2, [0x91 + n, key, 100])
# The RPN and the bend twice each, 50 ms apart (again, the same value changes nothing), so that
# one copy lost in a cycle the server ran without the synth leaves the other.
RPN, BEND = (1.55, 1.6), (1.7, 1.75)
for t in RPN:
    at(t, [0xB2, 101, 0])
    at(t, [0xB2, 100, 0])
    at(t, [0xB2, 6, 4])
for t in BEND:
    at(t, [0xE2, 0, 96])  # 96 << 7 = 12288: +4096
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


GAP = 16  # frames of exact silence on both channels: a cycle the server ran without the synth


def rendered(both):
    """The frames of a stretch of the recording (frames x 2) the synth rendered: the silent
    cycles --record wrote for the server's skipped ones taken out. Returns the frames and how
    many were taken out."""
    silent = np.concatenate([[False], (both == 0).all(axis=1), [False]])
    edges = np.flatnonzero(np.diff(silent.astype(np.int8)))
    keep = np.ones(len(both), dtype=bool)
    for lo, hi in zip(edges[::2], edges[1::2]):
        if hi - lo >= GAP:
            keep[lo:hi] = False
    return both[keep], int(len(both) - keep.sum())


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
    time.sleep(1.8)  # past the after-bend stretch's end (1.3 s after the first bend) with room to spare
    proc.send_signal(signal.SIGTERM)
    rc = proc.wait(20)
    check(rc == 0, f"SIGTERM: exit {rc}")

    _, audio = read(record)
    sounding = np.flatnonzero(np.abs(audio).max(axis=1) > 0)
    if len(sounding) == 0:
        print("INCONCLUSIVE  nothing sounded: the cycle with the note-ons may be one the server ran without the synth",
              flush=True)
        sys.exit(INCONCLUSIVE)
    onset = int(sounding[0])
    base = onset - int(0.2 * rate)  # file frame = plan frame + base

    def span(a, b):
        return slice(base + int(a * rate), base + int(b * rate))

    # An event in a cycle the server ran without the synth never reached it (JACK keeps no MIDI
    # for a client that did not run): judged only when a copy of the RPN and of the bend each has
    # no silent cycle near it (its file frame: the onset's, less the output stage's 89 + 1 frames,
    # give or take two periods and 128 frames).
    period = send.blocksize

    def skipped_near(t):
        near = onset + int((t - 0.2) * rate) - 90
        return rendered(audio[near - 2 * period - 128:near + 2 * period + 128].astype(np.float64))[1] > 0

    for what, times in (("the RPN", RPN), ("the bend", BEND)):
        if all(skipped_near(t) for t in times):
            print(f"INCONCLUSIVE  the server ran a cycle without the synth next to both copies of {what}, which "
                  "may never have reached it", flush=True)
            sys.exit(INCONCLUSIVE)
    stretches = {}
    for name, (a, b) in (("before", (0.5, 1.5)), ("after", (BEND[0] + 0.3, BEND[0] + 1.3))):
        stretches[name], out = rendered(audio[span(a, b)].astype(np.float64))
        print(f"note: {name} the bend, {out} of {int((b - a) * rate)} frames were cycles the server ran without "
              f"the synth (silent in the recording), left out; {state['late']} events sent a cycle late", flush=True)
        if out > (b - a) * rate / 4:
            print("INCONCLUSIVE  the server's xruns took more than a quarter of a measured second", flush=True)
            sys.exit(INCONCLUSIVE)
    e4 = 440 * 2 ** ((64 - 69) / 12)
    before, after = zero_crossing_hz(stretches["before"][:, 0]), zero_crossing_hz(stretches["after"][:, 0])
    check(abs(cents(before, e4)) < 0.01, f"member 3's E4 before its bend: {cents(before, e4):+.4f} cent")
    moved = cents(after, before)
    check(abs(moved - 200) < 0.01, f"member 3's own bend (RPN 0 = 4, +4096): E4 moved {moved:.4f} cents (200)")
    c4, g4 = 440 * 2 ** (-9 / 12), 440 * 2 ** (-2 / 12)
    was = peaks_hz(stretches["before"][:, 1], (c4, g4))
    now = peaks_hz(stretches["after"][:, 1], (c4, g4))
    for name, a, b in (("C4", was[0], now[0]), ("G4", was[1], now[1])):
        check(abs(cents(b, a)) < 0.01, f"{name} on members 2 and 4 stays put: {cents(b, a):+.5f} cent")
sys.exit(1 if check.failures else 0)
