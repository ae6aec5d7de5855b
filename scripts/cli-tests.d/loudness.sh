#!/usr/bin/env bash
# Levels a listener can live with, measured by an independent meter (scripts/loudness.py:
# pyloudnorm for BS.1770 loudness, 4x oversampling for true peak): every preset and seed of
# ambient within 2 LU of the others and between -20 and -14 LUFS; true peak at or under -1 dBTP
# for ambient, the example patterns, a tone and a dense accented pattern; --gain exact.
# Run by scripts/cli-tests.sh with BOOP, ROOT and WORK set.
set -uo pipefail
boop="$BOOP" root="$ROOT" work="$WORK/loudness"
mkdir -p "$work"
failures=0
fail() { echo "FAIL $1"; failures=$((failures + 1)); }

# A dense accented pattern: every track full on every step, chords stacked, all accents.
python3 - "$work/dense.json" <<'PY'
import json, sys
tracks = {
    "melody": [{"step": s, "pitch": 84 + (s % 5), "velocity": "accent"} for s in range(16)],
    "chords": [{"step": s, "pitch": p, "velocity": "accent"} for s in range(16) for p in (60, 64, 67, 71)],
    "bass": [{"step": s, "pitch": 36 + (s % 3), "velocity": "accent"} for s in range(16)],
    "rhythm": [{"step": s, "pitch": p, "velocity": "accent"} for s in range(16) for p in (36, 38, 42)],
}
json.dump({"name": "Dense", "bpm": 200, "length": 16, "tracks": tracks}, open(sys.argv[1], "w"))
PY
"$boop" render "$work/dense.json" --loops 4 --voices 32 -o "$work/dense.wav" -q || fail "render dense"
for ex in "$root"/examples/*.json; do
  "$boop" render "$ex" -o "$work/ex-$(basename "$ex" .json).wav" -q || fail "render $ex"
done
"$boop" tone A4 C5 E5 --duration 1 -o "$work/tone.wav" -q --gain 12 || fail "tone"
for p in Bright_Bells Dark_Textures Deep_Space Glass_Rain Morning_Mist Ocean_Drift; do
  for seed in 1 7; do
    "$boop" ambient --preset "$p" --seed "$seed" --duration 60 -o "$work/amb-$p-$seed.wav" -q || fail "ambient $p $seed"
  done
done
"$boop" render "$root/examples/demo.json" -o "$work/g0.wav" -q
"$boop" render "$root/examples/demo.json" -o "$work/g6.wav" -q --gain -6

python3 "$root/scripts/loudness.py" --json "$work"/*.wav >"$work/levels.jsonl" || fail "loudness.py"
python3 - "$work" <<'PY' || failures=$((failures + 1))
import json, sys, warnings
import numpy as np, scipy.io.wavfile
work = sys.argv[1]
rows = {r["file"].rsplit("/", 1)[1]: r for r in map(json.loads, open(f"{work}/levels.jsonl"))}
bad = 0
amb = {k: v for k, v in rows.items() if k.startswith("amb-")}
lufs = [v["lufs"] for v in amb.values()]
spread = max(lufs) - min(lufs)
print(f"ok   ambient loudness: {min(lufs):.2f} ... {max(lufs):.2f} LUFS over {len(lufs)} renders (spread {spread:.2f} LU)"
      if spread <= 2 and min(lufs) >= -20 and max(lufs) <= -14 else
      f"FAIL ambient loudness: {sorted((v['lufs'], k) for k, v in amb.items())}")
bad += not (spread <= 2 and min(lufs) >= -20 and max(lufs) <= -14)
worst = max(rows.values(), key=lambda r: r["true_peak_dbtp"])
if worst["true_peak_dbtp"] <= -1.0:
    print(f"ok   true peak <= -1 dBTP in all {len(rows)} files (highest {worst['true_peak_dbtp']} dBTP, {worst['file'].rsplit('/', 1)[1]})")
else:
    print(f"FAIL true peak: {[(k, v['true_peak_dbtp']) for k, v in rows.items() if v['true_peak_dbtp'] > -1.0]}")
    bad += 1
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    a = scipy.io.wavfile.read(f"{work}/g0.wav")[1].astype(float)
    b = scipy.io.wavfile.read(f"{work}/g6.wav")[1].astype(float)
m = np.abs(a) > 1e-6
ratio = 20 * np.log10(b[m] / a[m])
if a.shape == b.shape and np.all(np.abs(ratio + 6.0) <= 0.01):
    print(f"ok   --gain -6: every sample {ratio.min():.4f} ... {ratio.max():.4f} dB from the default render")
else:
    print(f"FAIL --gain -6: {ratio.min()} ... {ratio.max()} dB"); bad += 1
sys.exit(1 if bad else 0)
PY
for v in -61 13 nan; do
  "$boop" render "$root/examples/demo.json" -o "$work/bad.wav" --gain "$v" 2>"$work/err"; s=$?
  [ "$s" -eq 64 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && echo "ok   --gain $v -> 64: $(cat "$work/err")" || fail "--gain $v: exit $s"
done
echo "loudness checks: $failures failure(s)"
exit $((failures > 0))
