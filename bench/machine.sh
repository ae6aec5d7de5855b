#!/usr/bin/env bash
# One line on the machine a figure was taken on, for the benchmark scripts: the CPU's model and
# vector extensions, the core count, the file system of the folder the outputs go to (a render's
# time includes the kernel's write into it), the load average, and the kernel the engine runs.
#
# The engine has two builds of each vector kernel: AVX2 + FMA, taken where the CPU has both, and
# the x86-64 baseline (SSE), taken elsewhere or when BOOP_NO_AVX2 is set (dsp/SimdTypes.hpp,
# simd::useAvx2). An AVX-512 CPU runs the AVX2 kernels (there are no AVX-512 ones; setting
# BOOP_NO_AVX512 changes nothing), so a figure from it is an AVX2 figure on a faster core.
#
# Usage: bench/machine.sh [FOLDER]   (default: the current folder)
set -euo pipefail
folder="${1:-.}"
model="$(lscpu | sed -n 's/^Model name: *//p' | head -n 1)"
flags="$(grep -m 1 '^flags' /proc/cpuinfo || true)"
has() { case " ${flags#*:} " in *" $1 "*) return 0 ;; esac; return 1; }
vector=""
for f in avx2 fma avx512f; do has "$f" && vector="$vector $f"; done
if has avx2 && has fma && [ -z "${BOOP_NO_AVX2:-}" ]; then
  kernel="AVX2 + FMA"
elif [ -n "${BOOP_NO_AVX2:-}" ]; then
  kernel="baseline (BOOP_NO_AVX2 set)"
else
  kernel="baseline (no AVX2 + FMA)"
fi
fs="$(df -T "$folder" | awk 'NR == 2 { print $2 " (" $1 ")" }')"
load="$(cut -d ' ' -f 1-3 /proc/loadavg)"
echo "machine: ${model:-unknown CPU}, $(nproc) cores, vector:${vector:- none}; kernel: $kernel;" \
  "output folder $folder on $fs; load $load"
