#!/usr/bin/env bash
# Whole-process comparison: `boop render` against the STK renderer on the same note events,
# alternated (hyperfine runs the two commands in turn). Usage: bench/render-vs-stk.sh [PATTERN] [LOOPS]
set -euo pipefail
cd "$(dirname "$0")/.."
pattern="${1:-bench/dense-32.json}"
loops="${2:-75}"   # 75 loops of 32 steps at 120 BPM = 5 minutes
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
swift build -c release --product boop >/dev/null
boop="$(swift build -c release --show-bin-path)/boop"
cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
cmake --build build-bench --target StkPatternRender >/dev/null
out="$(mktemp -d)"
python3 bench/pattern-events.py "$pattern" "$loops" 44100 >"$out/events.txt"
hyperfine --warmup 1 --runs 5 --export-json "$out/h.json" \
  "$boop render $pattern --loops $loops --voices 32 -r 44100 -o $out/boop.wav" \
  "build-bench/StkPatternRender $out/events.txt 32 44100 $out/stk.wav"
python3 - "$out/h.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
b, s = r[0]["median"], r[1]["median"]
print(f"median boop {b:.3f} s, STK {s:.3f} s, ratio boop/STK {b / s:.3f}")
PY
rm -rf "$out"
