#!/usr/bin/env bash
# Whole-process render speed, side by side with FluidSynth on the same notes: for each pattern,
# `boop render` to a WAV with the kernel this CPU takes (AVX2 + FMA where it has them), the same
# with the baseline kernel (BOOP_NO_AVX2=1), and FluidSynth (TimGM6mb, reverb and chorus off)
# rendering the MIDI file boop exports for the same loops. hyperfine alternates the three
# commands; the table gives boop's min/median/max, its real-time factor, the ratio of the medians
# boop / FluidSynth, and the baseline's median and its ratio to the first kernel's.
#
# The disk is part of the figure: both programs write their WAV into --dir (default: a new folder
# under $TMPDIR or /tmp), and the first lines say the CPU (model, AVX2/AVX-512) and that folder's
# file system. A render is not synced to the disk before its rename (docs/DESIGN.md, "Durability"),
# so a page-cache file system (ext4, tmpfs) shows the program, not the device.
#
# Usage: bench/render-vs-fluidsynth.sh [--boop PATH] [--loops N] [--runs N] [--dir DIR] [PATTERN ...]
# Default: the shipped boop built by `make` (static Swift runtime), 40 loops, 5 runs, the four
# examples, bench/dense-four.json and the version-2 song (examples/song.json: the instruments and
# kits). The first line says the CPU, the kernel and the load.
set -euo pipefail
cd "$(dirname "$0")/.."
boop="" loops=40 runs=5 dir=""
patterns=()
while [ $# -gt 0 ]; do
  case "$1" in
    --boop) boop="$2"; shift 2 ;;
    --loops) loops="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    *) patterns+=("$1"); shift ;;
  esac
done
[ ${#patterns[@]} -gt 0 ] || patterns=(examples/demo.json examples/arpeggio-133.json examples/minor-groove.json
  examples/lullaby.json bench/dense-four.json examples/song.json)
for tool in hyperfine fluidsynth; do
  command -v "$tool" >/dev/null || { echo "render-vs-fluidsynth: needs $tool (apt-get install $tool)" >&2; exit 69; }
done
soundfont=/usr/share/sounds/sf2/TimGM6mb.sf2
[ -f "$soundfont" ] || { echo "render-vs-fluidsynth: needs $soundfont (apt-get install timgm6mb-soundfont)" >&2; exit 69; }
if [ -z "$boop" ]; then
  command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
  make -s build >/dev/null
  boop=.build-install/release/boop
fi

out="$(mktemp -d ${dir:+-p "$dir"})"
trap 'rm -rf "$out"' EXIT
bench/machine.sh "$out"
printf '| pattern | audio | boop min / median / max | real time | FluidSynth | boop / FluidSynth | baseline kernel | baseline / first |\n|---|---|---|---|---|---|---|---|\n'
for pattern in "${patterns[@]}"; do
  "$boop" render "$pattern" --loops "$loops" -o "$out/notes.mid"
  "$boop" render "$pattern" --loops "$loops" -o "$out/probe.wav"
  # scipy reads the float WAV that boop writes (Python's wave module reads integer PCM only).
  seconds="$(python3 -c 'import sys, scipy.io.wavfile as w; r, x = w.read(sys.argv[1], mmap=True); print(len(x) / r)' "$out/probe.wav" 2>/dev/null)"
  hyperfine -N --warmup 1 --runs "$runs" --export-json "$out/h.json" \
    "$boop render $pattern --loops $loops -o $out/boop.wav" \
    "env BOOP_NO_AVX2=1 $boop render $pattern --loops $loops -o $out/base.wav" \
    "fluidsynth -ni -R 0 -C 0 -F $out/fluidsynth.wav $soundfont $out/notes.mid" >/dev/null
  python3 - "$out/h.json" "$pattern" "$seconds" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
b, base, f = r[0]["median"], r[1]["median"], r[2]["median"]
lo, hi = min(r[0]["times"]), max(r[0]["times"])
audio = float(sys.argv[3])
print(f"| {sys.argv[2]} | {audio:.0f} s | {lo * 1000:.0f} / **{b * 1000:.0f}** / {hi * 1000:.0f} ms | {audio / b:.0f}x "
      f"| {f * 1000:.0f} ms | **{b / f:.3f}** | {base * 1000:.0f} ms | {base / b:.2f} |")
PY
done
