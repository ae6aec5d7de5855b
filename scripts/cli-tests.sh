#!/usr/bin/env bash
# Command-line contract checks on the built binary: exit codes, one-line errors, no partial files,
# byte-identical renders. Usage: scripts/cli-tests.sh path/to/boop
set -uo pipefail
boop="${1:?usage: cli-tests.sh path/to/boop}"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The training commands keep a history by default: here, never in the user's own.
export XDG_DATA_HOME="$work/data"
failures=0

check() {  # check NAME EXPECTED_STATUS COMMAND...
  local name="$1" expected="$2"
  shift 2
  "$@" >"$work/stdout" 2>"$work/stderr"
  local status=$?
  if [ "$status" -ne "$expected" ]; then
    echo "FAIL $name: exit $status, expected $expected; stderr: $(head -c 300 "$work/stderr")"
    failures=$((failures + 1))
    return 1
  fi
  if [ "$expected" -ne 0 ] && [ "$(wc -l <"$work/stderr")" -ne 1 ]; then
    echo "FAIL $name: expected exactly one line on stderr, got: $(cat "$work/stderr")"
    failures=$((failures + 1))
    return 1
  fi
  echo "ok   $name (exit $status) $(head -c 160 "$work/stderr")"
}

no_file() {  # no_file NAME PATH
  if ls "$2"* >/dev/null 2>&1; then
    echo "FAIL $1: output left behind: $(ls "$2"*)"
    failures=$((failures + 1))
  fi
}

# The scripts in cli-tests.d run at once, each in a folder (and a training history) of its own:
# they spend their time waiting on boop (a pseudo-terminal's redraw, a stalled reader, a private
# PulseAudio server), not computing (one after another: 285 s idle, for about 70 s of CPU), and none
# reads another's files. They start first and the checks below run meanwhile; each one's output
# is printed whole, in name order, once it and those before it have ended, with its own seconds.
# A piece that times boop against the wall clock (quit.sh: "ends within a second") waits for
# the others and runs alone: beside twenty-six pieces on two cores, a process waits its turn for
# the CPU longer than the second it is judged by, which would be our load, not boop's answer.
timed_pieces=" quit "
run_piece() {  # run_piece SCRIPT DIR
  local started=$SECONDS
  XDG_DATA_HOME="$2/data" BOOP="$boop" ROOT="$root" WORK="$2" bash "$1" >"$2.log" 2>&1
  local rc=$?
  echo "---- $(basename "$1"): $((SECONDS - started)) s" >>"$2.log"
  return "$rc"
}
extras=() pids=() timed=()
for extra in "$root"/scripts/cli-tests.d/*.sh; do
  [ -e "$extra" ] || continue
  dir="$work/extra/$(basename "$extra" .sh)"
  mkdir -p "$dir"
  case "$timed_pieces" in *" $(basename "$extra" .sh) "*) timed+=("$extra") && continue ;; esac
  run_piece "$extra" "$dir" &
  extras+=("$dir") pids+=($!)
done

check "version" 0 "$boop" --version
check "help" 0 "$boop" --help
check "render demo" 0 "$boop" render "$root/examples/demo.json" -o "$work/a.wav" --loops 2
sleep 1  # different seconds: a timestamp in the file would show
check "render demo again" 0 "$boop" render "$root/examples/demo.json" -o "$work/b.wav" --loops 2
cmp -s "$work/a.wav" "$work/b.wav" && echo "ok   identical bytes for identical arguments" ||
  { echo "FAIL renders differ"; failures=$((failures + 1)); }
check "render s16 48k" 0 "$boop" render "$root/examples/minor-groove.json" -o "$work/c.wav" --sample-format s16 -r 48000
check "render flac" 0 "$boop" render "$root/examples/lullaby.json" -o "$work/d.flac" --sample-format s16

for f in "$root"/Tests/PixelBoopCoreTests/Fixtures/bad/*.json; do
  name="$(basename "$f" .json)"
  check "bad pattern $name" 65 "$boop" render "$f" -o "$work/bad-$name.wav"
  no_file "bad pattern $name" "$work/bad-$name.wav"
done
check "missing pattern" 66 "$boop" render "$work/nope.json" -o "$work/m.wav"
no_file "missing pattern" "$work/m.wav"
check "unwritable output" 73 "$boop" render "$root/examples/demo.json" -o "$work/no/such/dir/x.wav"
check "bad extension" 73 "$boop" render "$root/examples/demo.json" -o "$work/x.mp3"
check "--voices 0" 64 "$boop" render "$root/examples/demo.json" -o "$work/v.wav" --voices 0
check "--bpm 300" 64 "$boop" render "$root/examples/demo.json" -o "$work/v.wav" --bpm 300
check "--rate 1000" 64 "$boop" render "$root/examples/demo.json" -o "$work/v.wav" -r 1000
check "--sample-format s8" 64 "$boop" render "$root/examples/demo.json" -o "$work/v.wav" --sample-format s8
no_file "bad arguments" "$work/v.wav"

# Ctrl-C during a long render: exit 130 and no file.
"$boop" render "$root/examples/demo.json" --loops 5000 -o "$work/long.wav" 2>/dev/null &
pid=$!
# Once the render is under way (its temporary file exists), at most 60 s.
for _ in $(seq 1200); do
  compgen -G "$work/.boop-*" >/dev/null && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
kill -INT "$pid"
wait "$pid"
status=$?
[ "$status" -eq 130 ] && echo "ok   interrupted render exits 130" || { echo "FAIL interrupted render exit $status"; failures=$((failures + 1)); }
no_file "interrupted render" "$work/long.wav"

for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || failures=$((failures + 1))
  cat "${extras[$i]}.log"
done
for extra in "${timed[@]}"; do
  dir="$work/extra/$(basename "$extra" .sh)"
  run_piece "$extra" "$dir" || failures=$((failures + 1))
  cat "$dir.log"
done

if [ "$failures" -ne 0 ]; then
  echo "$failures command-line check(s) failed"
  exit 1
fi
echo "all command-line checks passed"
