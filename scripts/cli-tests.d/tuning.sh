#!/usr/bin/env bash
# Scala tunings in `boop tone`: every key sounds within 0.01 cent of the Scala arithmetic (written
# out here independently of the engine, from the files' own text), for a 19-tone equal scale with
# no mapping and a just-intonation scale placed by a mapping; and every malformed file, missing file
# or contradictory option is one line naming the file (and the line) with its documented status.
# Run by scripts/cli-tests.sh with BOOP, ROOT and WORK set; by hand: BOOP=path/to/boop ROOT=. WORK=/tmp bash $0
set -uo pipefail
boop="$BOOP" work="$WORK/tuning"
mkdir -p "$work"

python3 - "$boop" "$work" <<'PY'
import math, subprocess, sys
import numpy as np
from scipy.io import wavfile
from scipy.optimize import curve_fit

boop, work = sys.argv[1:3]
failures = 0


def fail(message):
    global failures
    print("FAIL " + message)
    failures += 1


def write(name, text):
    path = f"{work}/{name}"
    with open(path, "w") as f:
        f.write(text)
    return path


def scala_cents(field):
    """A pitch line's value, by the Scala format's own rule: a period means cents, else a ratio."""
    if "." in field:
        return float(field)
    num, _, den = field.partition("/")
    return 1200 * math.log2(int(num) / int(den or 1))


def degrees(scl_text):
    lines = [l for l in scl_text.splitlines() if not l.startswith("!")]
    count = int(lines[1].split()[0])
    return [scala_cents(l.split()[0]) for l in lines[2:2 + count]]


def expected_hz(cents, key, middle=60, ref_key=60, ref_hz=261.62556530059862):
    n = len(cents)
    def at(k):
        d = k - middle
        q, r = divmod(d, n)
        return q * cents[-1] + (cents[r - 1] if r else 0.0)
    return ref_hz * 2 ** ((at(key) - at(ref_key)) / 1200)


def measured(path, count, duration, gap):
    """Each tone's frequency: a least-squares sine fit over its steady middle, started from the
    spectrum's peak (parabolic interpolation)."""
    rate, data = wavfile.read(path)
    x = data[:, 0] if data.ndim > 1 else data
    x = x.astype(np.float64)
    out = []
    for k in range(count):
        start = int(round((k * (duration + gap) + 0.1) * rate))
        stop = int(round((k * (duration + gap) + duration - 0.1) * rate))
        seg = x[start:stop]
        t = np.arange(len(seg)) / rate
        spectrum = np.abs(np.fft.rfft(seg * np.hanning(len(seg)), 8 * len(seg)))
        i = int(np.argmax(spectrum))
        a, b, c = np.log(spectrum[i - 1:i + 2])
        guess = (i + 0.5 * (a - c) / (a - 2 * b + c)) * rate / (8 * len(seg))
        model = lambda t, f, p, q: p * np.sin(2 * np.pi * f * t) + q * np.cos(2 * np.pi * f * t)
        (f, _, _), _ = curve_fit(model, t, seg, p0=[guess, np.max(seg), 0.0])
        out.append(f)
    return out


def check_keys(label, scl_path, kbm_path, names, keys, expect):
    out = f"{work}/{label}.wav"
    args = [boop, "tone", "-q", "--duration", "0.6", "--gap", "0.05", "-o", out, "--scl", scl_path]
    if kbm_path:
        args += ["--kbm", kbm_path]
    run = subprocess.run(args + names, capture_output=True, text=True)
    if run.returncode != 0:
        fail(f"{label}: exit {run.returncode}: {run.stderr.strip()}")
        return
    worst = 0.0
    for name, key, hz in zip(names, keys, measured(out, len(names), 0.6, 0.05)):
        off = 1200 * math.log2(hz / expect(key))
        worst = max(worst, abs(off))
        if abs(off) > 0.01:
            fail(f"{label}: {name} (key {key}) at {hz:.6f} Hz, {off:+.4f} cents from {expect(key):.6f} Hz")
    print(f"{label}: {len(names)} keys, worst {worst:.5f} cents from the Scala arithmetic")


names = ["C2", "C3", "C4", "C#4", "D4", "D#4", "E4", "F4", "F#4", "G4", "G#4", "A4", "A#4", "B4", "C5", "C6", "G6"]
keys = [36, 48, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 84, 91]

edo19 = "! 19edo.scl\n!\n19-tone equal temperament\n 19\n!\n" + "".join(
    f" {1200 * i / 19:.5f}\n" for i in range(1, 20))
edo19_path = write("19edo.scl", edo19)
check_keys("19-EDO", edo19_path, None, names, keys, lambda k: expected_hz(degrees(edo19), k))

just = "! ji.scl\n5-limit just intonation on C\n12\n16/15\n9/8\n6/5\n5/4\n4/3\n45/32\n3/2\n8/5\n5/3\n9/5\n15/8\n2/1\n"
just_path = write("ji.scl", just)
kbm = "! A4 = 440 Hz, degree 0 on C4\n12\n0\n127\n60\n69\n440.0\n12\n" + "".join(f"{i}\n" for i in range(12))
kbm_path = write("ji.kbm", kbm)
check_keys("just intonation", just_path, kbm_path, names, keys,
           lambda k: expected_hz(degrees(just), k, 60, 69, 440.0))


def refused(label, args, status, *parts):
    run = subprocess.run([boop, "tone", "-q", "-o", f"{work}/refused.wav"] + args, capture_output=True, text=True)
    lines = run.stderr.splitlines()
    if run.returncode != status or len(lines) != 1 or not all(p in run.stderr for p in parts):
        fail(f"{label}: exit {run.returncode} (expected {status}), stderr {run.stderr!r}, expected {parts}")
    import os
    if os.path.exists(f"{work}/refused.wav"):
        fail(f"{label}: left refused.wav")


bad = write("bad.scl", "broken\n3\n100.0\nabc\n2/1\n")
refused("malformed pitch", ["--scl", bad, "A4"], 65, "bad.scl: line 4: expected a pitch", '"abc"')
empty = write("empty.scl", "")
refused("empty scale", ["--scl", empty, "A4"], 65, "empty.scl: line 1: expected a description line")
badmap = write("bad.kbm", "12\n0\n127\n60\n69\n440Hz\n12\n")
refused("mapping's frequency", ["--scl", just_path, "--kbm", badmap, "A4"], 65, "bad.kbm: line 6: expected the reference frequency")
escape = write("esc\x1b[2J.scl", "x\n1\n\x1b]0;t\x07\n")
refused("escapes", ["--scl", escape, "A4"], 65, "line 3: expected a pitch")
refused("missing scale", ["--scl", f"{work}/nope.scl", "A4"], 66, "nope.scl: no such file")
refused("a folder", ["--scl", work, "A4"], 66, "is a directory (expected a Scala file)")
refused("--kbm alone", ["--kbm", kbm_path, "A4"], 64, "--kbm")
refused("--reference beside --scl", ["--scl", edo19_path, "--reference", "432", "A4"], 64, "--reference")
gaps = write("gaps.kbm", "12\n0\n127\n60\n60\n261.6\n7\n0\nx\n1\nx\n2\n3\nx\n4\nx\n5\nx\n6\n")
diatonic = write("diatonic.scl", "diatonic\n7\n9/8\n5/4\n4/3\n3/2\n5/3\n15/8\n2/1\n")
refused("unmapped key", ["--scl", diatonic, "--kbm", gaps, "C4", "C#4"], 64, "C#4 (key 61)", "unmapped")

# A version-2 song with a "tuning" object: its notes sound in the tuning (render), the .mid says
# the tuning is not in it, and a tuning file that is missing or malformed is refused naming both.
def song(name, tuning, notes):
    path = f"{work}/{name}"
    body = {"version": 2, "bpm": 120, "instruments": {"melody": {"voice": "sine"}},
            "patterns": {"A": {"length": 32, "tracks": {"melody": notes}}}}
    if tuning is not None:
        body["tuning"] = tuning
    import json as js
    with open(path, "w") as f:
        js.dump(body, f)
    return path


keys = [55, 60, 61, 62, 64, 67]
tuned = song("tuned.json", {"scl": "19edo.scl"}, [{"step": 5 * i, "pitch": k, "length": 5} for i, k in enumerate(keys)])
run = subprocess.run([boop, "render", tuned, "-o", f"{work}/tuned.wav"], capture_output=True, text=True)
if run.returncode != 0:
    fail(f"song with a tuning: exit {run.returncode}: {run.stderr.strip()}")
else:
    step = 60 / 120 / 4
    rate, data = wavfile.read(f"{work}/tuned.wav")
    x = data[:, 0].astype(np.float64)
    worst = 0.0
    for i, k in enumerate(keys):
        seg = x[int((5 * i * step + 0.08) * rate):int((5 * i * step + 5 * step - 0.05) * rate)]
        # Upward zero crossings, interpolated: unmoved by the envelope's level changes.
        up = np.nonzero((seg[:-1] < 0) & (seg[1:] >= 0))[0]
        times = up + seg[up] / (seg[up] - seg[up + 1])
        f = (len(times) - 1) * rate / (times[-1] - times[0])
        off = 1200 * math.log2(f / expected_hz(degrees(edo19), k))
        worst = max(worst, abs(off))
    print(f"song in 19-EDO: {len(keys)} notes, worst {worst:.5f} cents from the Scala arithmetic")
    if worst > 0.01:
        fail(f"song in 19-EDO: worst {worst:.5f} cents")
run = subprocess.run([boop, "render", tuned, "-o", f"{work}/tuned.mid"], capture_output=True, text=True)
if run.returncode != 0 or "not in a Standard MIDI File" not in run.stderr or len(run.stderr.splitlines()) != 1:
    fail(f"song with a tuning to .mid: exit {run.returncode}, {run.stderr!r}")
for label, tuning, status, parts in [
        ("missing scale", {"scl": "nope.scl"}, 66, ["missing.json: tuning:", "nope.scl: no such file"]),
        ("malformed scale", {"scl": "bad.scl"}, 65, ["bad.scl: line 4: expected a pitch"]),
        ("unknown key", {"scl": "19edo.scl", "mode": "x"}, 65, ["tuning", "unknown key"]),
        ("no scl", {"kbm": "ji.kbm"}, 65, ["tuning.scl", "required"])]:
    path = song("missing.json", tuning, [{"step": 0, "pitch": 60}])
    run = subprocess.run([boop, "render", path, "-o", f"{work}/refused.wav"], capture_output=True, text=True)
    if run.returncode != status or len(run.stderr.splitlines()) != 1 or not all(p in run.stderr for p in parts):
        fail(f"song, {label}: exit {run.returncode} (expected {status}), {run.stderr!r}, expected {parts}")
sys.exit(1 if failures else 0)
PY
