#!/usr/bin/env bash
# What the disk costs a render: `boop render examples/demo.json --loops 40` (81 s of audio, a 28 MB
# float WAV) into a folder on a disk file system and into one on tmpfs, whole process, min /
# median / max of hyperfine's runs. With --vs OTHER_BOOP the two programs alternate on each
# folder (a before/after of a change).
#
# A render is renamed into place without waiting for the disk (docs/DESIGN.md, "Durability"): the
# two folders should differ by the kernel's copy into the page cache only, not by a flush.
#
# Usage: bench/render-disk.sh [--boop PATH] [--vs PATH] [--runs N] [--disk DIR] [--tmpfs DIR]
# Default: .build/release/boop, 15 runs, a new folder under /var/tmp (disk) and /dev/shm (tmpfs).
set -euo pipefail
cd "$(dirname "$0")/.."
boop=.build/release/boop vs="" runs=15 disk=/var/tmp tmpfs=/dev/shm
while [ $# -gt 0 ]; do
  case "$1" in
    --boop) boop="$2"; shift 2 ;;
    --vs) vs="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --disk) disk="$2"; shift 2 ;;
    --tmpfs) tmpfs="$2"; shift 2 ;;
    *) echo "render-disk: unknown argument $1" >&2; exit 64 ;;
  esac
done
command -v hyperfine >/dev/null || { echo "render-disk: needs hyperfine (apt-get install hyperfine)" >&2; exit 69; }
made=()
trap 'rm -rf "${made[@]}"' EXIT
printf '| program | folder | min | median | max |\n|---|---|---|---|---|\n' >&2
for root in "$disk" "$tmpfs"; do
  out="$(mktemp -d -p "$root")"
  made+=("$out")
  bench/machine.sh "$out" >&2
  commands=("$boop render examples/demo.json --loops 40 -q -o $out/a.wav")
  [ -z "$vs" ] || commands+=("$vs render examples/demo.json --loops 40 -q -o $out/b.wav")
  hyperfine -N --warmup 2 --runs "$runs" --export-json "$out/h.json" "${commands[@]}" >/dev/null
  python3 - "$out/h.json" "$(df -T "$out" | awk 'NR == 2 { print $2 }')" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    t = r["times"]
    prog = r["command"].split(" render ")[0]
    print(f"| {prog} | {sys.argv[2]} | {min(t) * 1000:.0f} ms | **{r['median'] * 1000:.0f} ms** | {max(t) * 1000:.0f} ms |")
PY
done
