#!/usr/bin/env bash
# Live status lines and keys as a terminal shows them (scripts/terminal-checks.py: a
# pseudo-terminal read through pyte); devices hides ALSA's converter plugins unless --all; shell completion offers the preset names; a
# terminal that stops reading never stops the live commands (scripts/screen-stall-test.py); nor does
# a terminal of another user (scripts/other-user-tests.py).
# Run by scripts/cli-tests.sh with BOOP, ROOT and WORK set.
set -uo pipefail
boop="$BOOP"
failures=0
pass() { echo "PASS  $1"; }
fail() { echo "FAIL  $1"; failures=$((failures + 1)); }

python3 "$ROOT/scripts/terminal-checks.py" "$boop" || failures=$((failures + 1))

# devices: the converter plugins only with --all.
names=$("$boop" devices --json | python3 -c "import json,sys; print(' '.join(d['name'] for d in json.load(sys.stdin)))")
all=$("$boop" devices --json --all | python3 -c "import json,sys; print(' '.join(d['name'] for d in json.load(sys.stdin)))")
hidden=0
for n in $names; do
  case "${n%%:*}" in lavrate* | samplerate* | speexrate* | upmix | vdownmix | speex | a52 | dca | usbstream) hidden=1 ;; esac
done
if [ "$hidden" = 0 ] && echo " $names " | grep -q " default " && { ! aplay -L 2>/dev/null | grep -qx pulse || echo " $names " | grep -q " pulse "; } &&
  { ! aplay -L 2>/dev/null | grep -qx lavrate || echo " $all " | grep -q " lavrate "; }; then
  pass "devices: no converter plugins ($names); --all lists them ($all)"
else
  fail "devices: $names / --all: $all"
fi

# Shell completion: --preset offers the bundled names.
for shell in bash zsh fish; do
  script=$("$boop" --generate-completion-script "$shell")
  missing=""
  for p in $("$boop" ambient --list | awk '{print $1}'); do
    grep -q -- "$p" <<<"$script" || missing="$missing $p"
  done
  [ -z "$missing" ] && pass "$shell completion offers the preset names" || fail "$shell completion lacks:$missing"
done

# The README states the --voices range the binary takes.
root="$ROOT"
range=$(grep -o '`--voices`, default 8, 1…[0-9]* on the command line' "$root/README.md" | grep -o '1…[0-9]*')
top=${range#1…}
if [ -n "$top" ] && "$boop" render "$root/examples/demo.json" -o "$WORK/voices.wav" --voices "$top" 2>/dev/null &&
  ! "$boop" render "$root/examples/demo.json" -o "$WORK/voices.wav" --voices "$((top + 1))" 2>/dev/null; then
  pass "README's --voices range ($range) is what render takes"
else
  fail "README's --voices range '$range' is not what render takes"
fi

# A terminal that stops reading (12 s here: its buffers fill within the first seconds; the stall
# stage holds 30 s and times every note) never stops edit, play or ambient: keys still act, q
# exits in seconds, stdout stays blocking, and the screen catches up once read.
python3 "$ROOT/scripts/screen-stall-test.py" "$boop" "$WORK" 12 || failures=$((failures + 1))

# A terminal the process may not open again (root's, with boop run as another user through
# setpriv or su): edit, job control, a stalled reader and play's view, through the inherited
# descriptor (scripts/other-user-tests.py; skipped, saying so, unless run as root).
python3 "$ROOT/scripts/other-user-tests.py" "$boop" "$WORK" || failures=$((failures + 1))

exit $((failures > 0))
