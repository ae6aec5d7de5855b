#!/usr/bin/env bash
# Live tests of sound that survives a stopped process (SIGSTOP for 15 s, as a suspended laptop or a
# debugger does) and of reconnection when the server really goes away, on private PulseAudio null
# sinks (scripts/pulse-null-sink.sh) through ALSA's `pulse` PCM; each case is one run of
# scripts/suspend-live-test.py (which says what it checks).
#
#   scripts/suspend-tests.sh BOOP [CASE...]     default: every case (about 3 minutes)
#
# Servers are stopped by their PID on exit, whatever happens.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BOOP=${1:?usage: $0 BOOP [CASE...]}
shift
CASES=("$@")
[[ ${#CASES[@]} == 0 ]] && CASES=(play ambient tone edit listen reconnect-ambient reconnect-edit late-device-edit)
WORK=$(mktemp -d /tmp/boop-suspend.XXXXXX)
export BOOP_KILL_DIR="$WORK/pulse-kill"

cleanup() {
    "$ROOT/scripts/pulse-null-sink.sh" stop "$WORK/pulse" >/dev/null 2>&1 || true
    "$ROOT/scripts/pulse-null-sink.sh" stop "$BOOP_KILL_DIR" >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT
source "$ROOT/scripts/live-lib.sh"

eval "$("$ROOT/scripts/pulse-null-sink.sh" start "$WORK/pulse")" || { echo "cannot start PulseAudio" >&2; exit 1; }
for c in "${CASES[@]}"; do
    echo "== $c"
    if out=$(python3 "$ROOT/scripts/suspend-live-test.py" "$BOOP" "$WORK/$c" "$c" 2>&1); then
        pass "${out#PASS  }"
    else
        failed "${out#FAIL  }"
    fi
done
echo "$PASSES passed, $FAILURES failed"
[[ $FAILURES == 0 ]]
