#!/usr/bin/env python3
"""A simulated singer for `boop train sing-interval --json --input`, offline.

    python3 scripts/train-sing-sim.py BOOP WORKDIR [--trials 16] [--seed 5]

The singer sings every interval above the reference 8 cents sharp and every one below 12 cents
flat (a spread of 3 cents), except the fourth below, which it always sings a semitone too wide (a
wrong note). boop chooses each trial's interval after scoring the note before it, so the recording
is built a trial at a time: with k notes sung, boop is run for k + 1 trials (a fresh history each
time, the same seed) and says which interval trial k + 1 asks for; each note is rendered once
(scripts/voice_synth.py: glottal pulses, formants, vibrato, a scooped onset, its own 20 dB noise),
so the recording's first notes are the same in every run. Checks, on the last run:
- every trial's target is the reference times 2^(±semitones/12) within 0.01 cent;
- every note within the tolerance is scored within 3 cents of what was sung, the wrong notes are
  called wrong;
- the missed interval is asked more often than any other (spaced repetition);
- `train stats --profile --json` counts each interval and direction's trials and right answers as
  sung, and `--profile` fits 80 columns; `train stats --json` calls the session's interval "mixed".
Exit 1 on any failure.
"""
import argparse
import json
import math
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import voice_synth as vs  # noqa: E402

SEMITONES = {"m2": 1, "M2": 2, "m3": 3, "M3": 4, "P4": 5, "TT": 6, "P5": 7, "m6": 8, "M6": 9, "m7": 10, "M7": 11,
             "P8": 12}

ap = argparse.ArgumentParser()
ap.add_argument("boop")
ap.add_argument("work")
ap.add_argument("--trials", type=int, default=16)
ap.add_argument("--seed", type=int, default=5)
args = ap.parse_args()
os.makedirs(args.work, exist_ok=True)
failures = []


def intended(item, k):
    """The cents off the target the singer means for trial k's item."""
    if item == "P4down":
        return -100.0
    spread = np.random.default_rng(1000 + k).normal(0, 3)
    return (8.0 if item.endswith("up") else -12.0) + spread


notes = {}   # k -> samples of the note sung for trial k (with its silence after)


def render(k, target_hz, item):
    rng = np.random.default_rng(args.seed * 1000 + k)
    f0 = target_hz * 2 ** (intended(item, k) / 1200)
    y, _ = vs.note(f0, 1.5, rng, vowel="aeiou"[k % 5], scoop_cents=-80, scoop_ms=60, vibrato_hz=5.5, vibrato_cents=30)
    y = vs.add_noise(np.concatenate([y, np.zeros(int(0.6 * vs.RATE))]), 20, rng,
                     np.concatenate([np.abs(y) > 0, np.zeros(int(0.6 * vs.RATE), bool)]))
    notes[k] = y


def run(count):
    """boop on the notes rendered so far, for `count` trials: its JSON lines."""
    path = os.path.join(args.work, f"sung{count}.wav")
    y = np.concatenate([np.zeros(int(0.4 * vs.RATE))] + [notes[k] for k in range(len(notes))])
    vs.write_wav(path, y / max(1, np.max(np.abs(y)) / 0.95), vs.RATE)
    db = os.path.join(args.work, f"history{count}.sqlite")
    if os.path.exists(db):
        os.remove(db)
    p = subprocess.run([args.boop, "train", "sing-interval", "--json", "--db", db, "--input", path, "--trials",
                        str(count), "--intervals", "m3,P4", "--direction", "both", "--range", "C4..C5", "--seed",
                        str(args.seed)], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"FAIL boop exit {p.returncode}: {p.stderr.strip()}")
    return [json.loads(line) for line in p.stdout.splitlines()], db


asked = []
for k in range(args.trials):
    lines, _ = run(k + 1)
    listening = [d for d in lines if d.get("listening")]
    item, target = listening[k]["interval"], listening[k]["target_hz"]
    asked.append(item)
    render(k, target, item)
lines, db = run(args.trials)

listening = [d for d in lines if d.get("listening")]
scored = {d["trial"]: d for d in lines if "judgement" in d or d.get("unvoiced")}
worst_target, worst_error = 0.0, 0.0
for d in listening:
    k, item = d["trial"] - 1, d["interval"]
    semis = SEMITONES[item.rstrip("updown")] * (1 if item.endswith("up") else -1)
    off = 1200 * math.log2(d["target_hz"] / (d["reference_hz"] * 2 ** (semis / 12)))
    worst_target = max(worst_target, abs(off))
    if abs(off) > 0.01:
        failures.append(f"trial {k + 1}: target {d['target_hz']} Hz is {off:+.4f} cents from {item} above/below")
    s = scored.get(k + 1, {})
    want = intended(item, k)
    if abs(want) >= 50:
        if s.get("judgement") != "wrong":
            failures.append(f"trial {k + 1}: {item} sung {want:+.0f} cents off, judged {s.get('judgement')}")
    elif s.get("judgement") != "right" or abs(s["cents"] - want) > 3:
        failures.append(f"trial {k + 1}: {item} sung {want:+.1f} cents off, scored {s}")
    else:
        worst_error = max(worst_error, abs(s["cents"] - want))
counts = {i: asked.count(i) for i in sorted(set(asked))}
print(f"asked: {counts}; targets within {worst_target:.5f} cents; scores within {worst_error:.2f} cents")
missed = counts.get("P4down", 0)
if missed <= max(v for i, v in counts.items() if i != "P4down"):
    failures.append(f"the interval always missed (P4down) was asked {missed} times, no more than another: {counts}")

profile = json.loads(subprocess.run([args.boop, "train", "stats", "--db", db, "--profile", "--json"],
                                    capture_output=True, text=True).stdout)
rows = {(r["interval"] + r["direction"]): r for r in profile.get("directions", {}).get("sung", [])}
for item, n in counts.items():
    r = rows.get(item)
    right = 0 if item == "P4down" else n
    if not r or r["trials"] != n or r["right"] != right or not r["low"] - 1e-9 <= right / n <= r["high"] + 1e-9:
        failures.append(f"stats --profile --json: {item}: {r}, expected {n} trials, {right} right")
progress = json.loads(subprocess.run([args.boop, "train", "stats", "--db", db, "--json"], capture_output=True,
                                     text=True).stdout)
if [m.get("interval") for m in progress.get("match", [])] != ["mixed"]:
    failures.append(f"stats --json: the session's interval is {progress.get('match')}, expected mixed")
text = subprocess.run([args.boop, "train", "stats", "--db", db, "--profile"], capture_output=True, text=True).stdout
wide = [line for line in text.splitlines() if len(line) > 80]
if wide or "Sung intervals" not in text:
    failures.append(f"stats --profile: {len(wide)} lines over 80 columns, or no table of sung intervals:\n{text}")
print("Sung intervals" + text.split("Sung intervals")[-1].rstrip())
for f in failures:
    print("FAIL " + f)
sys.exit(1 if failures else 0)
