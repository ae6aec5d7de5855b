#!/usr/bin/env bash
# The trainer at its limits: listeners the range cannot measure (scripts/train-sim.py: guessing,
# a true threshold of 150 cents with the default 100-cent range and with --max-cents 400, 20 cents
# as before), sing-back scored as a musician would (scripts/sim-singer.py --render: a wrong note
# named and kept out of bias and spread, an octave displacement counted, a missing note that
# shifts nothing, FLAC input), and the small promises around them (a missing --input named, 66;
# stats agreeing with --csv; --max-cents bounds; train interval --feedback). About 40 s.
# Run by scripts/cli-tests.sh with BOOP, ROOT and WORK set.
set -uo pipefail
boop="$BOOP" root="$ROOT" work="$WORK/train-limits"
rm -rf "$work" && mkdir -p "$work"
failures=0
pass() { echo "PASS  $1"; }
fail() { echo "FAIL  $1"; failures=$((failures + 1)); }
sim="$root/scripts/train-sim.py"
singer="$root/scripts/sim-singer.py"

# Discrimination: a guesser is never given a threshold; 150 cents is beyond the default range, and
# measured (its interval holding 150 in most sessions) once the range reaches 400; 20 cents as ever.
python3 "$sim" "$boop" "$work/guess" --guess --sessions 10 --check-wav 0 --expect-above 1.0 &&
  pass "guessing listeners: at chance or above the range, no threshold" || fail "guessing listeners (see above)"
python3 "$sim" "$boop" "$work/g-int" --guess --sessions 6 --check-wav 0 --expect-above 1.0 --exercise interval &&
  pass "train interval, guessing listeners: no threshold" || fail "train interval guessing listeners (see above)"
python3 "$sim" "$boop" "$work/150" --true-threshold 150 --sessions 20 --check-wav 0 --expect-above 0.85 &&
  pass "150-cent listeners, default range: above the range" || fail "150-cent listeners, default range (see above)"
python3 "$sim" "$boop" "$work/150w" --true-threshold 150 --max-cents 400 --sessions 20 --check-wav 0 --expect-cover 0.6 &&
  pass "150-cent listeners, --max-cents 400: measured, the interval holding 150" || fail "150-cent listeners, --max-cents 400 (see above)"
python3 "$sim" "$boop" "$work/20" --true-threshold 20 --sessions 20 --check-wav 0 --expect-cover 0.6 &&
  pass "20-cent listeners: measured as before" || fail "20-cent listeners (see above)"

# --max-cents out of bounds: 64, one line naming the option and the bound.
"$boop" train --json --max-cents 2000 >/dev/null 2>"$work/m.err" </dev/null
rc=$?
[ "$rc" = 64 ] && [ "$(wc -l <"$work/m.err")" = 1 ] && grep -q -- '--max-cents 2000.0: expected 10...1200' "$work/m.err" &&
  pass "--max-cents 2000: 64, one line" || fail "--max-cents 2000: rc $rc, $(cat "$work/m.err")"
"$boop" train interval --json --interval m2 --max-cents 150 >/dev/null 2>"$work/mi.err" </dev/null
rc=$?
[ "$rc" = 64 ] && grep -q 'expected 10...100 cents for m2' "$work/mi.err" &&
  pass "train interval --interval m2 --max-cents 150: 64, bounded by the interval's width" ||
  fail "interval --max-cents: rc $rc, $(cat "$work/mi.err")"

# Sing-back: nine notes within 8 cents and one a semitone sharp.
db="$work/m.sqlite"
python3 "$singer" --render "$work/ten.wav" --seed 3 --sing C4:-8,D4:-5,E4:-2,F4:0,G4:+1,A4:+3,B4:+5,C5:+7,D5:+8,F#4:+100
"$boop" train match --json --input "$work/ten.wav" --references C4,D4,E4,F4,G4,A4,B4,C5,D5,F#4 --db "$work/ten.sqlite" \
  >"$work/ten.out"
python3 - "$work/ten.out" <<'PY' && pass "a note a semitone sharp: a wrong note named (sang G4 for F#4), bias and spread of the other nine" || fail "wrong note (see above)"
import json, statistics, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
notes = [o for o in lines if "judgement" in o]
s = lines[-1]
kept = [o["cents"] for o in notes if o["judgement"] != "wrong"]
assert s["wrong_notes"] == [{"trial": 10, "sung": "G4", "target": "F#4", "cents": notes[9]["cents"]}], s
assert s["trials"] == 9 and s["octave_displacements"] == [], s
assert abs(s["bias_cents"] - statistics.mean(kept)) < 0.01 and abs(s["spread_cents"] - statistics.stdev(kept)) < 0.01, s
assert abs(s["bias_cents"] - statistics.mean([-8, -5, -2, 0, 1, 3, 5, 7, 8])) < 1.5, s
PY
"$boop" train stats --json --db "$work/ten.sqlite" >"$work/ten-stats.json"
python3 - "$work/ten.out" "$work/ten-stats.json" <<'PY' && pass "stats counts the session as it did: 9 notes, the same bias and spread" || fail "stats of the wrong-note session (see above)"
import json, sys
s = [json.loads(l) for l in open(sys.argv[1])][-1]
m = json.load(open(sys.argv[2]))["match"]
assert len(m) == 1 and m[0]["notes"] == 9, m
assert abs(m[0]["bias_cents"] - s["bias_cents"]) < 0.01 and abs(m[0]["spread_cents"] - s["spread_cents"]) < 0.01, (m, s)
PY

# An octave down: counted apart (and shown), scored in its nearest octave.
python3 "$singer" --render "$work/oct.wav" --seed 4 --sing C4:+3,E4:-4,G4:+2:-1,C5:-1
"$boop" train match --input "$work/oct.wav" --references C4,E4,G4,C5 --db "$db" >"$work/oct.txt"
"$boop" train match --json --input "$work/oct.wav" --references C4,E4,G4,C5 --db "$db" | tail -1 >"$work/oct.json"
# (Text lines fit 80 columns: a longer one continues, indented, on the next.)
tr '\n' ' ' <"$work/oct.txt" | sed 's/  */ /g' | grep -q '1 note in another octave (scored in its nearest octave): trial 3 (an octave below)' &&
  ! awk 'length($0) >= 80 { bad = 1 } END { exit !bad }' "$work/oct.txt" &&
  grep -q '"octave_displacements":\[{"trial":3,"octave":-1}\]' "$work/oct.json" &&
  pass "a note an octave down: counted as an octave displacement" || fail "octave: $(tail -2 "$work/oct.txt") $(cat "$work/oct.json")"

# One note missing from the recording: the others keep their references, a warning on stderr.
python3 "$singer" --render "$work/miss.wav" --seed 5 --sing C4:+3,E4:-4,G4:+2,B4:-6,D5:+5,F4:-3,A4:+4
"$boop" train match --json --input "$work/miss.wav" --references C4,E4,G4,A3,B4,D5,F4,A4 --db "$db" \
  >"$work/miss.out" 2>"$work/miss.err"
rc=$?
python3 - "$work/miss.out" <<'PY' && [ "$rc" = 0 ] && [ "$(wc -l <"$work/miss.err")" = 1 ] &&
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
got = {o["trial"]: o for o in lines if "cents" in o or "unvoiced" in o}
truth = {1: 3, 2: -4, 3: 2, 5: -6, 6: 5, 7: -3, 8: 4}
assert got[4].get("unvoiced"), got[4]
for t, c in truth.items():
    assert abs(got[t]["cents"] - c) < 3, (t, got[t])
PY
  grep -q '"trial":4,"unvoiced":true,"missing":true' "$work/miss.out" &&
  grep -q 'miss.wav: 7 notes for 8 references, lined up by pitch: none for trial 4 (A3)' "$work/miss.err" &&
  pass "a missing note: the others keep their references; stderr: $(cat "$work/miss.err")" ||
  fail "missing note: rc $rc, $(cat "$work/miss.err")"

# FLAC, as boop writes it, scored as the same notes in WAV.
"$boop" tone A4 C5 E4 --gap 0.6 -q -o "$work/tones.flac" && "$boop" tone A4 C5 E4 --gap 0.6 -q -o "$work/tones.wav"
flac=$("$boop" train match --json --input "$work/tones.flac" --references A4,C5,E4 --db "$db" | tail -1)
wav=$("$boop" train match --json --input "$work/tones.wav" --references A4,C5,E4 --db "$db" | tail -1)
echo "$flac" | grep -q '"trials":3' && [ "$flac" = "$wav" ] && pass "--input FLAC: scored as the WAV: $flac" ||
  fail "FLAC: $flac / WAV: $wav"

# A missing --input: named as missing, 66, one line.
"$boop" train match --input "$work/nope.wav" --references A4 --db "$db" >/dev/null 2>"$work/nope.err"
rc=$?
[ "$rc" = 66 ] && [ "$(wc -l <"$work/nope.err")" = 1 ] && grep -q 'nope.wav: no such file' "$work/nope.err" &&
  pass "a missing --input: 66, $(cat "$work/nope.err")" || fail "missing --input: rc $rc, $(cat "$work/nope.err")"

# Only a match session in which nothing was heard: stats does not say there is no session.
python3 -c "
import wave, sys
w = wave.open(sys.argv[1], 'wb'); w.setnchannels(1); w.setsampwidth(2); w.setframerate(16000); w.writeframes(bytes(32000))
" "$work/silent.wav"
"$boop" train match --input "$work/silent.wav" --references A4,C4 --db "$work/u.sqlite" >/dev/null 2>&1
rows=$("$boop" train stats --db "$work/u.sqlite" --csv | tail -n +2 | wc -l)
text=$("$boop" train stats --db "$work/u.sqlite")
[ "$rows" = 2 ] && ! echo "$text" | grep -q 'No training sessions yet' && echo "$text" | grep -q 'no note heard' &&
  pass "stats with only unheard attempts agrees with --csv: $text" || fail "stats: $rows csv rows, '$text'"

# The terminal's own words, through a pseudo-terminal: one key for every answer (a listener who
# always says "higher" only guesses), --feedback after each answer.
cat >"$work/keys.py" <<'PY'
import os, pty, select, sys, time
key, prompt, out, argv = sys.argv[1].encode(), sys.argv[2].encode(), sys.argv[3], sys.argv[4:]
pid, fd = pty.fork()
if pid == 0:
    os.execv(argv[0], argv)
seen, deadline = b"", time.time() + 120
while time.time() < deadline:
    r, _, _ = select.select([fd], [], [], 0.2)
    if not r:
        continue
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    seen += chunk
    for _ in range(chunk.count(prompt)):
        time.sleep(0.2)
        os.write(fd, key)
os.waitpid(pid, 0)
open(out, "w").write(seen.decode(errors="replace"))
PY
python3 "$work/keys.py" k "lower (down/j)?" "$work/chance.txt" "$boop" train --trials 30 --seed 4 --duration 0.1 --gap 0 \
  -o "$work/chance.wav" --db "$work/k.sqlite"
# The result line fits 80 columns: read with its continuation joined.
line=$(tr -d '\r' <"$work/chance.txt" | tr '\n' ' ' | sed 's/  */ /g' | grep -ao 'Your answers were at chance.*--max-cents 400\.')
echo "$line" | grep -q 'Your answers were at chance (.* of 30 right): no threshold. The differences went up to 100 cents; if you heard none of them, try --max-cents 400.' &&
  ! grep -aq 'Threshold:' "$work/chance.txt" && pass "always \"higher\": $line" || fail "always higher: $(tail -3 "$work/chance.txt")"
python3 "$work/keys.py" w "narrower (n/down)?" "$work/fb.txt" "$boop" train interval --feedback --trials 3 --seed 3 \
  --duration 0.1 -o "$work/fb.wav" --db "$work/k.sqlite"
[ "$(grep -ac '^  right\|^  wrong' "$work/fb.txt")" = 3 ] && pass "train interval --feedback: right or wrong after each answer" ||
  fail "train interval --feedback: $(cat "$work/fb.txt")"
exit $((failures > 0))
