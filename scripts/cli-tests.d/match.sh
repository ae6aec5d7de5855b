#!/usr/bin/env bash
# boop train match --input against simulated singers (scripts/sim-singer.py: voice-like notes off
# their references by known cents, vibrato, jitter, breath noise, scoops, some an octave down,
# 20 dB SNR): per-note errors, session bias and spread, octaves. About 20 s.
# Run by scripts/cli-tests.sh with BOOP, ROOT and WORK set.
set -uo pipefail
boop="$BOOP" root="$ROOT" work="$WORK/match"
mkdir -p "$work"
failures=0
python3 "$root/scripts/sim-singer.py" "$boop" "$work" --sessions 3 || failures=$((failures + 1))

# A file that is not a WAV: one line naming it, no result lines.
echo "not audio" >"$work/bad.wav"
"$boop" train match --json --input "$work/bad.wav" --references A4 >"$work/bad.out" 2>"$work/bad.err"
rc=$?
if [ "$rc" != 0 ] && [ "$(wc -l <"$work/bad.err")" = 1 ] && grep -q 'bad.wav' "$work/bad.err" && [ ! -s "$work/bad.out" ]; then
  echo "PASS  a file that is not a WAV: exit $rc, one line"
else
  echo "FAIL  not a WAV: rc $rc, $(cat "$work/bad.err")"
  failures=$((failures + 1))
fi
exit $((failures > 0))
