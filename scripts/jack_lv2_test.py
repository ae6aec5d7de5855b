#!/usr/bin/env python3
"""boop.lv2 hosted by jalv on the running JACK server, checked on the frame clock.

    jack_lv2_test.py LV2_DIR     (the folder holding boop.lv2; JACK_DEFAULT_SERVER names the server)

jalv loads the plugin from LV2_DIR (LV2_PATH) as the JACK client `boop-lv2`, its channel 1 voice
set to the pure sine (-c voice=3), and its state from a folder of the test's own (-l): a tuning of
19 equal steps an octave with A4 = 440 Hz on key 69 (boop#scl and boop#kbm, paths relative to the
state, as a host saves them). Checks: its ports appear (midi_in, out_1, out_2); jalv reports
the plugin's latency port on them; two test clients on the same clock (`boop-lv2-send` writes
MIDI into boop-lv2:midi_in at random offsets within periods, `boop-lv2-rec` records out_1 and
out_2) find every A4 note starting that reported latency plus one frame after its event (the
envelope's first sample is 0), jitter 0; keys 48, 69 and 84 within 0.01 cent of the tuning's
Scala arithmetic, 440 x 2^((key - 69)/19) (least-squares sine fit); out_1 equal to out_2 (the
voices are centred); SIGTERM ends jalv with status 0. Then jalv loads a state whose scale makes no
tuning: the plugin says so through jalv's log (log:Error, printed as "error: ...") and runs on.
Prints PASS/FAIL lines; exits 1 on a failure, 75 when the server's xruns left too few notes.
"""
import os
import random
import re
import signal
import subprocess
import sys
import tempfile

import jack
import numpy as np
from jack_test_lib import INCONCLUSIVE, Checks, ServerFaults, send_plan, wait_until

URI = "https://github.com/pixelboop/pixelboop-linux/lv2/boop"
LV2_DIR = os.path.abspath(sys.argv[1])
check = Checks()


def fit_hz(x, rate, guess):
    """Least-squares sinusoid fit (Gauss-Newton on frequency), as Tests/.../ToneFit.hpp."""
    t = np.arange(len(x), dtype=np.float64) - (len(x) - 1) / 2
    w = 2 * np.pi * guess / rate
    a = b = 0.0
    for it in range(12):
        c, s = np.cos(w * t), np.sin(w * t)
        cols = [c, s, np.ones_like(t)] + ([t * (-a * s + b * c)] if it else [])
        sol = np.linalg.lstsq(np.stack(cols, axis=1), x, rcond=None)[0]
        a, b = sol[0], sol[1]
        if it:
            w += sol[3]
            if abs(sol[3]) < 1e-13 * w:
                break
    return w * rate / (2 * np.pi)


def port_latency(port):
    """The largest latency jack_lsp -l gives for a port (playback or capture), in frames."""
    out = subprocess.run(["jack_lsp", "-l", port], capture_output=True, text=True, timeout=30).stdout
    values = [int(v) for lo_hi in re.findall(r"latency = \[ (\d+) (\d+) \]", out) for v in lo_hi]
    return max(values, default=None)


def state_folder():
    """A saved state as a host writes one (manifest.ttl, state.ttl) with the tuning's files beside
    it, named by paths relative to the state."""
    folder = tempfile.TemporaryDirectory()
    files = {
        "19edo.scl": "! 19edo.scl\n19-tone equal temperament\n19\n"
        + "".join(f"{1200 * i / 19:.10f}\n" for i in range(1, 19)) + "2/1\n",
        "a440.kbm": "! a440.kbm: A4 = 440 Hz on key 69, consecutive keys\n0\n0\n127\n60\n69\n440.0\n19\n",
        "manifest.ttl": "@prefix lv2: <http://lv2plug.in/ns/lv2core#> .\n@prefix pset: <http://lv2plug.in/ns/ext/presets#> .\n"
        f"@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n<state.ttl> a pset:Preset ; lv2:appliesTo <{URI}> ; "
        "rdfs:seeAlso <state.ttl> .\n",
        "state.ttl": "@prefix lv2: <http://lv2plug.in/ns/lv2core#> .\n@prefix pset: <http://lv2plug.in/ns/ext/presets#> .\n"
        f"@prefix state: <http://lv2plug.in/ns/ext/state#> .\n<> a pset:Preset ; lv2:appliesTo <{URI}> ;\n"
        f"  state:state [ <{URI}#scl> <19edo.scl> ; <{URI}#kbm> <a440.kbm> ] .\n",
    }
    for name, text in files.items():
        with open(os.path.join(folder.name, name), "w") as f:
            f.write(text)
    return folder


log = tempfile.TemporaryFile("w+")
tuning = state_folder()
env = dict(os.environ, LV2_PATH=LV2_DIR + ":/usr/lib/lv2")
# stdin stays open (jalv's console reads commands from it until SIGTERM).
jalv = subprocess.Popen(["jalv", "-x", "-n", "boop-lv2", "-c", "voice=3", "-l", tuning.name, URI], env=env,
                        stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT)
send = jack.Client("boop-lv2-send", no_start_server=True)
rec = jack.Client("boop-lv2-rec", no_start_server=True)
rate, period = send.samplerate, send.blocksize
midi_out = send.midi_outports.register("out")
ins = [rec.inports.register("in_1"), rec.inports.register("in_2")]
faults = ServerFaults(rec)

rng = random.Random(2027)
plan = []


def at(seconds, data):
    frame = int(seconds * rate) // period * period + rng.randrange(period)
    plan.append((frame, bytes(data)))
    return frame


# 32 notes, of which at least A4_JUDGED must be untouched by the server's faults (a loaded
# 2-core machine sees about one untrusted stretch a second).
A4_COUNT, A4_JUDGED = 32, 12
t, a4, tunes = 0.2, [], {}
for i in range(A4_COUNT):
    a4.append(at(t, [0x90, 69, 100]))
    at(t + 0.1, [0x80, 69, 0])
    t += 0.3
for key in (48, 69, 84):
    tunes[key] = at(t, [0x90, key, 100])
    at(t + 0.6, [0x80, key, 0])
    t += 0.8
plan.sort(key=lambda e: e[0])
total = int((t + 0.3) * rate) + period
recording = np.zeros((2, total), dtype=np.float32)
state = {"start": None, "last": 0}
send_plan(send, midi_out, plan, state)


@rec.set_process_callback
def on_record(frames):
    faults.cycle(frames)
    if state["start"] is None:
        return
    pos = rec.last_frame_time - state["start"]
    if 0 <= pos and pos + frames <= total:
        for c in range(2):
            recording[c, pos:pos + frames] = ins[c].get_array()
    state["last"] = pos + frames


def play():
    with send, rec:
        names = lambda: [p.name for p in send.get_ports()]  # noqa: E731
        want = ["boop-lv2:midi_in", "boop-lv2:out_1", "boop-lv2:out_2"]
        wait_until("jalv's ports", 60, lambda: all(p in names() for p in want) or jalv.poll() is not None)
        check(jalv.poll() is None, "jalv loads boop.lv2: ports " + ", ".join(want))
        if jalv.poll() is not None:
            return None
        # jalv registers its ports before it activates its client (and loads the state between):
        # until then a connection is refused.
        def connected():
            try:
                send.connect(midi_out, "boop-lv2:midi_in")
                return True
            except jack.JackError:
                return False

        wait_until("jalv's client to take connections", 30, connected)
        for c in range(2):
            rec.connect(f"boop-lv2:out_{c + 1}", ins[c])
        latency = port_latency("boop-lv2:out_1")
        state["start"] = send.frame_time + rate // 2
        wait_until("the plan to be played and recorded", 60 + t * 4, lambda: state["last"] >= total)
        return latency


try:
    lat = play()
    jalv.send_signal(signal.SIGTERM)
    try:
        rc = jalv.wait(20)
    except subprocess.TimeoutExpired:
        rc = "hang"
finally:
    if jalv.poll() is None:
        jalv.kill()
if lat is None:
    log.seek(0)
    sys.exit("FAIL  jalv exited: " + log.read())
check(lat is not None and 0 < lat < 0.01 * rate, f"jalv reports the plugin's latency port on its JACK ports: {lat} frames")
lat = lat or 0
start = state["start"]
judged = [f for f in a4 if not faults.touches(start + f - period, start + f + lat + 4 * period)]
x = recording[0].astype(np.float64)
delays = []
for f in judged:
    nz = np.flatnonzero(x[f - period:f + 4800])
    delays.append(int(nz[0]) - period if len(nz) else None)
print(f"note: {faults.summary()}; {len(judged)} of {A4_COUNT} A4 notes judged", flush=True)
ok = bool(delays) and None not in delays and set(delays) == {lat + 1}
if ok and len(judged) < A4_JUDGED:
    print(f"INCONCLUSIVE  the server's xruns touched {A4_COUNT - len(judged)} of the {A4_COUNT} notes", flush=True)
    sys.exit(INCONCLUSIVE)
check(ok and len(judged) >= A4_JUDGED, f"period {period}: {len(judged)} A4 notes at random offsets start "
      f"{sorted(set(map(str, delays)))} frames after their events: the reported {lat} + 1, jitter "
      f"{max(delays) - min(delays) if delays and None not in delays else '?'} frames")
for key, f in tunes.items():
    if faults.touches(start + f, start + f + int(0.6 * rate)):
        print(f"note: key {key} touched by an xrun, not judged", flush=True)
        continue
    want = 440.0 * 2 ** ((key - 69) / 19)  # the state's tuning
    hz = fit_hz(x[f + lat + int(0.1 * rate):f + lat + int(0.5 * rate)], rate, want)
    cents = 1200 * np.log2(hz / want)
    check(abs(cents) < 0.01, f"key {key}: {hz:.6f} Hz, {cents:+.6f} cent")
# Equal wherever the server's faults left the recording alone (a client late in an xrun's cycle
# may be read half written).
trusted = np.ones(total, dtype=bool)
for lo, hi in faults.untrusted():
    trusted[max(0, lo - start - lat):max(0, hi - start + period)] = False
check(np.array_equal(recording[0][trusted], recording[1][trusted]),
      f"out_1 and out_2 carry the same signal (centred voices; {np.count_nonzero(trusted)} of {total} frames judged)")
check(rc == 0, f"jalv ends on SIGTERM with status {rc}")


def bad_scale_state():
    """jalv (the host's log) and boop.lv2 restored from a state whose scale file is no scale."""
    folder = state_folder()
    bad = os.path.join(folder.name, "19edo.scl")
    with open(bad, "w") as f:
        f.write("! 19edo.scl\nnot a scale\nseven\n")
    out = tempfile.TemporaryFile("w+")
    proc = subprocess.Popen(["jalv", "-x", "-n", "boop-lv2-bad", "-l", folder.name, URI], env=env,
                            stdin=subprocess.PIPE, stdout=out, stderr=subprocess.STDOUT)
    want = f"error: boop.lv2: tuning not changed: {bad}: line 3:"

    def said():
        out.seek(0)
        return want in out.read() or proc.poll() is not None

    try:
        wait_until("jalv to restore the state with a bad scale", 60, said)
        running = proc.poll() is None
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
    out.seek(0)
    line = next((t for t in out.read().splitlines() if t.startswith("error: boop.lv2")), "no error line")
    check(running and line.startswith(want),
          f"a state whose scale is no scale: jalv runs boop.lv2 and prints its log:Error: {line}")


bad_scale_state()
sys.exit(1 if check.failures else 0)
