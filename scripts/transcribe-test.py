#!/usr/bin/env python3
"""`boop transcribe` against simulated singers (scripts/voice_synth.py: glottal pulses through vowel
formants, vibrato of 30-50 cents, a scooped onset, jitter, breath, 20 dB SNR white noise): for
each session a four-bar melody at a random tempo, notes of one to four sixteenths (some sung
legato into the next, some detached), each started up to 20 ms off its step. The song written
must hold >= 95 % of the notes on their step and pitch, and no note that was not sung; with
--scale the notes stay in the scale. Bad input is one line with its status.

    python3 scripts/transcribe-test.py BOOP WORK [--sessions 6] [--seed 1]
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import voice_synth as vs  # noqa: E402

MAJOR = [0, 2, 4, 5, 7, 9, 11]



def melody(rng, bpm, low=57, high=72):
    """Four bars of sixteenths: (step, midi, steps, legato) with a rest now and then."""
    keys = [m for m in range(low, high + 1) if (m - 60) % 12 in MAJOR]
    notes, step = [], int(rng.integers(0, 3))
    while step < 62:
        length = int(rng.choice([1, 2, 2, 3, 4]))
        length = min(length, 64 - step)
        pitch = int(rng.choice([k for k in keys if not notes or k != notes[-1][1]]))
        notes.append((step, pitch, length, bool(rng.random() < 0.3)))
        step += length + int(rng.choice([0, 0, 1, 2]))
    return notes


def sing(notes, bpm, rng, rate=vs.RATE):
    step_s = 60 / bpm / 4
    total = int((64 * step_s + 0.5) * rate)
    y = np.zeros(total)
    voiced = np.zeros(total, dtype=bool)
    for i, (step, midi, length, legato) in enumerate(notes):
        nxt = notes[i + 1][0] if i + 1 < len(notes) else None
        start = step * step_s + rng.uniform(-0.02, 0.02)
        end = (step + length) * step_s
        # Legato runs into the next note when it follows at once; otherwise a breath before it.
        end = end + 0.01 if legato and nxt == step + length else end - 0.05
        seconds = max(0.09, end - start)
        f0 = 440 * 2 ** ((midi - 69) / 12)
        sig, _ = vs.note(f0, seconds, rng, vowel=str(rng.choice(list(vs.VOWELS))),
                         vibrato_cents=float(rng.uniform(30, 50)), scoop_cents=float(rng.uniform(-150, -50)),
                         scoop_ms=float(rng.uniform(30, 60)))
        a = int(max(0, start) * rate)
        y[a:a + len(sig)] += sig[:total - a]
        voiced[a:a + len(sig)] = True
    return vs.add_noise(y, 20, rng, voiced), rate


def sung_notes(song):
    out = []
    for k, entry in enumerate(song["song"]):
        pattern = song["patterns"][entry["pattern"]]
        for n in pattern["tracks"].get("melody", []):
            out.append((k * pattern["length"] + n["step"], n["pitch"]))
    return sorted(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("boop")
    ap.add_argument("work")
    ap.add_argument("--sessions", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    failures, total, right, extra = 0, 0, 0, 0
    for s in range(args.sessions):
        rng = np.random.default_rng(args.seed + s)
        bpm = float(rng.choice([90, 100, 110, 120]))
        truth = melody(rng, bpm)
        y, rate = sing(truth, bpm, rng)
        wav = os.path.join(args.work, f"sung-{s}.wav")
        out = os.path.join(args.work, f"sung-{s}.json")
        vs.write_wav(wav, y, rate)
        scale = ["--scale", "C major"] if s % 2 else []
        run = subprocess.run([args.boop, "transcribe", wav, "-o", out, "--bpm", str(bpm), *scale],
                             capture_output=True, text=True)
        if run.returncode != 0:
            print(f"FAIL session {s}: exit {run.returncode}: {run.stderr.strip()}")
            failures += 1
            continue
        got = sung_notes(json.load(open(out)))
        want = sorted((step, midi) for step, midi, _, _ in truth)
        hit = len(set(got) & set(want))
        # Extra: a note where nothing was sung (a wrong pitch on a sung note's step is a miss).
        sung_steps = {step for step, _ in want}
        added = sorted(n for n in set(got) if n[0] not in sung_steps)
        total, right, extra = total + len(want), right + hit, extra + len(added)
        print(f"session {s}: {bpm:.0f} BPM {' '.join(scale)}: {hit}/{len(want)} notes on step and pitch; "
              f"missed {sorted(set(want) - set(got))}, heard instead {sorted(set(got) - set(want))}, extra {added}")
    share = right / max(total, 1)
    print(f"all: {right}/{total} notes ({100 * share:.1f} %) on step and pitch, {extra} extra")
    if share < 0.95 or extra > 0:
        print(f"FAIL transcription: {100 * share:.1f} % right (goal >= 95 %), {extra} extra (goal 0)")
        failures += 1
    checks = [
        ([os.path.join(args.work, "nope.wav"), "-o", "x.json"], 66, "nope.wav: no such file"),
        ([wav, "-o", "x.txt"], 64, "expected a song file name ending in .json"),
        ([wav, "-o", "x.json", "--scale", "H major"], 64, "--scale"),
        ([wav, "-o", "x.json", "--track", "rhythm"], 64, "--track"),
        ([wav, "-o", "x.json", "--steps", "65"], 64, "--steps 65"),
    ]
    not_wav = os.path.join(args.work, "text.wav")
    open(not_wav, "w").write("not audio")
    checks.append(([not_wav, "-o", "x.json"], 65, "text.wav"))
    for argv, status, text in checks:
        run = subprocess.run([args.boop, "transcribe", *argv], capture_output=True, text=True, cwd=args.work)
        if run.returncode != status or text not in run.stderr or len(run.stderr.splitlines()) != 1:
            print(f"FAIL transcribe {argv}: exit {run.returncode} (expected {status}), {run.stderr!r}")
            failures += 1
        if os.path.exists(os.path.join(args.work, "x.json")):
            print(f"FAIL transcribe {argv}: wrote x.json")
            failures += 1
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
