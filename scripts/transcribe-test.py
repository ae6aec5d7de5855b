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
        truth = vs.melody(rng, bpm)
        y, rate = vs.sing(truth, bpm, rng)
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
