#!/usr/bin/env bash
# One source for every limit: the ranges the command line accepts, names in its messages and
# shows in --help are the C header's constants, and the README's "Limits" table quotes the same
# numbers. Each option is tried one past each end (exit 64, one line naming the range) and at
# its ends where that is cheap (accepted).
# Run by scripts/cli-tests.sh with BOOP, ROOT and WORK set.
set -uo pipefail
boop="$BOOP" root="$ROOT" work="$WORK/limits"
mkdir -p "$work"
failures=0
demo="$root/examples/demo.json"
source "$root/scripts/cli-check.sh"

# The value of a #define in the header, as written (parentheses dropped).
header="$root/Sources/CAudioEngine/include/CAudioEngine.h"
macro() { sed -n "s/^#define $1 (\{0,1\}\([^ )]*\)\(.*\)/\1/p" "$header"; }
# Whole numbers without ".0", as the messages write them.
num() { python3 -c 'import sys; v = float(sys.argv[1]); print(int(v) if v == int(v) else v)' "$1"; }
range() { echo "$(num "$(macro "$1")")...$(num "$(macro "$2")")"; }

# too NAME RANGE COMMAND...: exit 64, and the one line names RANGE.
too() {
  local name="$1" expected="$2"; shift 2
  check "$name" 64 "$@" || return
  grep -qF "expected" "$work/stderr" && grep -qF -- "$expected" "$work/stderr" ||
    fail "$name: the message does not name $expected: $(cat "$work/stderr")"
}

rate=$(range BOOP_ENGINE_RATE_MIN BOOP_ENGINE_RATE_MAX)
voices=$(range BOOP_ENGINE_VOICES_MIN BOOP_ENGINE_VOICES_MAX)
period=$(range BOOP_PERIOD_FRAMES_MIN BOOP_PERIOD_FRAMES_MAX)
periods=$(range BOOP_PERIODS_MIN BOOP_PERIODS_MAX)
gain=$(range BOOP_GAIN_DB_MIN BOOP_GAIN_DB_MAX)
bpm=$(range BOOP_TEMPO_BPM_MIN BOOP_TEMPO_BPM_MAX)
loops=$(range BOOP_LOOPS_MIN BOOP_LOOPS_MAX)
toneHz=$(range BOOP_TONE_HZ_MIN BOOP_TONE_HZ_MAX)
toneS=$(range BOOP_TONE_SECONDS_MIN BOOP_TONE_SECONDS_MAX)
window=$(range BOOP_PITCH_WINDOW_MIN BOOP_PITCH_WINDOW_MAX)
channels="1...$(macro BOOP_DEVICE_CHANNELS_MAX)"
fileRate=$(range BOOP_FILE_RATE_MIN BOOP_FILE_RATE_MAX)
fileChannels="1...$(macro BOOP_FILE_CHANNELS_MAX)"
below() { echo "${1%%...*}"; }
above() { echo "${1##*...}"; }
plus() { python3 -c 'import sys; print(float(sys.argv[1]) + float(sys.argv[2]))' "$1" "$2" | sed 's/\.0$//'; }

out="$work/x.wav"
too "render -r below" "$rate" "$boop" render "$demo" -o "$out" -r "$(plus "$(below "$rate")" -1)"
too "render -r above" "$rate" "$boop" render "$demo" -o "$out" -r "$(plus "$(above "$rate")" 1)"
too "tone -r above" "$rate" "$boop" tone A4 -o "$out" -r "$(plus "$(above "$rate")" 1)"
too "ambient -r above" "$rate" "$boop" ambient --duration 1 -o "$out" -r "$(plus "$(above "$rate")" 1)"
too "render --voices below" "$voices" "$boop" render "$demo" -o "$out" --voices "$(plus "$(below "$voices")" -1)"
too "render --voices above" "$voices" "$boop" render "$demo" -o "$out" --voices "$(plus "$(above "$voices")" 1)"
too "edit --voices above" "$voices" "$boop" edit "$work/e.json" --voices "$(plus "$(above "$voices")" 1)"
too "render --loops above" "$loops" "$boop" render "$demo" -o "$out" --loops "$(plus "$(above "$loops")" 1)"
too "render --bpm above" "$bpm" "$boop" render "$demo" -o "$out" --bpm "$(plus "$(above "$bpm")" 1)"
too "render --gain above" "$gain" "$boop" render "$demo" -o "$out" --gain "$(plus "$(above "$gain")" 0.5)"
too "play --period-frames above" "$period" "$boop" play "$demo" --period-frames "$(plus "$(above "$period")" 1)"
too "play --period-frames below" "$period" "$boop" play "$demo" --period-frames "$(plus "$(below "$period")" -1)"
too "play --periods above" "$periods" "$boop" play "$demo" --periods "$(plus "$(above "$periods")" 1)"
too "edit --period-frames above" "$period" "$boop" edit "$work/e.json" --period-frames "$(plus "$(above "$period")" 1)"
too "edit --periods below" "$periods" "$boop" edit "$work/e.json" --periods "$(plus "$(below "$periods")" -1)"
too "listen -c above" "$channels" "$boop" listen -c "$(plus "$(above "$channels")" 1)"
too "listen --buffer-frames above" "$window" "$boop" listen --buffer-frames "$(plus "$(above "$window")" 1)"
too "tone --duration above" "$toneS" "$boop" tone A4 -o "$out" --duration "$(plus "$(above "$toneS")" 1)"
too "tone frequency above" "$toneHz" "$boop" tone "$(plus "$(above "$toneHz")" 1)Hz" -o "$out"
# A negative number as the next word is the option's value, refused by its own range (not
# "Missing value", which hid what was typed and what is accepted).
too "render --bpm negative" "$bpm" "$boop" render "$demo" -o "$out" --bpm -120
too "tone --duration negative" "$toneS" "$boop" tone A4 -o "$out" --duration -1
too "render --loops negative" "$loops" "$boop" render "$demo" -o "$out" --loops -2
[ -e "$out" ] && fail "a refused command left $out"
check "tone --cents -20 --gap -0.05 (negative values taken)" 0 "$boop" tone A4 C5 --cents -20 --gap -0.05 --duration 0.1 \
  -o "$work/neg.wav" -q

# The ends themselves are taken.
check "render --voices at the maximum" 0 "$boop" render "$demo" -o "$work/max.wav" --voices "$(above "$voices")" -q
check "render -r at the minimum" 0 "$boop" render "$demo" -o "$work/min.wav" -r "$(below "$rate")" -q
check "render --gain at the minimum" 0 "$boop" render "$demo" -o "$work/g.wav" --gain "$(below "$gain")" -q

# --help shows the same ranges.
"$boop" render --help >"$work/help" 2>&1
for r in "$rate" "$voices" "$loops" "$bpm" "$gain"; do
  grep -qF -- "$r" "$work/help" && echo "ok   render --help shows $r" || fail "render --help does not show $r"
done
"$boop" play --help >"$work/help" 2>&1
for r in "$voices" "$period" "$periods"; do
  grep -qF -- "$r" "$work/help" && echo "ok   play --help shows $r" || fail "play --help does not show $r"
done

# The README's table quotes the header (with … for ...), row by row.
grep -E '^\| ' "$root/README.md" >"$work/table"
for r in "$rate" "$voices" "$period" "$periods" "$bpm" "$loops" "$toneHz" "$toneS" "$channels" "$window" \
  "$fileRate" "$fileChannels"; do
  quoted="${r/.../…}"
  grep -qF -- "$quoted" "$work/table" && echo "ok   README quotes $quoted" ||
    fail "README's limits table does not quote $quoted"
done
quotedGain="$(echo "${gain/.../…}" | sed 's/^-/−/')"
grep -E '^\| gain ' "$work/table" >"$work/gain-row"
grep -qF -- "$quotedGain" "$work/gain-row" && echo "ok   README quotes $quotedGain" || fail "README's limits table does not quote $quotedGain"

echo "limits checks: $failures failure(s)"
exit $((failures > 0))
