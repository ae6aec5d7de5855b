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
# A program that drives --json and stops writing: a stop signal ends the wait for its answer at
# once (the read used to block until the writer closed the pipe), with the summary, status 0 and
# no file left behind. Stdin is a FIFO held open by this shell and never written.
signal_while_waiting() {
  local name=$1 dir="$work/wait-$1" fifo rc start
  shift
  mkdir -p "$dir" && fifo="$dir/answers" && mkfifo "$fifo"
  exec 7<>"$fifo"
  "$boop" "$@" --json --trials 3 --seed 2 --duration 0.1 --db "$dir/h.sqlite" -o "$dir/out.wav" <"$fifo" >"$dir/out" 2>"$dir/err" &
  local pid=$!
  exec 7>&-
  for _ in $(seq 600); do grep -q '"trial":1' "$dir/out" 2>/dev/null && break; sleep 0.1; done
  start=$(date +%s%N)
  kill -INT "$pid"
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  local ms=$((($(date +%s%N) - start) / 1000000))
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid"
    echo "FAIL  $name --json: still waiting for an answer 10 s after SIGINT"
    failures=$((failures + 1))
    return
  fi
  wait "$pid"
  rc=$?
  if [ "$rc" = 0 ] && tail -1 "$dir/out" | grep -q '"trials":0' && [ ! -s "$dir/err" ] &&
    [ "$(ls -A "$dir" | sort | tr '\n' ' ')" = "answers err h.sqlite out " ]; then
    echo "PASS  $name --json: SIGINT while waiting for an answer ends it in $ms ms, status 0, no file left"
  else
    echo "FAIL  $name --json SIGINT while waiting: rc $rc, $(tail -1 "$dir/out"), files: $(ls -A "$dir" | tr '\n' ' ')$(head -1 "$dir/err")"
    failures=$((failures + 1))
  fi
}
signal_while_waiting "train" train
signal_while_waiting "train interval" train interval
# The terminal's way to answer, for both exercises: one key per answer, r replays, q ends.
python3 "$root/scripts/train-keys.py" "$boop" "$work/keys" || failures=$((failures + 1))
exit $((failures > 0))
