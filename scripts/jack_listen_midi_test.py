#!/usr/bin/env python3
"""`boop listen --midi-out --backend jack`: a simulated singer (scripts/transcribe-test.py's melodies,
scripts/voice_synth.py's voice: vibrato, a scooped onset, jitter, breath, 20 dB SNR noise) sung into
boop-listen:in_1, its MIDI recorded on the frame clock and played by `boop synth`.

    jack_listen_midi_test.py BOOP [--sessions 2] [--seed 1] [--mpe] [--all]   (JACK_DEFAULT_SERVER: the server)

--mpe: listen --mpe (each note on the next member channel; the synth follows the MCM). --all: judge
every note, the server's faults or not, and print each (to look, not to test).

Clients: `boop-sing` writes the voice into boop-listen:in_1, `boop-hear` records boop-listen:midi_out
and `boop synth`'s out_1 (`boop synth` plays the same MIDI). No cycle in the graph: all run in the
same cycle, so a frame recorded is a frame sung. Checks on every note the server's faults did not
touch: one note-on per sung note (none where nothing was sung), its key the sung note's or (a scoop
still under way when the note was decided) a semitone below it with the bend carrying it up, the
sounding pitch (key + bend) in the held part within 50 cents of the sung one, the note-on within
25 ms of the sung onset (the distribution printed), a note-off for every note-on, and the synth's
sound in the held part at the sung pitch. Exits 1 on a failure, 75 when the faults left too little
to judge.
"""
import argparse
import atexit
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter

import jack
import numpy as np
from scipy.signal import resample_poly

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import voice_synth as vs  # noqa: E402
from jack_test_lib import INCONCLUSIVE, Checks, ServerFaults, wait_until  # noqa: E402


ap = argparse.ArgumentParser()
ap.add_argument("boop")
ap.add_argument("--sessions", type=int, default=2)
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--mpe", action="store_true", help="listen --mpe: each note on the next member channel")
ap.add_argument("--all", action="store_true", help="judge every note, the server's faults or not (to look)")
ap.add_argument("--settle", type=float, default=0, help="listen --settle MS: every key the sung one, the note-on MS later")
args = ap.parse_args()
check = Checks()
# --settle counts voiced estimates: a dropout early in a note (the breath, the scoop) delays it.
GOAL_MS, LIMIT_MS = 25.0 + args.settle, 40.0 + 1.25 * args.settle


def sing(notes, bpm, rng, rate):
    """transcribe-test's singer, keeping each note's true start and end: (signal at `rate`, notes as
    (start s, end s, midi))."""
    step_s = 60 / bpm / 4
    total = int((64 * step_s + 0.5) * vs.RATE)
    y, voiced, sung = np.zeros(total), np.zeros(total, dtype=bool), []
    for i, (step, midi, length, legato) in enumerate(notes):
        nxt = notes[i + 1][0] if i + 1 < len(notes) else None
        start = max(0.0, step * step_s + rng.uniform(-0.02, 0.02))
        end = (step + length) * step_s
        end = end + 0.01 if legato and nxt == step + length else end - 0.05
        seconds = max(0.09, end - start)
        sig, _ = vs.note(440 * 2 ** ((midi - 69) / 12), seconds, rng, vowel=str(rng.choice(list(vs.VOWELS))),
                         vibrato_cents=float(rng.uniform(30, 50)), scoop_cents=float(rng.uniform(-150, -50)),
                         scoop_ms=float(rng.uniform(30, 60)))
        a = int(start * vs.RATE)
        y[a:a + len(sig)] += sig[:total - a]
        voiced[a:a + len(sig)] = True
        sung.append((a / vs.RATE, (a + len(sig)) / vs.RATE, midi))
    y = vs.add_noise(y, 20, rng, voiced)
    return resample_poly(y, int(rate), vs.RATE).astype(np.float32), sung


rate = 48000
takes, offset = [], 0.5
for s in range(args.sessions):
    rng = np.random.default_rng(args.seed + s)
    bpm = 120.0
    y, sung = sing(vs.melody(rng, bpm), bpm, rng, rate)
    takes.append((offset, y, sung))
    offset += len(y) / rate + 0.3
signal_all = np.zeros(int((offset + 0.5) * rate), dtype=np.float32)
truth = []
for at, y, sung in takes:
    a = int(at * rate)
    signal_all[a:a + len(y)] = y
    truth += [(at + s0, at + s1, m) for s0, s1, m in sung]

log = tempfile.TemporaryFile("w+")
out = tempfile.TemporaryFile("w+")
sing_c = jack.Client("boop-sing", no_start_server=True)
hear = jack.Client("boop-hear", no_start_server=True)
assert sing_c.samplerate == rate, f"the server runs at {sing_c.samplerate} Hz; this test sings at {rate}"
voice_out = sing_c.outports.register("out")
midi_in = hear.midi_inports.register("in")
synth_in = hear.inports.register("synth")
# 40 ms before an xrun's report (at least 8 periods): the dummy server at 64-frame periods on a busy
# machine reports several a second, and the default 100 ms would leave nothing to judge.
faults = ServerFaults(hear, margin=0.04)
state = {"start": None, "pos": 0}
events, recorded = [], np.zeros(len(signal_all) + rate, dtype=np.float32)


@sing_c.set_process_callback
def on_sing(frames):
    buf = voice_out.get_array()
    buf[:] = 0
    if state["start"] is None:
        return
    now = sing_c.last_frame_time - state["start"]
    lo, hi = max(0, now), min(len(signal_all), now + frames)
    if hi > lo:
        buf[lo - now:hi - now] = signal_all[lo:hi]


@hear.set_process_callback
def on_hear(frames):
    faults.cycle(frames)
    t = hear.last_frame_time
    for offset_, data in midi_in.incoming_midi_events():
        events.append((t + offset_, bytes(data)))
    if state["start"] is not None:
        now = t - state["start"]
        lo, hi = max(0, now), min(len(recorded), now + frames)
        if hi > lo:
            recorded[lo:hi] = synth_in.get_array()[lo - now:hi - now]


def finish(code):
    running = [p for p in (listen, synth) if p is not None]
    for p in running:
        if p.poll() is None:
            p.send_signal(signal.SIGINT)
    for p in running:
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
    sys.exit(code)


synth = listen = None


@atexit.register
def no_leftovers():
    """Whatever ended the script (a failure, an exception), neither boop outlives it."""
    for p in (listen, synth):
        if p is not None and p.poll() is None:
            p.kill()
            p.wait()


try:
    with sing_c, hear:
        synth = subprocess.Popen([args.boop, "synth", "--backend", "jack", "--no-connect", "--no-display", "--name",
                                  "boop-lsynth"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until("boop-lsynth's ports", 30, lambda: hear.get_ports("boop-lsynth:midi_in"))
        # Both connected by listen itself, before its first message (the bend range).
        listen = subprocess.Popen([args.boop, "listen", "--backend", "jack", "--no-connect", "--midi-out", "--json", "-v",
                                   "--midi-connect", "boop-lsynth:midi_in", "--midi-connect", "boop-hear:in"]
                                  + (["--mpe"] if args.mpe else []) + (["--settle", str(args.settle)] if args.settle else []),
                                  stdout=out, stderr=log, text=True)
        wait_until("boop-listen's and boop-lsynth's ports", 30,
                   lambda: hear.get_ports("boop-listen:midi_out") and hear.get_ports("boop-lsynth:out_1")
                   and listen.poll() is None)
        for client, a, b in ((sing_c, voice_out, "boop-listen:in_1"), (hear, "boop-lsynth:out_1", synth_in)):
            for attempt in range(50):  # a port appears before its client is active
                try:
                    client.connect(a, b)
                    break
                except jack.JackError:
                    time.sleep(0.1)
        time.sleep(0.3)
        state["start"] = hear.frame_time + int(0.2 * rate)
        time.sleep(0.2 + len(signal_all) / rate + 0.3)
        listen.send_signal(signal.SIGINT)
        rc = listen.wait(timeout=10)
        check(rc == 0, f"listen --midi-out ends on SIGINT with status 0 (got {rc})")
except SystemExit:
    finish(1)

start = state["start"]
log.seek(0)
print("listen -v: " + " | ".join(line.strip() for line in log.read().splitlines()))
print(faults.summary())
ons, offs, bends, channels = [], [], [], []
for f, b in events:
    kind = b[0] & 0xF0
    if kind == 0x90 and b[2] > 0:
        ons.append((f - start, b[1], b[2]))
        channels.append(b[0] & 0x0F)
    elif kind == 0x80 or (kind == 0x90 and b[2] == 0):
        offs.append((f - start, b[1]))
    elif kind == 0xE0:
        bends.append((f - start, ((b[2] << 7) | b[1]) - 8192))
rpn = [list(b) for _, b in events if b[0] & 0xF0 == 0xB0]
if args.mpe:
    members = sorted({b[0] & 0x0F for b in rpn if b[1:] == [6, 2]})
    check(rpn[:3] == [[0xB0, 101, 0], [0xB0, 100, 6], [0xB0, 6, 15]] and members == list(range(1, 16)),
          f"MPE: the Configuration Message (15 members) first, then a bend range of 2 on every member channel {members}")
    check(all(1 <= c <= 15 for c in channels) and all(a != b for a, b in zip(channels, channels[1:])),
          f"MPE: each note-on on the next member channel: {channels[:20]}")
else:
    check(rpn[:4] == [[0xB0, 101, 0], [0xB0, 100, 0], [0xB0, 6, 2], [0xB0, 38, 0]],
          f"the bend range goes first as RPN 0 on channel 1: 2 semitones ({len(rpn)} control changes)")


def held_bend(a, b):
    """The median bend (semitones) over frames [a, b), sampled every 5 ms."""
    values = []
    for t in range(a, b, rate // 200):
        before = [v for f, v in bends if f <= t]
        values.append(before[-1] / 8192 * 2 if before else 0.0)
    return float(np.median(values)) if values else 0.0


def synth_pitch(a, b, near):
    """The strongest frequency of the synth's sound in [a, b) s within 3 semitones of `near` Hz."""
    x = recorded[int(a * rate):int(b * rate)].astype(float)
    if len(x) < 256 or np.max(np.abs(x)) < 1e-4:
        return None
    spec_ = np.abs(np.fft.rfft(x * np.hanning(len(x)), 1 << 18))
    freqs = np.fft.rfftfreq(1 << 18, 1 / rate)
    band = (freqs > near * 2 ** (-3 / 12)) & (freqs < near * 2 ** (3 / 12))
    return freqs[band][np.argmax(spec_[band])]


judged, latencies, keys_exact, keys_below, pitch_ok, synth_ok, held_judged, used = 0, [], 0, 0, 0, 0, 0, set()
wrong = []
for s0, s1, midi in truth:
    a, b = int(s0 * rate), int(s1 * rate)
    # The onset is judged where the server's faults left it alone, the held part likewise.
    if not args.all and faults.touches(start + a - rate // 50, start + a + rate // 10):
        continue
    judged += 1
    cands = [i for i, (f, k, v) in enumerate(ons) if a - 0.01 * rate <= f <= a + LIMIT_MS / 1000 * rate]
    if not cands:
        wrong.append(f"{s0:.3f}s {midi}: no note-on")
        continue
    i = cands[0]
    used.add(i)
    f, key, _ = ons[i]
    latencies.append((f - a) / rate * 1000)
    if args.all:
        print(f"  {s0:7.3f}s sung {midi} -> key {key} after {latencies[-1]:5.1f} ms")
    keys_exact += key == midi
    keys_below += key == midi - 1
    # The held part: past the scoop, before the release.
    # A note too short to have one (its scoop runs up to its release) is judged on its onset only.
    h0, h1 = s0 + 0.1, min(s1 - 0.04, s0 + 0.4)
    if h1 - h0 < 0.03 or (not args.all and faults.touches(start + int(h0 * rate), start + int(h1 * rate))):
        continue
    held_judged += 1
    heard = key + held_bend(int(h0 * rate), int(h1 * rate))
    target = 440 * 2 ** ((midi - 69) / 12)
    if abs(heard - midi) <= 0.5:
        pitch_ok += 1
    else:
        wrong.append(f"{s0:.3f}s {midi}: key {key}, sounding {heard:.2f}")
    mid = (h0 + h1) / 2
    got = synth_pitch(mid - 0.04, mid + 0.04, target)
    if got is not None and abs(1200 * np.log2(got / target)) <= 50:
        synth_ok += 1
if judged < 0.5 * len(truth) or held_judged < 0.3 * len(truth):
    print(f"inconclusive: the server's faults left {judged} onsets and {held_judged} held parts of {len(truth)} "
          "notes to judge")
    finish(INCONCLUSIVE)
lat = np.array(latencies)
print(f"note-on latency after the sung onset over {len(lat)} notes (ms): min {lat.min():.1f}, median "
      f"{np.median(lat):.1f}, 90 % {np.percentile(lat, 90):.1f}, max {lat.max():.1f}; histogram "
      + ", ".join(f"{lo}-{lo + 5}: {int(((lat >= lo) & (lat < lo + 5)).sum())}" for lo in range(0, 40, 5)))
check(len(latencies) == judged, f"a note-on for each of the {judged} judged sung notes ({len(truth)} sung): {wrong[:4]}")
# The onset is the note's first sample: its level rises over 40 ms from nothing (voice_synth), under
# noise 20 dB below the voice, so the first milliseconds say no pitch. The goal holds for the median;
# no note may take longer than LIMIT_MS.
within = int((lat <= GOAL_MS).sum())
check(np.median(lat) <= GOAL_MS and lat.max() <= LIMIT_MS,
      f"note-ons after the sung onset: median {np.median(lat):.1f} ms (goal <= {GOAL_MS:.0f}), {within}/{len(lat)} within "
      f"{GOAL_MS:.0f} ms, max {lat.max():.1f} ms (limit {LIMIT_MS:.0f})")
check(keys_exact + keys_below == len(latencies) and (not args.settle or keys_exact == len(latencies)),
      f"keys: {keys_exact} the sung note's, {keys_below} a semitone below it (decided in the scoop), "
      f"{len(latencies) - keys_exact - keys_below} other")
check(pitch_ok == held_judged, f"{pitch_ok}/{held_judged} held parts sound (key + bend) within 50 cents of the sung pitch")
# Extra: a note-on that starts no sung note (none began 10 ms after it to 100 ms before it), or a
# second one for a sung note; where the server's faults left it alone.
onsets = [int(s0 * rate) for s0, _, _ in truth]
firsts = {min((i for i, o in enumerate(ons) if a - 0.01 * rate <= o[0] <= a + LIMIT_MS / 1000 * rate), default=None)
          for a in onsets}
extra = [o for i, o in enumerate(ons) if i not in used and i not in firsts
         and not faults.touches(start + o[0] - rate // 10, start + o[0] + rate // 50)]
check(not extra, f"no note-on where no note was sung: {len(extra)} extra {[(round(f / rate, 3), k) for f, k, _ in extra[:5]]}")
# A note-off lost in a cycle the server skipped is the server's: judged where nothing touched the note.
unmatched = [(f, k) for f, k, _ in ons if not any(g >= f and kk == k for g, kk in offs)
             and not faults.touches(start + f, start + f + rate)]
check(not unmatched, f"a note-off after each of the {len(ons)} note-ons ({len(offs)} note-offs)")
check(synth_ok >= 0.9 * held_judged, f"boop synth driven by listen sounds the sung pitch (within 50 cents) in "
      f"{synth_ok}/{held_judged} held parts")
out.seek(0)
lines = [ln for ln in out.read().splitlines() if ln.startswith("{")]
printed = [(int(m["frame"]), int(m["key"])) for m in map(json.loads, lines) if m["event"] == "on"]
# --json prints each note-on boop sent. The test client reads each one too, unless it was sent in
# a cycle the client did not run (the server's fault). boop's frames count from its own start: the
# offset to the client's is the difference most pairs of the same key agree on (10 ms bins). Each
# note-on the client read must be a printed one, and a printed one the client lacks must lie where
# the server's faults were.
bin_frames = rate // 100
agree = Counter(round((f - pf) / bin_frames) for pf, pk in printed for f, k, _ in ons if k == pk)
offset = agree.most_common(1)[0][0] * bin_frames if agree else 0
read, missing = set(), []
for pf, pk in printed:
    near = [i for i, (f, k, _) in enumerate(ons) if k == pk and i not in read and abs(f - (pf + offset)) < rate // 10]
    if near:
        read.add(near[0])
    else:
        missing.append((pf, pk))
unexplained = [(f, k) for f, k in missing if not faults.touches(start + f + offset - rate // 10, start + f + offset + rate // 10)]
check(len(read) == len(ons) and not unexplained,
      f"--json prints one line per note-on sent ({len(printed)} note-ons of {len(lines)} lines; the test client read "
      f"{len(read)} of its {len(ons)} among them, {len(missing)} lost in cycles the server ran without it, "
      f"{len(unexplained)} unexplained)")
bad = subprocess.run([args.boop, "listen", "--backend", "jack", "--midi-out", "--midi-connect", "nope:in"],
                     capture_output=True, text=True, timeout=30)
check(bad.returncode == 64 and bad.stderr.count("\n") == 1 and "--midi-connect nope:in" in bad.stderr,
      f"--midi-connect to no MIDI input: one line, 64 (got {bad.returncode}: {bad.stderr.strip()!r})")
finish(1 if check.failures else 0)
