#!/usr/bin/env bash
# The terminal can never stall the sound: scripts/stall-tests.py (which says what it checks) on a
# private PulseAudio null sink (scripts/pulse-null-sink.sh) through ALSA's `pulse` PCM.
#
#   scripts/stall-tests.sh BOOP [CASE...]     default: edit, play, edit-nice, play-nice (about 3 minutes)
#
# The server is stopped by its PID on exit, whatever happens.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BOOP=${1:?usage: $0 BOOP [CASE...]}
shift
WORK=$(mktemp -d /tmp/boop-stall.XXXXXX)
cleanup() {
    "$ROOT/scripts/pulse-null-sink.sh" stop "$WORK/pulse" >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT
export BOOP_PULSE_OWNER=$$
eval "$("$ROOT/scripts/pulse-null-sink.sh" start "$WORK/pulse")" || { echo "cannot start PulseAudio" >&2; exit 1; }
python3 "$ROOT/scripts/stall-tests.py" "$BOOP" "$WORK/cases" "$@"
