#!/usr/bin/env python3
"""Plays `boop synth --backend jack` as a musician's DAW would and checks it on the frame clock.

    jack_synth_test.py BOOP [--quick]     (JACK_DEFAULT_SERVER names the running server)

Two test clients share the server's clock: `boop-send` writes MIDI events into boop:midi_in at
chosen frames (random offsets within periods), `boop-rec` records boop:out_1. Two clients rather
than one, so the graph has no cycle (send -> boop -> rec) and all three run in the same cycle:
a frame recorded is the frame an event was written at. Checks: A4 notes (32; at least 12 untouched by xruns) all start the same
number of frames after their events, the latency boop:out_1 reports (the output stage's
look-ahead) and at most one frame more (the envelope's first sample is zero), and --record's file: in the quick run a .mid whose note-ons are on their frames, in
the full one a WAV equal to the recorded output. With --quick nothing more. Otherwise also C3...C6 within 0.5 cent, CC 7 on a held note
(the curve's level, no step), channels 2, 3 and 10
sound, the sustain pedal holds a released note, all notes off releases every key, random bytes
leave it playing, and SIGTERM ends it with status 0. Prints PASS/FAIL lines; exits 1 on a failure.
"""
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

import jack
import numpy as np
from jack_test_lib import INCONCLUSIVE, Checks, ServerFaults, send_plan, wait_until  # noqa: E402

BOOP = sys.argv[1]
QUICK = "--quick" in sys.argv
check = Checks()


# -v prints every event: to a file, so that a full pipe never blocks boop's control thread.
log = tempfile.TemporaryFile("w+")
# --record: the MIDI in the quick run, the audio in the full one.
workdir = tempfile.TemporaryDirectory()
record_path = os.path.join(workdir.name, "take.mid" if QUICK else "take.wav")
boop = subprocess.Popen(
    [BOOP, "synth", "--backend", "jack", "--no-connect", "--no-display", "-v", "--record", record_path],
    stdout=subprocess.DEVNULL, stderr=log, text=True)
send = jack.Client("boop-send", no_start_server=True)
rec = jack.Client("boop-rec", no_start_server=True)
rate, period = send.samplerate, send.blocksize
midi_out = send.midi_outports.register("out")
audio_in = rec.inports.register("in")
# The server's xruns and the recorder's irregular cycles: a note they touched is not judged.
faults = ServerFaults(rec)

def capture_latency(port):
    """(min, max) of a port's capture latency in frames, as `jack_lsp -l` prints it."""
    out = subprocess.run(["jack_lsp", "-l", port], capture_output=True, text=True, timeout=30).stdout
    for line in out.splitlines():
        if "port capture latency" in line:
            lo, hi = line.split("[")[1].split("]")[0].split()
            return int(lo), int(hi)
    return None, None


# The plan: (seconds after the start, bytes); frames are chosen below, each at a random offset
# within its period.
rng = random.Random(2026)
plan, marks = [], {}


def at(seconds, data, mark=None):
    base = int(seconds * rate) // period * period
    frame = base + rng.randrange(period)
    plan.append((frame, bytes(data)))
    if mark is not None:
        marks[mark] = frame
    return frame


# 32 notes, of which at least A4_JUDGED must be untouched by the server's faults: on a loaded
# 2-core machine a run sees about one untrusted stretch a second, and each costs one note.
A4_COUNT, A4_JUDGED = 32, 12
t = 0.2
a4 = []
a4_off = []
for i in range(A4_COUNT):
    a4.append(at(t, [0x90, 69, 100]))
    a4_off.append(at(t + 0.1, [0x80, 69, 0]))
    t += 0.35
if not QUICK:
    for key in (48, 55, 60, 67, 72, 84):  # C3 G3 C4 G4 C5 C6
        at(t, [0x90, key, 100], ("tune", key))
        at(t + 0.6, [0x80, key, 0])
        t += 0.8
    at(t, [0x90, 69, 100])
    at(t + 0.5, [0xB0, 7, 50], "volume")
    at(t + 1.0, [0x80, 69, 0])
    at(t + 1.3, [0xB0, 7, 100])
    t += 1.5
    for ch, key in ((1, 60), (2, 36), (9, 38)):
        at(t, [0x90 | ch, key, 100], ("channel", ch + 1))
        at(t + 0.3, [0x80 | ch, key, 0])
        t += 0.6
    at(t, [0xB0, 64, 127])
    at(t + 0.01, [0x90, 64, 100], "pedal-on")
    at(t + 0.15, [0x80, 64, 0], "pedal-released-note")
    at(t + 0.9, [0xB0, 64, 0], "pedal-up")
    t += 1.4
    for key in (60, 64, 67):
        at(t, [0x90, key, 110])
    at(t + 0.3, [0xB0, 123, 0], "all-notes-off")
    t += 0.8
    for k in range(200):  # random bytes, ten to an event
        at(t + k * 0.002, [rng.randrange(256) for _ in range(10)])
    t += 0.5
    for ch in range(16):
        at(t, [0xB0 | ch, 120, 0])
        at(t, [0xB0 | ch, 121, 0])
    at(t + 0.2, [0x90, 69, 100], "after-garbage")
    at(t + 0.5, [0x80, 69, 0])
    t += 1.0
plan.sort(key=lambda e: e[0])
total = int((t + 0.5) * rate) + period
recording = np.zeros(total, dtype=np.float32)
got = np.zeros(total, dtype=bool)  # the frames the test client did record
state = {"start": None, "next": 0, "recorded": 0, "last": 0}


send_plan(send, midi_out, plan, state)


@rec.set_process_callback
def on_record(frames):
    faults.cycle(frames)
    start = state["start"]
    if start is None:
        return
    pos = rec.last_frame_time - start
    if 0 <= pos and pos + frames <= total:
        recording[pos:pos + frames] = audio_in.get_array()
        got[pos:pos + frames] = True
        state["recorded"] += frames
    state["last"] = pos + frames


try:
    with send, rec:
        ports = lambda: [p.name for p in send.get_ports()]
        wait_until("boop:midi_in to appear", 60, lambda: "boop:midi_in" in ports() or boop.poll() is not None)
        if boop.poll() is not None:
            log.seek(0)
            raise SystemExit("FAIL  boop synth exited at once: " + log.read())
        # boop registers midi_in once active: connecting works at once (a refusal is a failure).
        send.connect(midi_out, "boop:midi_in")
        rec.connect("boop:out_1", audio_in)
        # The output stage's look-ahead, as boop reports it: out_1's capture latency (midi_in's,
        # from the test's sender, is 0). JACK-Client has no call for it: jackd2's jack_lsp says it.
        state["latency"] = capture_latency("boop:out_1")
        state["start"] = send.frame_time + rate // 2
        wait_until("the plan to be played and recorded", 60 + t * 4, lambda: state["last"] >= total)
        alive = boop.poll() is None
        boop.send_signal(signal.SIGTERM)
        try:
            rc = boop.wait(20)
        except subprocess.TimeoutExpired:
            boop.kill()
            rc = "hang"
finally:
    if boop.poll() is None:
        boop.kill()
log.seek(0)
err = log.read()
x = recording.astype(np.float64)
# A cycle the recorder missed (the test client itself late on a loaded machine) leaves zeros:
# said, since the checks of that stretch cannot hold.
missed = total - state["recorded"]
if missed:
    print(f"note: the test recorder missed {missed} frames (its own xruns)", flush=True)

# 1. Latency and jitter: the first non-zero sample after each event (the silence before it is
# exact: the previous note's voice retired), against the latency boop reports for out_1: the
# output stage's look-ahead, plus at most one frame (the envelope's first sample is 0).
lat_min, lat_max = state.get("latency", (None, None))
check(lat_min is not None and lat_min == lat_max and 0 < lat_min < 0.01 * rate,
      f"boop:out_1 reports a capture latency of {lat_min}...{lat_max} frames (the output stage's look-ahead)")
lat = lat_max or 0
start_frame = state["start"] or 0


def touched(lo, hi):
    """Whether the server's faults touched the plan's frames [lo, hi]."""
    return faults.touches(start_frame + lo, start_frame + hi)


# Only the notes whose stretch no xrun touched are judged: from a period before the previous A4's
# note-off (a cycle the server skipped loses the MIDI sent in it, and a lost note-off leaves the
# previous note sounding into this one's window) to a few periods after the onset: a skipped or
# mis-stamped cycle there moves the note on the recording, not in boop. At least A4_JUDGED of them
# must be judged, else the run is inconclusive (run again).
judged = [i for i, f in enumerate(a4) if not touched((a4_off[i - 1] if i else f) - period, f + lat + 4 * period)]
delays = []
for i in judged:
    f = a4[i]
    nz = np.flatnonzero(x[f - period:f + 4800])
    delays.append(int(nz[0]) - period if len(nz) else None)
print(f"note: {faults.summary()}; {len(judged)} of {A4_COUNT} A4 notes judged", flush=True)
ok = bool(delays) and None not in delays and len(set(delays)) == 1 and 0 <= delays[0] - lat <= 1
if ok and len(judged) < A4_JUDGED:
    print(f"INCONCLUSIVE  the server's xruns touched {A4_COUNT - len(judged)} of the {A4_COUNT} A4 notes (at least "
          f"{A4_JUDGED} must be "
          f"judged); the {len(judged)} judged start alike", flush=True)
    sys.exit(INCONCLUSIVE)
check(ok and len(judged) >= A4_JUDGED,
      f"period {period}: {len(judged)} of {A4_COUNT} A4 notes at random offsets (those no xrun touched) start "
      f"{sorted(set(map(str, delays)))} frames after their events: the reported {lat} + "
      f"{delays[0] - lat if delays and None not in delays else '?'} "
      f"(jitter {max(delays) - min(delays) if delays and None not in delays else '?'} frames; the envelope's first sample is 0)")
# From here on the output is read on the events' frames: shifted back by the reported latency.
x = np.concatenate((x[lat:], np.zeros(lat)))
got_x = np.concatenate((got[lat:], np.zeros(lat, dtype=bool)))  # recorded frames, as x
# Frames the server's faults touched (as events, or as the output they made) count as not recorded.
for lo, hi in faults.untrusted():
    got_x[max(0, lo - start_frame - lat):max(0, hi - start_frame)] = False


def check_recorded_midi():
    # The note-ons' ticks against their frames, each counted from the first note (the file
    # starts at boop's first cycle, which the test does not know): a tick is 1/1920 s, so each
    # is round(frames / rate * 1920) from the first, within one tick (both ends rounded).
    data = open(record_path, "rb").read() if os.path.exists(record_path) else b""
    ticks, pos, tick, running = [], 22, 0, 0
    ok = data[:4] == b"MThd" and data[14:18] == b"MTrk" and int.from_bytes(data[12:14], "big") == 960
    while ok and pos < len(data):
        delta = 0
        while True:
            b = data[pos]
            pos += 1
            delta = delta << 7 | (b & 0x7F)
            if b < 0x80:
                break
        tick += delta
        status = data[pos]
        if status == 0xFF:
            pos += 3 + data[pos + 2]
            continue
        pos += 1 + (2 if status & 0xF0 not in (0xC0, 0xD0) else 1)
        if status == 0x90 and data[pos - 1] > 0:
            ticks.append(tick)
    # The notes judged above (no xrun near them) are judged here too: the file's clock starts at
    # boop's first cycle, which the test does not know, so the offset that puts the most judged
    # notes within a tick of a note-on is taken, and each judged note must then have one there.
    want = [round((f - a4[0]) / rate * 1920) for f in a4]
    near = lambda t0, i: min((abs(t - t0 - want[i]) for t in ticks), default=99)  # noqa: E731
    t0 = max((t - want[i] for t in ticks for i in judged), key=lambda c: sum(near(c, i) <= 1 for i in judged),
             default=0)
    worst = max((near(t0, i) for i in judged), default=99)
    check(ok and len(judged) <= len(ticks) <= A4_COUNT and worst <= 1,
          f"--record take.mid: {len(ticks)} note-ons, the {len(judged)} judged each within {worst} tick of its "
          f"frame (1 tick = 1/1920 s)")


def check_recorded_audio():
    # The WAV (32-bit float) holds boop's output samples themselves: out_1 is its left channel,
    # equal to what the test client recorded, frame for frame, once aligned on the first note.
    # (Read by hand: Python's wave module takes PCM only.)
    data = open(record_path, "rb").read() if os.path.exists(record_path) else b""
    at = data.find(b"data")
    if data[:4] != b"RIFF" or at < 0:
        check(False, f"--record take.wav: no WAV file ({len(data)} bytes)")
        return
    size = int.from_bytes(data[at + 4:at + 8], "little")
    left = np.frombuffer(data[at + 8:at + 8 + size], dtype="<f4").reshape(-1, 2)[:, 0]
    a, b = np.flatnonzero(recording)[0], np.flatnonzero(left)[0]
    offset = b - a
    # Each stretch the test client recorded without a gap is found in the file, bit for bit, at
    # the offset of the stretch before or near it: where boop or the client missed cycles (xruns
    # on a loaded machine) the two time lines may part by whole cycles, so each stretch is placed
    # on its own, within 8 periods of the last one.
    # The frames the server's faults touched are left out as the client's own gaps are: a cycle
    # the server skipped for boop is silence in the file and the port's leftovers in the test's
    # recording, so a stretch running through it could not match anywhere.
    trusted = got.copy()
    for lo, hi in faults.untrusted():
        trusted[max(0, lo - start_frame):max(0, hi - start_frame)] = False
    edges = np.flatnonzero(np.diff(np.concatenate(([0], trusted.astype(np.int8), [0]))))
    stretches = [(lo, hi) for lo, hi in zip(edges[::2], edges[1::2]) if hi - lo >= 64]
    matched = frames = 0
    for lo, hi in stretches:
        seg = recording[lo:hi]
        frames += hi - lo
        for d in sorted(range(-8 * period, 8 * period + 1), key=abs):
            o = offset + d
            if 0 <= o + lo and o + hi <= len(left) and np.array_equal(left[o + lo:o + hi], seg):
                matched += hi - lo
                offset = o
                break
    # A stretch holding a cycle boop itself missed (the port then carries what the server left
    # there, the file the silence boop played) cannot match: at most 5 % of the frames, on a
    # machine loaded enough to make boop miss cycles; none on one that is not.
    check(offset >= 0 and frames > total - rate - int((got & ~trusted).sum()) and matched >= 0.95 * frames,
          f"--record take.wav: {len(left)} frames; the {frames} the test client recorded ({len(stretches)} "
          f"stretches) found in it bit for bit: {matched}")


(check_recorded_midi if QUICK else check_recorded_audio)()
left_over = [f for f in os.listdir(workdir.name) if f.startswith(".boop")]
check(not left_over, f"--record leaves no temporary file beside it {left_over}")
if not QUICK:
    check(alive, "boop synth still running after the random bytes")
    check(rc == 0, f"SIGTERM: exit {rc}")

    def zc_hz(a, b):
        # Within the window, the longest stretch the test client did record (a cycle it missed
        # on a loaded machine is zeros, whose crossings are no pitch).
        ok = np.concatenate(([False], got_x[a:b], [False]))
        edges = np.flatnonzero(ok[1:] != ok[:-1])
        runs = list(zip(edges[::2], edges[1::2]))
        lo, hi = max(runs, key=lambda r: r[1] - r[0]) if runs else (0, 0)
        if hi - lo < 0.2 * rate:
            return None
        y = x[a + lo:a + hi]
        s = np.flatnonzero((y[:-1] <= 0) & (y[1:] > 0))
        exact = s + (-y[s]) / (y[s + 1] - y[s])
        return (len(exact) - 1) * rate / (exact[-1] - exact[0])

    worst, tuned = 0.0, []
    for key in (48, 55, 60, 67, 72, 84):
        f = marks[("tune", key)]
        hz = zc_hz(f + int(0.1 * rate), f + int(0.55 * rate))
        if hz is None:
            continue
        tuned.append(key)
        cents = 1200 * np.log2(hz / (440 * 2 ** ((key - 69) / 12)))
        worst = max(worst, abs(cents))
    if len(tuned) < 6:
        print(f"note: {6 - len(tuned)} of the tuning notes not judged: under 0.2 s of them untouched by xruns", flush=True)
    check(worst < 0.5 and len(tuned) >= 4,
          f"C3 G3 C4 G4 C5 C6 in tune ({len(tuned)} judged): worst {worst:.4f} cent")

    def rms(a, b):
        return float(np.sqrt(np.mean(x[a:b] ** 2)))

    # CC 7 from 100 to 50 on a held A4: 0.25 of the level after the ramp (value^2 / 100^2), the
    # level unchanged up to the event's frame, and no step: the largest change between frames
    # during the ramp is no larger than in the steady tone before (a jump would be up to 0.75 of
    # the peak, ten times a 440 Hz sine's largest change between frames). Windows of 12000
    # frames are 110 whole cycles of 440 Hz at 48 kHz, so their RMS has no partial-cycle error.
    v = marks["volume"]
    ramp = round(0.005 * rate)
    before, after = rms(v - 12000, v), rms(v + ramp + 480, v + ramp + 480 + 12000)
    ratio = after / before if before > 0 else 0.0
    step_before = float(np.max(np.abs(np.diff(x[v - 12000:v]))))
    step_ramp = float(np.max(np.abs(np.diff(x[v - 1:v + ramp + 480]))))
    whole = bool(got_x[v - 12000:v + ramp + 480 + 12000].all())
    if not whole:
        print("note: CC 7 not checked: xruns (the test client's or the server's) touched it", flush=True)
    check(not whole or (abs(ratio / 0.25 - 1) < 0.01 and step_ramp <= step_before * 1.01),
          f"CC 7 100 -> 50 on a sounding note: level x{ratio:.4f} (curve 0.25), largest frame-to-frame change "
          f"{step_ramp:.4f} during the ramp, {step_before:.4f} before")
    for ch in (2, 3, 10):
        f = marks[("channel", ch)]
        level = 20 * np.log10(rms(f, f + int(0.25 * rate)) + 1e-12)
        check(level > -50, f"channel {ch} sounds: {level:.1f} dBFS")
    released, up = marks["pedal-released-note"], marks["pedal-up"]
    held = 20 * np.log10(rms(up - int(0.2 * rate), up) + 1e-12)
    after = np.max(np.abs(x[up + int(0.3 * rate):up + int(0.45 * rate)]))
    check(held > -40 and after < 1e-4,
          f"sustain pedal: the released note sounds {held:.1f} dBFS until the pedal lifts, then {after:.1e}")
    off = marks["all-notes-off"]
    # CC 123 is a note-off for each key (MIDI 1.0): the notes end with their release (0.15 s at most).
    tail = np.max(np.abs(x[off + int(0.2 * rate):off + int(0.45 * rate)]))
    check(tail < 1e-4, f"all notes off (CC 123): peak {tail:.1e} from 200 ms after it, the releases over")
    g = marks["after-garbage"]
    nz = np.flatnonzero(x[g - period:g + 4800])
    if touched(g - period, g + lat + 4 * period):
        print("note: the note after the random bytes not timed: an xrun touched it", flush=True)
    check(len(nz) > 0 and (touched(g - period, g + lat + 4 * period) or int(nz[0]) - period == delays[0] - lat),
          "after 2000 random bytes a note starts on its frame")
    malformed = [line for line in err.splitlines() if "malformed bytes" in line]
    check(bool(malformed), "-v counts the malformed bytes: " + (malformed[-1] if malformed else err[-300:]))
sys.exit(1 if check.failures else 0)
