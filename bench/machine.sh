#!/usr/bin/env bash
# One line on the machine a figure was taken on, for the benchmark scripts: the CPU's model and
# vector extensions (AVX2, AVX-512: the engine's kernels differ), the core count, and the file
# system of the folder the outputs go to (a render's time includes the kernel's write into it).
#
# Usage: bench/machine.sh [FOLDER]   (default: the current folder)
set -euo pipefail
folder="${1:-.}"
model="$(lscpu | sed -n 's/^Model name: *//p' | head -n 1)"
flags="$(grep -m 1 '^flags' /proc/cpuinfo || true)"
vector=""
for f in avx2 avx512f; do
  case " ${flags#*:} " in *" $f "*) vector="$vector $f" ;; esac
done
fs="$(df -T "$folder" | awk 'NR == 2 { print $2 " (" $1 ")" }')"
echo "machine: ${model:-unknown CPU}, $(nproc) cores, vector:${vector:- none}; output folder $folder on $fs"
