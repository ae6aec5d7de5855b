#!/usr/bin/env bash
# `boop listen --midi-out`: bad options are one line and 64 before anything opens; on ALSA, one line
# and 69 (no sequencer here, or listen's MIDI is JACK's only); without a JACK server, one line and 69.
# The voice on JACK is scripts/jack_listen_midi_test.py's (scripts/jack-tests.sh).
# Run by scripts/cli-tests.sh with BOOP, ROOT and WORK set. About 1 s.
set -uo pipefail
boop="$BOOP" root="$ROOT" work="$WORK/listen-midi"
mkdir -p "$work"
failures=0
source "$root/scripts/cli-check.sh"

expect_line() { # NAME TEXT: the check's one stderr line holds TEXT
  grep -qF -- "$2" "$work/stderr" || fail "$1: expected \"$2\" in: $(cat "$work/stderr")"
}

while IFS='|' read -r args text; do
  # shellcheck disable=SC2086
  check "listen $args" 64 timeout 20 "$boop" listen --backend jack $args && expect_line "listen $args" "$text"
done <<'CASES'
--midi-connect x:midi_in|only with --midi-out
--channel 2|only with --midi-out
--bend-range 12|only with --midi-out
--min-frequency 90|only with --midi-out
--midi-out --channel 0|--channel 0: expected 1-16
--midi-out --channel 17|--channel 17: expected 1-16
--midi-out --mpe --channel 2|--channel and --mpe: expected at most one of them
--mpe|only with --midi-out
--midi-out --bend-range 0|--bend-range 0.0: expected more than 0 and at most 24 semitones
--midi-out --bend-range 25|--bend-range 25.0: expected more than 0
--midi-out --bend-range nan|--bend-range
--midi-out --min-frequency 20|--min-frequency 20.0: expected 50-400 Hz
--midi-out --name a:b|--name a:b: expected a JACK client name
--midi-out --settle 201|--settle 201.0: expected 0-200 milliseconds
--midi-out --settle -1|--settle -1.0: expected 0-200 milliseconds
--settle 60|only with --midi-out
--midi-out --raw|--raw, --samples, -o and --buffer-frames do not go with it
--midi-out -o take.wav|--raw, --samples, -o and --buffer-frames do not go with it
--midi-out --buffer-frames 1024|--raw, --samples, -o and --buffer-frames do not go with it
CASES

if [ ! -e /dev/snd/seq ]; then
  check "listen --midi-out (ALSA), no sequencer" 69 timeout 20 "$boop" listen --midi-out &&
    expect_line "listen --midi-out (ALSA)" "--midi-out: no ALSA sequencer (/dev/snd/seq"
else
  check "listen --midi-out (ALSA)" 69 timeout 20 "$boop" listen --midi-out &&
    expect_line "listen --midi-out (ALSA)" "listen sends its notes on JACK only"
fi

# No server of this name: the JACK client cannot open.
JACK_DEFAULT_SERVER="boop-none-$$" check "listen --midi-out, no JACK server" 69 timeout 20 "$boop" listen --midi-out \
  --backend jack && expect_line "listen --midi-out, no JACK server" "JACK"
[ -e "$work/take.wav" ] && fail "listen --midi-out -o: wrote take.wav"
exit $((failures > 0))
