#!/usr/bin/env bash
# `boop synth` on ALSA (the default backend) where there is no sequencer device, as on the build
# machines: one line saying so and exit 69, before any sound device is opened. Where
# /dev/snd/seq exists the check says plainly that it was skipped (the live path needs a sequencer
# client to play it). `play --midi-out` likewise. And `boop devices --json` stays one valid JSON array, MIDI ports included.
# Run by scripts/cli-tests.sh with BOOP, ROOT and WORK set. About 1 s.
set -uo pipefail
boop="$BOOP" root="$ROOT" work="$WORK/synth-alsa"
mkdir -p "$work"
failures=0
source "$root/scripts/cli-check.sh"

if [ -e /dev/snd/seq ]; then
  echo "SKIP synth without a sequencer: /dev/snd/seq exists on this machine (the no-sequencer line is not testable here)"
else
  for args in "" "--midi 14:0" "-D hw:99 --period-frames 128" "--record $work/take.wav"; do
    # shellcheck disable=SC2086
    if check "synth $args, no sequencer" 69 timeout 20 "$boop" synth --no-display $args; then
      grep -qx "boop: synth: no ALSA sequencer (/dev/snd/seq: No such file or directory); --backend jack plays from JACK MIDI instead" \
        "$work/stderr" || fail "synth $args: unexpected line: $(cat "$work/stderr")"
    fi
  done
fi

# play --midi-out on ALSA needs the sequencer too: one line and 69, no sound device opened; with
# --no-sound and --clock as well (ALSA takes them: a timer runs the clock, no PCM is opened).
if [ ! -e /dev/snd/seq ]; then
  for args in "" "--no-sound" "--no-sound --clock" "--clock -D hw:99"; do
    # shellcheck disable=SC2086
    if check "play --midi-out $args (ALSA), no sequencer" 69 timeout 20 "$boop" play "$root/examples/demo.json" --midi-out $args --no-display; then
      grep -qx "boop: --midi-out: no ALSA sequencer (/dev/snd/seq: No such file or directory); --backend jack sends JACK MIDI instead" \
        "$work/stderr" || fail "play --midi-out $args: unexpected line: $(cat "$work/stderr")"
    fi
  done
fi
check "play --no-sound without --midi-out" 64 "$boop" play "$root/examples/demo.json" --no-sound

# Flags of the other backend: usage errors (64), one line each.
check "synth --backend jack --midi" 64 "$boop" synth --backend jack --midi 14:0
check "synth --midi-connect (ALSA)" 64 "$boop" synth --midi-connect system:midi_capture_1
check "synth --period-frames 8" 64 "$boop" synth --period-frames 8
check "synth --record take.txt (ALSA)" 64 "$boop" synth --record "$work/take.txt"
[ ! -e "$work/take.wav" ] || fail "synth --record without a sequencer left $work/take.wav"

# devices --json: one array; every entry says its kind; MIDI entries carry the same fields.
if "$boop" devices --json >"$work/devices.json" 2>"$work/stderr"; then
  if python3 - "$work/devices.json" <<'PY'; then
import json, sys
items = json.load(open(sys.argv[1]))
assert isinstance(items, list), "not an array"
for d in items:
    assert d["kind"] in ("audio", "midi"), d
    assert d["backend"] in ("alsa", "jack"), d
    assert isinstance(d["name"], str) and isinstance(d["description"], str), d
    assert all(isinstance(d[k], bool) for k in ("playback", "capture", "default")), d
print("ok   devices --json: %d audio, %d MIDI entries, valid" % (
    sum(d["kind"] == "audio" for d in items), sum(d["kind"] == "midi" for d in items)))
PY
    :
  else
    fail "devices --json: not the expected JSON: $(head -c 300 "$work/devices.json")"
  fi
else
  fail "devices --json: exit $?: $(cat "$work/stderr")"
fi
"$boop" devices >"$work/devices.txt" 2>&1 && grep -q "^MIDI" "$work/devices.txt" ||
  fail "devices: no MIDI section: $(cat "$work/devices.txt")"

[ "$failures" -eq 0 ]
