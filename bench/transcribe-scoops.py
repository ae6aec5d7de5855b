#!/usr/bin/env python3
"""How often `boop transcribe` puts a sung note a semitone off, on simulated four-bar takes
(scripts/voice_synth.py: glottal pulses through vowel formants, vibrato of 30-50 cents, scoops of
50-150 cents over 30-60 ms, breath, 20 dB SNR, each note up to 20 ms off its step).

    python3 bench/transcribe-scoops.py BOOP [FIRST_SEED LAST_SEED]   (default seeds 1 to 120)

Each take is transcribed whole (`-v` lists each note's start and fractional MIDI); each sung note
is matched to the heard note starting nearest it (within 70 ms). Prints every note a semitone off
(with its length in steps) and every note with no heard note near its start, then one line: the
notes wrong, and the pitch error's median, 5th and 95th percentiles and extremes, in semitones.
"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import voice_synth as vs  # noqa: E402

boop = sys.argv[1]
first, last = (int(sys.argv[2]), int(sys.argv[3])) if len(sys.argv) > 3 else (1, 120)
work = tempfile.mkdtemp(prefix="boop-scoops-")
wav, song = os.path.join(work, "take.wav"), os.path.join(work, "take.json")
wrong = total = 0
errors = []
for seed in range(first, last + 1):
    rng = np.random.default_rng(seed)
    truth = vs.melody(rng, 120)
    y, rate = vs.sing(truth, 120, rng, rate=16000)
    vs.write_wav(wav, 0.5 * y, rate)
    out = subprocess.run([boop, "transcribe", wav, "-o", song, "--steps", "64", "-v"],
                         capture_output=True, text=True).stderr
    heard = [(float(m[0]), float(m[1])) for m in re.findall(r"([\d.]+) s\s+[\d.]+ s\s+MIDI\s+([\d.]+)", out)]
    for step, midi, length, _ in truth:
        total += 1
        near = [h for h in heard if abs(h[0] - step * 0.125) < 0.07]
        if not near:
            wrong += 1
            print(f"seed {seed}: step {step}: {midi} not heard")
            continue
        got = min(near, key=lambda h: abs(h[0] - step * 0.125))[1]
        errors.append(got - midi)
        if round(got) != midi:
            wrong += 1
            print(f"seed {seed}: step {step}: {midi} heard as {got:.2f} ({length} steps)")
e = np.array(errors)
print(f"{wrong} of {total} notes wrong; pitch error median {np.median(e):+.3f}, 5th percentile "
      f"{np.percentile(e, 5):+.3f}, 95th {np.percentile(e, 95):+.3f}, extremes {e.min():+.3f} {e.max():+.3f}")
