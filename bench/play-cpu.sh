#!/usr/bin/env bash
# CPU use of `boop play` while it plays, as a user meets it: a private PulseAudio null sink
# reached through ALSA's `pulse` PCM, the process's own user + system time from /proc/PID/stat
# over SECONDS (after one second of start-up). Once with the view off (--no-display) and once
# with the 60 fps view, inside a pseudo-terminal (script(1)).
#
# Usage: bench/play-cpu.sh [--boop PATH] [--seconds N] [PATTERN]
set -euo pipefail
cd "$(dirname "$0")/.."
boop="" seconds=30 pattern=examples/demo.json
while [ $# -gt 0 ]; do
  case "$1" in
    --boop) boop="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    *) pattern="$1"; shift ;;
  esac
done
if [ -z "$boop" ]; then
  command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
  make -s build >/dev/null
  boop=.build-install/release/boop
fi
boop="$(realpath "$boop")"
work="$(mktemp -d)"
cleanup() { scripts/pulse-null-sink.sh stop "$work/pulse" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
eval "$(scripts/pulse-null-sink.sh start "$work/pulse")" >/dev/null
tick="$(getconf CLK_TCK)"

# The CPU seconds (user + system) a process has used so far.
cpu_of() { awk -v t="$tick" '{ printf "%.3f", ($14 + $15) / t }' "/proc/$1/stat"; }

measure() {  # $1: label; the boop process must be running as the newest `boop`
  local pid a b
  sleep 1
  pid="$(pgrep -n -x boop)"
  a="$(cpu_of "$pid")"
  sleep "$seconds"
  if [ ! -e "/proc/$pid" ]; then
    echo "$1: boop play ended early: $(cat "$work/play.err" 2>/dev/null)" >&2
    return 1
  fi
  b="$(cpu_of "$pid")"
  kill -INT "$pid"
  awk -v a="$a" -v b="$b" -v s="$seconds" -v l="$1" 'BEGIN { printf "%s: %.2f %% of a core over %d s\n", l, (b - a) / s * 100, s }'
}

"$boop" play "$pattern" --device pulse --loops 10000 --no-display </dev/null >/dev/null 2>"$work/play.err" &
measure "boop play, view off"
wait || true
script -qfc "$boop play $pattern --device pulse --loops 10000" /dev/null </dev/null >/dev/null 2>&1 &
measure "boop play, 60 fps view"
wait || true
