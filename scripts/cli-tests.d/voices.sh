#!/usr/bin/env bash
# Every note the polyphony allows sounds in `boop render`: random patterns (chords on every
# tonal track, random lengths, drums beside them) rendered with a random --voices from 1 to 256
# and with 256. A note that never had more notes held beside it than the pool holds (so no rule
# may steal it) must have, in a window after its attack, the energy at its fundamental that the
# 256-voice render has (within 1 dB); a stolen note shows as 50 to 90 dB less. Pitches of notes
# that overlap are kept three semitones and more apart, off each other's low harmonics, so no
# other note's presence can move that energy. The examples are checked the same way.
# Run by scripts/cli-tests.sh with BOOP, ROOT and WORK set.
set -uo pipefail
boop="$BOOP" root="$ROOT" work="$WORK/voices"
mkdir -p "$work"

python3 - "$boop" "$work" "$root" <<'PY'
import json, random, subprocess, sys, warnings
import numpy as np, scipy.io.wavfile

boop, work, root = sys.argv[1:4]
warnings.simplefilter("ignore", scipy.io.wavfile.WavFileWarning)  # libsndfile's PEAK-less float WAV chunks
RATE, WINDOW = 44100, 4096
ATTACK = {"melody": 0.010, "chords": 0.040, "bass": 0.005}


def clash(a, b):
    d = abs(a - b)
    return d < 3 or any(abs(d - h) < 2 for h in (12, 19, 24, 28, 31, 34, 36))


def random_pattern(rng):
    length = rng.choice([8, 16, 32])
    tracks = {"melody": [], "chords": [], "bass": [], "rhythm": []}
    placed = []  # (track, step, length, pitch)
    for _ in range(rng.randint(6, 30)):
        track = rng.choice(["melody", "chords", "chords", "bass"])
        step = rng.randrange(length - 2)
        steps = rng.randint(2, min(8, length - step))  # a note ends by the pattern's end
        pitch = rng.randint(43, 57) if track == "bass" else rng.randint(55, 93)
        if any(s < step + steps + 2 and step < s + n + 2 and clash(pitch, p) for _, s, n, p in placed):
            continue
        placed.append((track, step, steps, pitch))
        tracks[track].append({"step": step, "pitch": pitch, "velocity": "normal", "length": steps})
    for s in range(0, length, 4):
        tracks["rhythm"].append({"step": s, "pitch": 36, "velocity": "normal"})
    return {"name": "Voices", "bpm": rng.choice([90, 120, 150]), "length": length, "tracks": tracks}


def render(path, voices):
    out = f"{work}/{path.rsplit('/', 1)[-1]}.{voices}.wav"  # never beside an example
    subprocess.run([boop, "render", path, "-o", out, "-r", str(RATE), "--voices", str(voices), "-q", "--gain", "-24"],
                   check=True)
    rate, x = scipy.io.wavfile.read(out)
    assert rate == RATE
    return x.astype(np.float64) if x.ndim == 1 else x.astype(np.float64).mean(axis=1)


def energy(x, start, hz):
    seg = x[start:start + WINDOW]
    if len(seg) < WINDOW:
        return None
    w = np.hanning(WINDOW)
    t = np.arange(WINDOW) / RATE
    return abs(np.sum(seg * w * np.exp(-2j * np.pi * hz * t))) ** 2


def notes_of(pattern):
    step_s = 60.0 / pattern["bpm"] / 4
    out = []
    for track in ("melody", "chords", "bass"):
        for n in pattern["tracks"].get(track, []):
            on = n["step"] * step_s
            off = on + n.get("length", 1) * step_s
            out.append((track, on, off, n["pitch"]))
    return out


def judge(pattern, path, voices, label):
    limited, roomy = render(path, voices), render(path, 256)
    notes = notes_of(pattern)
    judged = bad = 0
    for track, on, off, pitch in notes:
        start = on + ATTACK[track] + 0.012
        end = start + WINDOW / RATE
        if end > off:
            continue  # too short to judge inside its held time
        ons = [o for _, o, _, _ in notes if on <= o <= end]
        peak = max(sum(1 for _, o2, f2, _ in notes if o2 <= o < f2) for o in ons)
        if peak > voices:
            continue  # more held than the pool holds: a steal may take it
        hz = 440.0 * 2 ** ((pitch - 69) / 12)
        got, want = energy(limited, int(start * RATE), hz), energy(roomy, int(start * RATE), hz)
        if got is None:
            continue
        judged += 1
        diff = 10 * np.log10(max(got, 1e-30) / max(want, 1e-30))
        if abs(diff) > 1.0:
            bad += 1
            print(f"FAIL {label} --voices {voices}: {track} {pitch} at {on:.3f} s is {diff:.1f} dB against 256 voices")
    return judged, bad


rng = random.Random(20261128)
total = failures = 0
for i in range(80):
    pattern = random_pattern(rng)
    path = f"{work}/p{i}.json"
    json.dump(pattern, open(path, "w"))
    voices = rng.choice([1, 2, 3, 4, 5, 6, 8, 8, 8, 12, 16, rng.randint(1, 256)])
    j, b = judge(pattern, path, voices, f"pattern {i}")
    total += j
    failures += b
for example in ("demo", "arpeggio-133", "lullaby", "minor-groove"):
    path = f"{root}/examples/{example}.json"
    pattern = json.load(open(path))
    j, b = judge(pattern, path, 8, example)
    total += j
    failures += b
print(f"{total} notes judged, {failures} under their unlimited level")
if total < 400 or failures:
    sys.exit(1)
PY
