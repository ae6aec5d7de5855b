#!/usr/bin/env bash
# boop train identify and train degrees: simulated listeners through --json (scripts/ear-sim.py:
# confused pairs asked more often, perfect 100 %, guessing near chance), single keys in a
# pseudo-terminal (scripts/ear-keys.py), a malformed answer and a bad option refused with one
# line, and the per-item table of `stats --profile`. About 10 s of CPU.
# Run by scripts/cli-tests.sh with BOOP, ROOT and WORK set.
set -uo pipefail
boop="$BOOP" root="$ROOT" work="$WORK/train-identify"
rm -rf "$work" && mkdir -p "$work"
failures=0
python3 "$root/scripts/ear-sim.py" "$boop" "$work/sim" || failures=$((failures + 1))
python3 "$root/scripts/ear-keys.py" "$boop" "$work/keys" || failures=$((failures + 1))
printf 'M3\nsideways\n' | "$boop" train identify --json --trials 5 --seed 1 --db "$work/bad.sqlite" -o "$work/bad.wav" \
  >"$work/bad.out" 2>"$work/bad.err"
rc=$?
stored=$(sqlite3 "$work/bad.sqlite" 'SELECT count(*) FROM ear_trials' 2>/dev/null)
if [ "$rc" = 65 ] && [ "$(wc -l <"$work/bad.err")" = 1 ] && grep -q 'trial 2: expected one of m2' "$work/bad.err" &&
  [ "$stored" = 1 ]; then
  echo "PASS  train identify: a malformed answer is 65 with one line; the trial before it stored"
else
  echo "FAIL  train identify malformed answer: rc $rc, stored $stored, $(cat "$work/bad.err")"
  failures=$((failures + 1))
fi
"$boop" train degrees --key H --json --db "$work/bad.sqlite" </dev/null >"$work/key.out" 2>"$work/key.err"
rc=$?
if [ "$rc" = 64 ] && grep -q -- '--key H: expected one of C' "$work/key.err"; then
  echo "PASS  train degrees --key H: 64, naming the keys"
else
  echo "FAIL  train degrees --key H: rc $rc, $(cat "$work/key.err")"
  failures=$((failures + 1))
fi
"$boop" train stats --profile --db "$work/sim/identify-confuser.sqlite" >"$work/profile.out" 2>"$work/profile.err"
rc=$?
wide=$(awk 'length > 80' "$work/profile.out" | wc -l)
if [ "$rc" = 0 ] && [ "$wide" = 0 ] && grep -Eq '^ *M3 +[0-9]+ +[0-9]+ % +[0-9]+-[0-9]+ %' "$work/profile.out"; then
  echo "PASS  train stats --profile: per-item accuracy with Wilson intervals, within 80 columns"
else
  echo "FAIL  train stats --profile: rc $rc, $wide wide lines; $(head -c 600 "$work/profile.out") $(cat "$work/profile.err")"
  failures=$((failures + 1))
fi
"$boop" train stats --db "$work/sim/degrees-confuser.sqlite" >"$work/progress.out" 2>&1
rc=$?
if [ "$rc" = 0 ] && grep -q '^Naming scale degrees' "$work/progress.out" && [ "$(grep -Ec '^ +[0-9]+ +20[0-9-]+ [0-9:]+ +60 +[0-9]+ %$' "$work/progress.out")" = 4 ] &&
  ! grep -q 'No training sessions yet' "$work/progress.out"; then
  echo "PASS  train stats: the four degrees sessions listed with their share right"
else
  echo "FAIL  train stats with degrees sessions: rc $rc, $(head -c 400 "$work/progress.out")"
  failures=$((failures + 1))
fi
rows=$("$boop" train stats --csv --db "$work/sim/identify-confuser.sqlite" | python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
ok = all(r["exercise"] == "identify" and r["drill"] == "intervals" and r["correct"] == str(int(r["item"] == r["answer"]))
         and r["variant"] in ("up", "down", "harmonic") for r in rows)
print(len(rows) if ok else "bad")')
if [ "$rows" = 240 ]; then
  echo "PASS  train stats --csv: the 240 identify trials, item, answer and variant"
else
  echo "FAIL  train stats --csv: $rows"
  failures=$((failures + 1))
fi
exit $((failures > 0))
