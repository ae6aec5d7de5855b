#!/usr/bin/env bash
# `boop synth --mpe`: a malformed zone is one line naming the flag and what it expects, exit 64,
# before any client or device is opened; --help shows the flag. (The zones' sound is tested in
# SynthMpeTests.) Run by scripts/cli-tests.sh with BOOP, ROOT and WORK set. Under 1 s.
set -uo pipefail
boop="$BOOP" root="$ROOT" work="$WORK/synth-mpe"
mkdir -p "$work"
failures=0
source "$root/scripts/cli-check.sh"

for value in sideways lower:0 lower:16 upper:x both:3 "" lower:; do
  if check "synth --mpe '$value'" 64 timeout 20 "$boop" synth --backend jack --mpe "$value"; then
    grep -q -- "--mpe .*: expected lower\[:N\], upper\[:N\] (N 1 ... 15) or both$" "$work/stderr" ||
      fail "synth --mpe '$value': unexpected line: $(cat "$work/stderr")"
  fi
done

if "$boop" synth --help >"$work/help.txt" 2>&1 && grep -q -- "--mpe <lower\[:N\]|upper\[:N\]|both>" "$work/help.txt"; then
  echo "ok   synth --help shows --mpe"
else
  fail "synth --help: no --mpe"
fi

[ "$failures" -eq 0 ]
