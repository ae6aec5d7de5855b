#!/usr/bin/env bash
# `boop synth`'s sound options, refused before any sound device or server is opened: --instruments
# (a missing file 66, a version-1 pattern 65), --channel (a song track without --instruments, an
# unknown sound: 64), --lookahead and --name (64), each one stderr line; and the help's table of
# MIDI messages and the Program Change map. Run by scripts/cli-tests.sh with BOOP, ROOT and WORK
# set. About 1 s.
set -uo pipefail
boop="$BOOP" root="$ROOT" work="$WORK/synth-palette"
mkdir -p "$work"
failures=0
source "$root/scripts/cli-check.sh"

for backend in alsa jack; do
  check "synth --backend $backend --instruments missing.json" 66 \
    "$boop" synth --backend "$backend" --no-display --instruments "$work/missing.json"
  grep -q -- "--instruments" "$work/stderr" || fail "--instruments missing: the line names no option"
  check "synth --backend $backend --instruments a version-1 pattern" 65 \
    "$boop" synth --backend "$backend" --no-display --instruments "$root/examples/demo.json"
done
check "synth --channel 1=rhythm without --instruments" 64 "$boop" synth --channel 1=rhythm
check "synth --channel 1=kazoo" 64 "$boop" synth --channel 1=kazoo
check "synth --channel 17=sine" 64 "$boop" synth --channel 17=sine
check "synth --lookahead 2" 64 "$boop" synth --lookahead 2
check "synth --name a:b" 64 "$boop" synth --backend jack --name a:b
check "synth --name ''" 64 "$boop" synth --backend jack --name ''

if "$boop" synth --help >"$work/help.txt" 2>&1; then
  for line in "CC 10 (pan)" "CC 120 (all sound off)" "CC 123 (all notes off)" "channel pressure (aftertouch)" \
    "synth lead: 80 pulse, 81-87 saw" "bass: 32-39 sub"; do
    grep -qF "$line" "$work/help.txt" || fail "synth --help: no '$line'"
  done
  echo "ok   synth --help lists the MIDI messages and the Program Change map"
else
  fail "synth --help: exit $?"
fi

[ "$failures" -eq 0 ]
