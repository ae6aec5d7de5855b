#!/usr/bin/env bash
# Whole-process speed of `boop ambient -o`: DURATION seconds (default 600) of each bundled preset
# (or the ones named) rendered to a float WAV in --dir, with the kernel this CPU takes and with
# the baseline kernel (BOOP_NO_AVX2=1), hyperfine's min / median / max, the real-time factor of
# the median and the ratio baseline / first kernel. The loudness measurement that precedes every
# file render (20 s of the piece, mixed once and kept for the file) and the write into --dir are
# part of the figure.
#
# Usage: bench/ambient-speed.sh [--boop PATH] [--duration S] [--runs N] [--dir DIR] [--seed N] [PRESET ...]
# Default: .build/release/boop, 600 s, 3 runs, a new folder under /var/tmp, seed 3, every preset.
set -euo pipefail
cd "$(dirname "$0")/.."
boop=.build/release/boop duration=600 runs=3 dir=/var/tmp seed=3
presets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --boop) boop="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    *) presets+=("$1"); shift ;;
  esac
done
command -v hyperfine >/dev/null || { echo "ambient-speed: needs hyperfine (apt-get install hyperfine)" >&2; exit 69; }
[ ${#presets[@]} -gt 0 ] || mapfile -t presets < <("$boop" ambient --list | awk '{ print $1 }')
out="$(mktemp -d -p "$dir")"
trap 'rm -rf "$out"' EXIT
bench/machine.sh "$out"
printf '| preset | min / median / max | real time | baseline kernel median | baseline / first |\n|---|---|---|---|---|\n'
for preset in "${presets[@]}"; do
  hyperfine -N --warmup 1 --runs "$runs" --export-json "$out/h.json" \
    "$boop ambient --preset $preset --seed $seed --duration $duration -q -o $out/a.wav" \
    "env BOOP_NO_AVX2=1 $boop ambient --preset $preset --seed $seed --duration $duration -q -o $out/b.wav" >/dev/null
  python3 - "$out/h.json" "$preset" "$duration" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
a, b = r[0], r[1]
t = a["times"]
print(f"| {sys.argv[2]} | {min(t):.2f} / **{a['median']:.2f}** / {max(t):.2f} s | {float(sys.argv[3]) / a['median']:.0f}x "
      f"| {b['median']:.2f} s | {b['median'] / a['median']:.2f} |")
PY
done
