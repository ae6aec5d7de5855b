#!/usr/bin/env python3
"""`boop play --backend jack --sync jack` through real server xruns.

    jack_sync_xrun_test.py BOOP [XRUNS] [--audio]   (JACK_DEFAULT_SERVER names the running server)

The transport rolls from frame 0 (no timebase master: the pattern's 120 BPM, a note every second
step); a second test client (the sleeper) sleeps in its process callback for four periods, XRUNS
times (default 4) 1.5 s apart, so the server really xruns while boop follows (XRUN_STOP=SECONDS
stops boop itself with SIGSTOP that long instead: a process that was not scheduled). Each message
of boop:midi_out (--midi-out --clock --no-sound) is recorded with its transport frame, the
recorder's own reading of the transport in the cycle it got it; with --audio, boop plays without
--midi-out and its out_1 is recorded instead, a note's frame being where it first reaches 1/20 of
the peak less the delay the notes before the first xrun had (the output stage's look-ahead and the
attack; every note the same pitch). Step k is due on transport frame floor(k x fps + 0.5). A note
an xrun touched (the server's xrun callback, a cycle the recorder missed, or the sleep, within 8
periods: what was due in the cycles boop did not run comes late, and boop realigns at the next
clean cycle) is left out and counted; every other must be on its frame (0 frames), with at least
4 (--audio: 2) judged in the 1.5 s after each xrun and 60 % of all, so no lasting offset is left.
Before the fix boop without --midi-out kept the cycles it missed as a lasting lag (its notes a
period late after a one-period xrun, until the next move). The MIDI out carries Start once (the run's start) and Stop once
(after the transport stopped): no Stop, Song Position or Continue the transport did not make.
Exit 0 on SIGTERM. Prints PASS/FAIL lines; exits 1 on a failure.
"""
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import time

import jack

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jack_test_lib import Checks, ServerFaults, SleepyClient, wait_until  # noqa: E402

BOOP = sys.argv[1]
XRUNS = int(([a for a in sys.argv[2:] if a.isdigit()] or ["4"])[0])
check = Checks()
LENGTH = 16
pattern = {"name": "xrun test", "bpm": 120, "length": LENGTH,
           "tracks": {"melody": [{"step": s, "pitch": 60, "length": 1} for s in range(0, LENGTH, 2)],
                      "chords": [], "bass": [], "rhythm": []}}
work = tempfile.mkdtemp(prefix="boop-sync-xrun.")
path = os.path.join(work, "p.json")
with open(path, "w") as f:
    json.dump(pattern, f)

AUDIO = "--audio" in sys.argv
rec = jack.Client("boop-syncx", no_start_server=True)
rate, period = rec.samplerate, rec.blocksize
fps = rate * 60.0 / (120 * 4.0)
port = rec.midi_inports.register("in")
audio_in = rec.inports.register("audio")
heard = {}  # transport frame of a rolling cycle's start -> its samples (--audio)
trouble = ServerFaults(rec)
got = []  # (transport frame, server frame, bytes) while rolling
other = []  # (server frame, bytes) while not rolling


@rec.set_process_callback
def on_process(frames):
    base = rec.last_frame_time
    trouble.cycle(frames)
    state, pos = rec.transport_query()
    if AUDIO and state == jack.ROLLING:
        heard[pos["frame"]] = (base, audio_in.get_array().copy())
    for offset, data in port.incoming_midi_events():
        if state == jack.ROLLING:
            got.append((pos["frame"] + offset, base + offset, bytes(data)))
        else:
            other.append((base + offset, bytes(data)))


sleeper = SleepyClient("boop-syncx-sleeper")

with rec, sleeper.client:
    rec.transport_stop()
    rec.transport_locate(0)
    err = open(os.path.join(work, "err"), "w+")
    how = ["--no-connect"] if AUDIO else ["--midi-out", "--clock", "--no-sound", "--midi-connect", "boop-syncx:in"]
    boop = subprocess.Popen([BOOP, "play", path, "--backend", "jack", "--sync", "jack", "--no-display"] + how,
                            stdout=subprocess.DEVNULL, stderr=err)
    if AUDIO:
        def connected():  # once boop's client is active
            try:
                rec.connect("boop:out_1", audio_in)
            except jack.JackError:
                return False
            return True
        wait_until("boop:out_1 to take a connection", 60, lambda: boop.poll() is not None or connected())
    wait_until("boop to be connected to boop-syncx", 60,
               lambda: boop.poll() is not None or any(p.name.startswith("boop:") for p in
                                                     rec.get_all_connections(audio_in if AUDIO else port)))
    rec.transport_start()
    wait_until("the first notes", 60, lambda: len(heard) * period > 2 * rate if AUDIO else
               len([g for g in got if g[2][0] == 0x90]) >= 4)
    slept = []  # server frames where the sleeper began each sleep
    for _ in range(XRUNS):
        if os.environ.get("XRUN_STOP"):
            slept.append(rec.frame_time)
            boop.send_signal(signal.SIGSTOP)
            time.sleep(float(os.environ["XRUN_STOP"]))
            boop.send_signal(signal.SIGCONT)
        else:
            slept.append(sleeper.sleep(4 * period / rate))
        # 1.5 s between: notes after each xrun to judge.
        t = rec.frame_time
        wait_until("1.5 s after the xrun", 60, lambda: rec.frame_time > t + 1.5 * rate)
    rec.transport_stop()
    t = rec.frame_time
    wait_until("boop's Stop", 60, lambda: any(d[0] == 0xFC for _, d in other) or rec.frame_time > t + 5 * rate)
    boop.send_signal(signal.SIGTERM)
    try:
        rc = boop.wait(20)
    except subprocess.TimeoutExpired:
        boop.kill()
        rc = "hang"
    err.seek(0)
    check(rc == 0, f"SIGTERM: exit {rc} {err.read().strip()}")



def audio_onsets():
    """The note-ons heard on out_1, as (transport frame, server frame, note-on) with the frame
    less the constant delay to the first sample past 1/20 of the peak (the output stage's look-ahead
    and the attack): the delay is the most common one before the first xrun."""
    import numpy
    first, last = min(heard), max(heard) + period
    x = numpy.full(last - first, numpy.nan)
    base = {}
    for t, (s, a) in heard.items():
        x[t - first:t - first + len(a)] = a
        base[t] = s
    thr = numpy.nanmax(numpy.abs(x)) / 20
    found = []
    for k in range(1, int((last - first) / fps)):
        want = math.floor(k * fps + 0.5)
        if k % 2 or want - first < fps / 2 or want - first + fps / 2 > len(x):
            continue
        w = x[want - first - int(fps / 2):want - first + int(fps / 2)]
        if numpy.isnan(w).any():
            continue
        i = int(numpy.argmax(numpy.abs(w) > thr))
        found.append((want, want - int(fps / 2) + i))
    cyc = sorted(base)
    server = lambda t: base[max(c for c in cyc if c <= t)] + t - max(c for c in cyc if c <= t)
    early = [f - w for w, f in found if server(f) < slept[0] - 8 * period] or [f - w for w, f in found]
    delay = max(set(early), key=early.count)
    print(f"note: {len(found)} onsets heard, {delay} frames after their steps (the most common)", flush=True)
    return [(f - delay, server(f), bytes([0x90, 60, 96])) for w, f in found]


print(f"note: {trouble.summary()}; the sleeper slept at server frames {slept}", flush=True)
check(len(trouble.reports) + len(trouble.steps()) > 0, "the sleeper made the server xrun")
# Judged: the note-ons more than 8 periods from every xrun, sleep and missed cycle.
margin = 8 * period
near = lambda s: trouble.touches(s - margin, s + margin) or any(abs(s - z) < margin + 4 * period for z in slept)
ons = [(t, s, d) for t, s, d in got if d[0] == 0x90] if not AUDIO else audio_onsets()
judged = [(t, s, d) for t, s, d in ons if not near(s)]
wrong = []
for t, s, d in judged:
    k = round(t / fps)
    want = math.floor(k * fps + 0.5)
    if t != want or d[1] != 60:
        wrong.append((t - want, k, s))
check(not wrong, f"{len(judged)} of {len(ons)} note-ons judged (the rest within {margin} frames of an xrun), "
      f"each on its step's transport frame" + (f"; off (frames, step, server frame): {wrong[:6]}" if wrong else ""))
after = [sum(1 for _, s, _ in judged if z < s < z + 1.5 * rate) for z in slept]
least = 2 if AUDIO else 4
check(all(n >= least for n in after) and len(judged) >= 0.6 * len(ons),
      f"note-ons judged in the 1.5 s after each xrun: {after} (at least {least} each, 60 % of all)")
real = [(s, d) for _, s, d in got if d[0] in (0xFA, 0xFB, 0xFC, 0xF2)] + [(s, d) for s, d in other if d[0] in (0xFA, 0xFB, 0xFC, 0xF2)]
kinds = [d[0] for _, d in sorted(real)]
check(AUDIO or kinds == [0xFA, 0xFC], "Start once when the transport rolled and Stop once when it stopped, nothing between: "
      + " ".join(f"{k:02X}" for k in kinds))
sys.exit(1 if check.failures else 0)
