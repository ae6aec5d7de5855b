#!/usr/bin/env bash
# One source for every limit: the ranges the command line and the song loader accept, name in their
# messages and show in --help are the C header's (CAudioEngineLimits.h: named bounds and the
# BOOP_LIMITS table), and the README's "Limits" table quotes the same numbers. Each option or song
# field is tried one past each end (exit 64 for an option, 65 for a song; one line naming the
# range) and at its ends (accepted).
# Run by scripts/cli-tests.sh with BOOP, ROOT and WORK set.
set -uo pipefail
boop="$BOOP" root="$ROOT" work="$WORK/limits"
mkdir -p "$work"
failures=0
demo="$root/examples/demo.json"
source "$root/scripts/cli-check.sh"

# The value of a #define in the header, as written (parentheses dropped).
header="$root/Sources/CAudioEngine/include/CAudioEngineLimits.h"
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

# ---- The table (BOOP_LIMITS): every row the command line or a song file reaches ----
# "NAME MIN MAX DEFAULT" per row, a bound named by a #define resolved, whole numbers without ".0".
python3 - "$header" >"$work/rows" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
defs = dict(re.findall(r"^#define (BOOP_\w+) \(?([-\d.]+)\)?\s*$", text, re.M))
def value(token):
    v = float(defs.get(token.strip(), token.strip()))
    return str(int(v)) if v == int(v) else repr(v)
for m in re.finditer(r"^\s*X\((\w+), ([^,]+), ([^,]+), ([^,]+), \"", text, re.M):
    print(m.group(1), value(m.group(2)), value(m.group(3)), value(m.group(4)))
PY
[ "$(wc -l <"$work/rows")" -ge 50 ] || fail "the header's table read as $(wc -l <"$work/rows") rows"
row() { awk -v n="$1" '$1 == n' "$work/rows"; }
lo() { row "$1" | cut -d' ' -f2; }
hi() { row "$1" | cut -d' ' -f3; }
text() { echo "$(lo "$1")...$(hi "$1")"; }
# One past an end: 1 for a row of whole numbers, a thousandth of the range for the others.
past() {  # past NAME below|above
  python3 -c 'import sys
lo, hi = float(sys.argv[1]), float(sys.argv[2])
step = 1 if lo == int(lo) and hi == int(hi) and hi - lo >= 2 else (hi - lo) / 1000
v = lo - step if sys.argv[3] == "below" else hi + step
print(int(v) if v == int(v) else round(v, 9))' "$(lo "$1")" "$(hi "$1")" "$2"
}

# A one-step song with SET applied (d is the song, n its melody note), written to FILE.
song() {  # song FILE SET
  python3 - "$1" "$2" <<'PY'
import json, sys
n = {"step": 0, "pitch": 60}
d = {"version": 2, "bpm": 200, "instruments": {"melody": {"voice": "pulse"}},
     "patterns": {"p": {"length": 1, "tracks": {"melody": [n]}}}}
exec(sys.argv[2], {"d": d, "n": n})
json.dump(d, open(sys.argv[1], "w"))
PY
}
too65() {
  local name="$1" expected="$2"; shift 2
  check "$name" 65 "$@" || return
  grep -qF -- "$expected" "$work/stderr" || fail "$name: the message does not name $expected: $(cat "$work/stderr")"
}
# field NAME SET EXT: SET (V: the value) one past each end is 65 naming the range; each end renders.
field() {
  local name="$1" set="$2" ext="$3" v end
  for end in below above; do
    v="$(past "$name" "$end")"
    song "$work/s.json" "${set//V/$v}"
    too65 "song $name $end ($v)" "$(text "$name")" "$boop" render "$work/s.json" -o "$work/s.$ext" -q
  done
  for v in "$(lo "$name")" "$(hi "$name")"; do
    song "$work/s.json" "${set//V/$v}"
    check "song $name at $v" 0 "$boop" render "$work/s.json" -o "$work/s.$ext" -q
  done
}

field INSTRUMENT_WIDTH 'd["instruments"]["melody"]["width"] = V' wav
field INSTRUMENT_ATTACK 'd["instruments"]["melody"]["attack"] = V' wav
field INSTRUMENT_DECAY 'd["instruments"]["melody"]["decay"] = V' wav
field INSTRUMENT_SUSTAIN 'd["instruments"]["melody"]["sustain"] = V' wav
field INSTRUMENT_RELEASE 'd["instruments"]["melody"]["release"] = V' wav
field INSTRUMENT_CUTOFF 'd["instruments"]["melody"]["cutoff"] = V' wav
field INSTRUMENT_RESONANCE 'd["instruments"]["melody"]["resonance"] = V' wav
field INSTRUMENT_PAN 'd["instruments"]["melody"]["pan"] = V' wav
field TRACK_LEVEL 'd["instruments"]["melody"]["level"] = V' wav
field MIDI_NOTE 'n["pitch"] = V' wav
field MIDI_VELOCITY 'n["velocity"] = V' mid
field NOTE_PROBABILITY 'n["probability"] = V' mid
field NOTE_RATCHET 'n["ratchet"] = V' mid
field PATTERN_STEPS 'd["patterns"]["p"]["length"] = V' mid
field SONG_SWING 'd["swing"] = V' mid
field CHAIN_REPEATS 'd["song"] = [{"pattern": "p", "repeat": V}]' mid
field CHAIN_TRANSPOSE 'd["song"] = [{"pattern": "p", "transpose": V}]' mid
# Counts: one more pattern or chain entry than the most is 65 naming the most; the most renders.
for what in SONG_PATTERNS SONG_CHAIN; do
  most="$(hi "$what")"
  case "$what" in
    SONG_PATTERNS) set='d["patterns"].update({f"q{i}": {"length": 1} for i in range(N - 1)})' ;;
    *) set='d["song"] = [{"pattern": "p"}] * N' ;;
  esac
  song "$work/s.json" "${set//N/$((most + 1))}"
  too65 "song $what: $((most + 1))" "$most" "$boop" render "$work/s.json" -o "$work/s.mid" -q
  song "$work/s.json" "${set//N/$most}"
  check "song $what: $most" 0 "$boop" render "$work/s.json" -o "$work/s.mid" -q
done

# option NAME OPTION COMMAND...: one past each end of the row is 64 naming its range.
option() {
  local name="$1" opt="$2" v end
  shift 2
  for end in below above; do
    v="$(past "$name" "$end")"
    too "$2 $opt $end ($v)" "$(text "$name")" "$@" "$opt" "$v"
  done
}
db="$work/train.db"
option TRAIN_GAP --gap "$boop" train --json --db "$db"
option TRAIN_REFERENCE_HZ --reference "$boop" train --json --db "$db"
option TRAIN_MAX_CENTS --max-cents "$boop" train --json --db "$db"
option TRAIN_TRIALS --trials "$boop" train --json --db "$db"
option TRAIN_NOTE_SECONDS --duration "$boop" train --json --db "$db"
too "train interval --max-cents above" "$(lo TRAIN_INTERVAL_CENTS)...$(hi TRAIN_INTERVAL_CENTS)" \
  "$boop" train interval --json --db "$db" --interval P5 --max-cents "$(past TRAIN_INTERVAL_CENTS above)"
option TONE_REFERENCE_HZ --reference "$boop" tone A4 -o "$work/t.wav"
option TONE_CENTS --cents "$boop" tone A4 -o "$work/t.wav"
option AMBIENT_SECONDS --duration "$boop" ambient -o "$work/a.wav"
option LISTEN_SECONDS --duration "$boop" listen
# The ends are taken: a session of one trial answered "quit", a tone, an ambient piece.
quit() { echo quit | "$@"; }
for pair in TRAIN_GAP:--gap TRAIN_REFERENCE_HZ:--reference TRAIN_MAX_CENTS:--max-cents TRAIN_TRIALS:--trials \
  TRAIN_NOTE_SECONDS:--duration; do
  name="${pair%%:*}" opt="${pair#*:}"
  for v in "$(lo "$name")" "$(hi "$name")"; do
    check "train $opt $v" 0 quit "$boop" train --json --db "$db" -o "$work/tr.wav" "$opt" "$v"
  done
done
check "train interval --max-cents $(hi TRAIN_INTERVAL_CENTS)" 0 quit "$boop" train interval --json --db "$db" \
  -o "$work/ti.wav" --interval P5 --max-cents "$(hi TRAIN_INTERVAL_CENTS)"
for v in "$(lo TONE_REFERENCE_HZ)" "$(hi TONE_REFERENCE_HZ)"; do
  check "tone --reference $v" 0 "$boop" tone A4 --duration 0.1 -o "$work/t.wav" -q --reference "$v"
done
for v in "$(lo TONE_CENTS)" "$(hi TONE_CENTS)"; do
  check "tone --cents $v" 0 "$boop" tone A4 --duration 0.1 -o "$work/t.wav" -q --cents "$v"
done
check "ambient --duration $(lo AMBIENT_SECONDS)" 0 "$boop" ambient -o "$work/a.wav" -q --duration "$(lo AMBIENT_SECONDS)"


echo "limits checks: $failures failure(s)"
exit $((failures > 0))
