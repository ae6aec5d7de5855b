#!/usr/bin/env bash
# boop train interval --json answered by simulated listeners (scripts/train-sim.py --exercise
# interval): within 1.3x of their true 75 % point in at least 70 % of 40-trial sessions, and a
# malformed answer refused with one line; both exercises answered by single keys in a
# pseudo-terminal. About 15 s of CPU.
# Run by scripts/cli-tests.sh with BOOP, ROOT and WORK set.
set -uo pipefail
boop="$BOOP" root="$ROOT" work="$WORK/interval"
mkdir -p "$work"
failures=0
if python3 "$root/scripts/train-sim.py" "$boop" "$work" --sessions 30 --exercise interval --check-wav 0; then
  echo "PASS  boop train interval: simulated listeners"
else
  echo "FAIL  boop train interval: simulated listeners (see above)"
  failures=$((failures + 1))
fi
printf 'wider\nsideways\n' | "$boop" train interval --json --trials 5 --seed 1 -o "$work/a.wav" >"$work/a.out" 2>"$work/a.err"
rc=$?
if [ "$rc" = 65 ] && [ "$(wc -l <"$work/a.err")" = 1 ] && grep -q 'expected wider, narrower or quit' "$work/a.err" &&
  [ "$(head -1 "$work/a.out" | python3 -c 'import json,sys; o=json.load(sys.stdin); print(len(o["first_hz"]), len(o["second_hz"]))')" = "2 2" ]; then
  echo "PASS  train interval: a malformed answer is 65 with one line; trials carry two frequencies per interval"
else
  echo "FAIL  train interval malformed answer: rc $rc, $(cat "$work/a.err")"
  failures=$((failures + 1))
fi
# The terminal's way to answer, for both exercises: one key per answer, r replays, q ends.
python3 "$root/scripts/train-keys.py" "$boop" "$work/keys" || failures=$((failures + 1))
exit $((failures > 0))
