#!/usr/bin/env bash
# The training history across exercises: a schema-1 history migrated with its rows kept, a newer one
# refused, match and interval attempts stored, `stats` / `stats --profile` (--json) checked against a
# Python computation of the same numbers, `stats --csv` against what each session printed (and its
# RFC 4180 quoting), --timbre names, and --db names that are not UTF-8. About 12 s.
# Run by scripts/cli-tests.sh with BOOP, ROOT and WORK set.
set -uo pipefail
boop="$BOOP" work="$WORK/train-profile"
rm -rf "$work" && mkdir -p "$work"
failures=0
pass() { echo "PASS  $1"; }
fail() { echo "FAIL  $1"; failures=$((failures + 1)); }

# A history as schema 1 wrote it (the exact statements of that version), with two sessions.
old="$work/old.sqlite"
python3 - "$old" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.executescript("""
PRAGMA journal_mode=WAL;
CREATE TABLE sessions (id INTEGER PRIMARY KEY, started TEXT NOT NULL, ended TEXT, settings TEXT NOT NULL,
  trials INTEGER NOT NULL DEFAULT 0, threshold_cents REAL, low_cents REAL, high_cents REAL);
CREATE TABLE trials (id INTEGER PRIMARY KEY, session_id INTEGER NOT NULL REFERENCES sessions(id),
  trial INTEGER NOT NULL, time TEXT NOT NULL, reference_hz REAL NOT NULL, difference_cents REAL NOT NULL,
  higher_interval INTEGER NOT NULL CHECK (higher_interval IN (1, 2)),
  answer TEXT NOT NULL CHECK (answer IN ('higher', 'lower')), correct INTEGER NOT NULL, response_ms INTEGER NOT NULL);
CREATE INDEX trials_by_session ON trials(session_id, trial);
PRAGMA application_id = 1346532466;
PRAGMA user_version = 1;
INSERT INTO sessions VALUES (1, '2026-10-01T09:00:00.000Z', '2026-10-01T09:05:00.000Z', '{}', 2, 12.5, 9.0, 17.0);
INSERT INTO sessions VALUES (2, '2026-10-08T09:00:00.000Z', '2026-10-08T09:05:00.000Z', '{}', 1, 30.0, 10.0, 80.0);
INSERT INTO trials VALUES (1, 1, 1, '2026-10-01T09:01:00.000Z', 440.0, 12.0, 1, 'lower', 1, 900);
INSERT INTO trials VALUES (2, 1, 2, '2026-10-01T09:02:00.000Z', 523.25, 8.0, 2, 'lower', 0, 1200);
INSERT INTO trials VALUES (3, 2, 1, '2026-10-08T09:01:00.000Z', 261.63, 20.0, 2, 'higher', 1, 700);
""")
c.commit()
c.execute("PRAGMA journal_mode=DELETE")
c.close()
PY
sum=$(md5sum <"$old")
"$boop" train stats --db "$old" >"$work/old.txt" 2>&1
rc=$?
[ "$rc" = 0 ] && grep -q '^      2 .*  \*$' "$work/old.txt" && grep -q '^\* uncertain: under 20 trials$' "$work/old.txt" && [ "$(md5sum <"$old")" = "$sum" ] &&
  pass "stats reads a schema-1 history without migrating it" || fail "stats of schema 1: rc $rc $(cat "$work/old.txt")"
printf 'higher\n' | "$boop" train --json --trials 1 --seed 1 --db "$old" -o "$work/old.wav" >/dev/null 2>"$work/old.err"
rc=$?
python3 - "$old" <<'PY' && [ "$rc" = 0 ] && pass "a schema-1 history migrates to 3 and keeps every row" || fail "migration: rc $rc $(cat "$work/old.err")"
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
assert c.execute("PRAGMA user_version").fetchone()[0] == 3
assert c.execute("PRAGMA foreign_key_check").fetchall() == []
rows = c.execute("SELECT id, started, trials, threshold_cents, exercise FROM sessions ORDER BY id").fetchall()
assert rows[:2] == [(1, '2026-10-01T09:00:00.000Z', 2, 12.5, 'discrimination'),
                    (2, '2026-10-08T09:00:00.000Z', 1, 30.0, 'discrimination')], rows
assert len(rows) == 3 and rows[2][2] == 1, rows
t = c.execute("SELECT session_id, trial, reference_hz, difference_cents, answer, response_ms FROM trials ORDER BY id").fetchall()
assert t[:3] == [(1, 1, 440.0, 12.0, 'lower', 900), (1, 2, 523.25, 8.0, 'lower', 1200), (2, 1, 261.63, 20.0, 'higher', 700)], t
assert c.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
PY

# Fill a history offline: matching sessions from WAVs of sine notes (known offsets, one an
# octave down, one silent), one --interval session, an interval session, a discrimination
# session in one register; then compare stats --json and --profile --json with Python.
db="$work/h.sqlite"
python3 - "$boop" "$work" "$db" <<'PY' && pass "stats and --profile (--json and text) agree with Python" || fail "stats against Python (see above)"
import json, math, random, subprocess, sys, wave
import numpy as np
from scipy import stats as st
boop, work, db = sys.argv[1:]
rate = 16000
def wav(path, freqs):
    parts = []
    for f in freqs:
        t = np.arange(int(0.6 * rate)) / rate
        note = 0.5 * np.sin(2 * np.pi * f * t) if f else np.zeros_like(t)
        parts += [note * np.minimum(1, np.minimum(t, t[::-1]) / 0.01), np.zeros(int(0.45 * rate))]
    y = np.concatenate(parts)
    with wave.open(path, "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(rate)
        w.writeframes((y * 32767).astype("<i2").tobytes())
def hz(midi):
    return 440 * 2 ** ((midi - 69) / 12)
def register(f):
    return (round(69 + 12 * math.log2(f / 440))) // 12 - 1
def run(args, answers=""):
    p = subprocess.run([boop] + args + ["--db", db], input=answers, capture_output=True, text=True)
    assert p.returncode == 0, (args, p.returncode, p.stderr)
    return [json.loads(l) for l in p.stdout.splitlines()]
r = random.Random(7)
def listen(args):
    """A listener right 85 % of the time, answering each trial as it is shown (answers at random
    would be at chance: a session with no threshold to compare)."""
    p = subprocess.Popen([boop] + args + ["--db", db], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    out = []
    for line in p.stdout:
        o = json.loads(line)
        out.append(o)
        if "threshold_cents" in o:
            break
        right = r.random() < 0.85
        if isinstance(o["first_hz"], list):
            wider = o["second_hz"][1] / o["second_hz"][0] > o["first_hz"][1] / o["first_hz"][0]
            p.stdin.write(("wider" if wider == right else "narrower") + "\n")
        else:
            p.stdin.write(("higher" if (o["second_hz"] > o["first_hz"]) == right else "lower") + "\n")
        p.stdin.flush()
    p.stdin.close()
    p.wait()
    assert p.returncode == 0, (args, p.returncode)
    return out
sessions = [(["C4", "E4", "A3", "G4", "D4", "B3", "F4", "C5", "A4", "E3"], None),
            (["A3", "C4", "E4"], None),
            (["C4", "D4", "E4", "F4", "G4", "A4"], "M3")]
truth = {}   # session number in the history -> list of (register, cents)
for k, (refs, interval) in enumerate(sessions):
    midi = [{"C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11}[n[0]] + 12 * (int(n[1]) + 1) for n in refs]
    targets = [hz(m + (4 if interval else 0)) for m in midi]
    sung = [f * 2 ** (r.uniform(-40, 40) / 1200) for f in targets]
    if k == 0:
        sung[3] /= 2        # an octave down
        sung = sung[:-1]    # the last trial gets no note: unvoiced
    wav(f"{work}/s{k}.wav", sung)
    out = run(["train", "match", "--json", "--input", f"{work}/s{k}.wav", "--references", ",".join(refs)]
              + (["--interval", interval] if interval else []))
    res = {o["trial"]: o for o in out if "cents" in o}
    truth[k + 1] = [(register(targets[t - 1]), o["cents"]) for t, o in res.items()]
    assert k != 0 or ([o["trial"] for o in out if o.get("unvoiced")] == [10] and res[4]["octave"] == -1), out
# A session with nothing heard is stored but not listed.
wav(f"{work}/silent.wav", [0, 0])
run(["train", "match", "--json", "--input", f"{work}/silent.wav", "--references", "A4,C4"])
# Interval sessions: P5 in register 4 (12 trials), M3 asked as "M3up" in register 5 (25), and one
# quit at once (not listed). Each band of the profile then holds one session's answers.
matched = sum(len(o) for o in truth.values())
out = listen(["train", "interval", "--json", "--trials", "12", "--seed", "5", "--range", "C4..B4", "-o", f"{work}/i.wav", "-q"])
interval_final, interval_trials = out[-1], out[:-1]
out = listen(["train", "interval", "--json", "--interval", "M3up", "--trials", "25", "--seed", "8", "--range", "C5..B5",
              "-o", f"{work}/i3.wav", "-q"])
m3_final, interval_trials = out[-1], interval_trials + out[:-1]
run(["train", "interval", "--json", "--trials", "5", "--seed", "6", "-o", f"{work}/i2.wav", "-q"], "quit\n")
# Discrimination in one register (C4..B4): the profile's threshold there is this session's.
out = listen(["train", "--json", "--trials", "25", "--seed", "9", "--range", "C4..B4", "-o", f"{work}/d.wav", "-q"])
disc_final, disc_trials = out[-1], out[:-1]

def summary(errors):
    n = len(errors); e = np.array(errors); mean = e.mean()
    if n < 2:
        return dict(notes=1, bias_cents=mean)
    sd = e.std(ddof=1); t = st.t.ppf(0.84, n - 1); half = t * sd / math.sqrt(n)
    return dict(notes=n, bias_cents=mean, bias_low=mean - half, bias_high=mean + half, spread_cents=sd,
                spread_low=sd * math.sqrt((n - 1) / st.chi2.ppf(0.84, n - 1)),
                spread_high=sd * math.sqrt((n - 1) / st.chi2.ppf(0.16, n - 1)))
def close(name, got, want):
    for key, v in want.items():
        # The cents Python averages are the --json lines' (two decimals): bias and spread within
        # that rounding; the intervals as well (0.2 % of their half-width besides: boop's t and
        # chi-square quantiles are tabulated to 6 digits, closed-form past 30 notes).
        centre = want["spread_cents"] if key.startswith("spread_") else want["bias_cents"]
        tol = 0 if key == "notes" else 0.01 if key.endswith("_cents") else 0.002 * abs(v - centre) + 0.011
        if abs(got[key] - v) > tol:
            sys.exit(f"{name} {key}: boop {got[key]}, Python {v}")
progress = json.loads(subprocess.run([boop, "train", "stats", "--json", "--db", db], capture_output=True, text=True, check=True).stdout)
assert [m["session"] for m in progress["match"]] == [1, 2, 3], progress["match"]
for m in progress["match"]:
    close(f"session {m['session']}", m, summary([c for _, c in truth[m["session"]]]))
    assert m["uncertain"] == (m["notes"] < 8), m
assert progress["match"][2]["interval"] == "M3"  # as asked, normalised (M3up is M3)
assert [(i["interval"], i["trials"]) for i in progress["interval"]] == [("P5", 12), ("M3", 25)], progress["interval"]
iv = progress["interval"][0]
assert abs(iv["threshold_cents"] - interval_final["threshold_cents"]) < 1e-3 and iv["uncertain"], (iv, interval_final)
assert len(progress["discrimination"]) == 1 and progress["discrimination"][0]["trials"] == 25
profile = json.loads(subprocess.run([boop, "train", "stats", "--profile", "--json", "--db", db], capture_output=True, text=True, check=True).stdout)
bands = {}
for s in truth.values():
    for reg, c in s:
        bands.setdefault(reg, []).append(c)
assert [p["register"] for p in profile["match"]] == sorted(bands), profile["match"]
for p in profile["match"]:
    close(f"register {p['register']}", p, summary(bands[p["register"]]))
    assert p["band"] == f"C{p['register']}-B{p['register']}"
d = profile["discrimination"]
assert len(d) == 1 and d[0]["register"] == 4 and d[0]["trials"] == 25, d
assert abs(d[0]["threshold_cents"] - disc_final["threshold_cents"]) < 1e-3, (d, disc_final)
assert abs(d[0]["low_cents"] - disc_final["low_cents"]) < 1e-3 and abs(d[0]["high_cents"] - disc_final["high_cents"]) < 1e-3
text = subprocess.run([boop, "train", "stats", "--db", db], capture_output=True, text=True, check=True).stdout
# Few answers: the row marked, the footnote saying how few; every line within 80 columns.
assert "* uncertain: under 8 notes" in text and "* uncertain: under 20 trials" in text and "Interval discrimination: P5" in text, text
assert all(len(l) < 80 for l in text.splitlines()), [l for l in text.splitlines() if len(l) >= 80]
assert " 1 trials" not in text and " 1 notes" not in text, text
assert text.count("\n      ") >= 5, text
# Interval thresholds per interval and register of the first interval's lower note: a band
# holding one session's answers has that session's posterior; narrow intervals first.
iv = profile["interval"]
assert [(i["interval"], i["register"], i["band"], i["trials"], i["uncertain"]) for i in iv] == \
    [("M3", 5, "C5-B5", 25, False), ("P5", 4, "C4-B4", 12, True)], iv
for got, want in zip(iv, [m3_final, interval_final]):
    for key in ("threshold_cents", "low_cents", "high_cents"):
        assert abs(got[key] - want[key]) < 1e-3, (got, want)
ptext = subprocess.run([boop, "train", "stats", "--profile", "--db", db], capture_output=True, text=True, check=True).stdout
assert "Your ear by register" in ptext and "Your voice by register" in ptext and "C4-B4" in ptext, ptext
assert "Your ear for intervals by register" in ptext and "* uncertain: under 20 trials" in ptext, ptext
assert any(l.startswith("P5 ") and " C4-B4 " in l and l.endswith("  *") for l in ptext.splitlines()), ptext
assert any(l.startswith("M3 ") and " C5-B5 " in l and not l.endswith("*") for l in ptext.splitlines()), ptext
assert all(len(l) < 80 for l in ptext.splitlines()), [l for l in ptext.splitlines() if len(l) >= 80]

# --csv: every trial of every exercise in one table, the same columns on every row, checked
# against what each session printed.
import csv, io
table = subprocess.run([boop, "train", "stats", "--csv", "--db", db], capture_output=True, text=True, check=True).stdout
rows = list(csv.DictReader(io.StringIO(table)))
assert table.split("\n")[0].split(",") == [
    "exercise", "session", "trial", "time", "register", "interval", "reference_hz", "difference_cents", "higher_interval",
    "first_low_hz", "first_high_hz", "second_low_hz", "second_high_hz", "wider_interval", "answer", "correct",
    "response_ms", "target_hz", "sung_hz", "error_cents", "octave", "stable_ms", "drill", "item", "variant"], table.split("\n")[0]
by = {e: [x for x in rows if x["exercise"] == e] for e in ("discrimination", "match", "interval")}
assert len(rows) == sum(map(len, by.values())), {x["exercise"] for x in rows}
assert [(int(x["session"]), int(x["trial"])) for x in rows] == sorted((int(x["session"]), int(x["trial"])) for x in rows)
# The attempts heard, session 1's unvoiced last one, and the silent session's two.
assert len(by["discrimination"]) == 25 and len(by["interval"]) == 37 and len(by["match"]) == matched + 3, \
    {e: len(v) for e, v in by.items()}
for x, t in zip(by["discrimination"], disc_trials):
    # The two tones lie half the difference either side of the reference.
    assert abs(float(x["reference_hz"]) - math.sqrt(t["first_hz"] * t["second_hz"])) < 1e-3, (x, t)
    assert abs(float(x["difference_cents"]) - abs(1200 * math.log2(t["first_hz"] / t["second_hz"]))) < 1e-3, (x, t)
    assert x["higher_interval"] == ("1" if t["first_hz"] > t["second_hz"] else "2"), (x, t)
    assert x["register"] == "4" and x["answer"] in ("higher", "lower") and x["first_low_hz"] == x["sung_hz"] == ""
for x, t in zip(by["interval"], interval_trials):
    got = [float(x[k]) for k in ("first_low_hz", "first_high_hz", "second_low_hz", "second_high_hz")]
    assert max(abs(a - b) for a, b in zip(got, t["first_hz"] + t["second_hz"])) < 1e-5, (x, t)
    assert int(x["register"]) == register(t["first_hz"][0]) and x["interval"] in ("P5", "M3") and x["reference_hz"] == ""
    assert x["answer"] in ("wider", "narrower") and x["correct"] in ("0", "1") and float(x["difference_cents"]) > 0
heard = [c for s in truth.values() for _, c in s]
sung = [x for x in by["match"] if x["sung_hz"]]
assert len(sung) == len(heard) and all(abs(float(x["error_cents"]) - c) < 0.006 for x, c in zip(sung, heard)), sung
assert all(x["error_cents"] == x["octave"] == x["stable_ms"] == "" for x in by["match"] if not x["sung_hz"])
assert [x["octave"] for x in by["match"] if x["session"] == "1"][3] == "-1"
assert {x["interval"] for x in by["match"]} == {"", "M3"} and all(x["answer"] == "" for x in by["match"])
assert all(int(x["register"]) == register(float(x["target_hz"])) for x in by["match"])
PY

# RFC 4180 quoting: a field holding a comma, quotes and a line break (an interval name written by
# hand into a copy of the history) comes back whole through a CSV reader; the row count holds.
cp "$db" "$work/odd.sqlite"
python3 - "$BOOP" "$work/odd.sqlite" <<'PY' && pass "stats --csv: RFC 4180 quoting" || fail "stats --csv quoting"
import csv, io, sqlite3, subprocess, sys
boop, db = sys.argv[1:]
odd = 'P5, "odd"\r\nname'
c = sqlite3.connect(db)
c.execute("UPDATE interval_trials SET interval = ? WHERE trial = 2", (odd,))
c.commit()
n = c.execute("SELECT (SELECT count(*) FROM trials) + (SELECT count(*) FROM interval_trials) + "
              "(SELECT count(*) FROM match_attempts)").fetchone()[0]
c.close()
text = subprocess.run([boop, "train", "stats", "--csv", "--db", db], capture_output=True, check=True).stdout.decode()
rows = list(csv.reader(io.StringIO(text, newline="")))
assert '"P5, ""odd""\r\nname"' in text, text
assert len(rows) == n + 1 and all(len(r) == len(rows[0]) for r in rows), (len(rows), n)
assert sum(r[5] == odd for r in rows) == 2, [r for r in rows if "odd" in r[5]]
PY

# A newer schema is refused by every exercise and by stats: 65, one line, the file untouched.
newer="$work/newer.sqlite"
cp "$old" "$newer"
python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('PRAGMA user_version=4'); c.commit()" "$newer"
sum=$(md5sum <"$newer")
for cmd in "train --json --trials 1" "train match --json --references A4 --input $work/s1.wav" \
  "train interval --json --trials 1" "train identify --json --trials 1" "train degrees --json --trials 1" \
  "train stats" "train stats --profile --json"; do
  # shellcheck disable=SC2086
  echo quit | "$boop" $cmd --db "$newer" >/dev/null 2>"$work/n.err"
  rc=$?
  [ "$rc" = 65 ] && [ "$(wc -l <"$work/n.err")" = 1 ] && grep -q 'newer PixelBoop (schema 4' "$work/n.err" &&
    [ "$(md5sum <"$newer")" = "$sum" ] && pass "boop $cmd: a newer history is 65, one line, untouched" ||
    fail "boop $cmd on a newer history: rc $rc $(cat "$work/n.err")"
done

# A failed write to stdout is 74 with one line, for every form of stats and for match.
for args in "stats --json" "stats --profile" "stats --profile --json" "stats --csv" \
  "match --json --references A3,C4,E4 --input $work/s1.wav"; do
  # shellcheck disable=SC2086
  "$boop" train $args --db "$db" >/dev/full 2>"$work/f.err"
  rc=$?
  [ "$rc" = 74 ] && [ "$(wc -l <"$work/f.err")" = 1 ] && pass "train $args >/dev/full: 74, one line" ||
    fail "train $args >/dev/full: rc $rc $(cat "$work/f.err")"
done

# --timbre: the engine's names; anything else is a usage error (64, one line) before any work.
"$boop" train match --json --timbre kazoo --references A4 --input "$work/s1.wav" --db "$db" >/dev/null 2>"$work/t.err"
rc=$?
[ "$rc" = 64 ] && [ "$(wc -l <"$work/t.err")" = 1 ] && grep -q 'melody, chords, bass, tone' "$work/t.err" &&
  pass "--timbre kazoo: 64, one line: $(cat "$work/t.err")" || fail "--timbre kazoo: rc $rc $(cat "$work/t.err")"
"$boop" train match --json --timbre melody --references A3,C4,E4 --input "$work/s1.wav" --db "$db" >/dev/null 2>"$work/t.err" &&
  pass "--timbre melody accepted" || fail "--timbre melody: $(cat "$work/t.err")"

# A --db name that is not UTF-8 is that very name on disk (not one with U+FFFD), for every exercise.
raw="$work/h"$'\xff'".sqlite"
printf 'higher\n' | "$boop" train --json --trials 1 --db "$raw" -o "$work/r.wav" >/dev/null 2>"$work/r.err"
rc=$?
printf 'wider\n' | "$boop" train interval --json --trials 1 --db "$raw" -o "$work/r2.wav" >/dev/null 2>>"$work/r.err"
rc2=$?
"$boop" train match --json --references A3,C4,E4 --input "$work/s1.wav" --db "$raw" >/dev/null 2>>"$work/r.err"
rc3=$?
n=$("$boop" train stats --db "$raw" --json | python3 -c 'import json,sys; o=json.load(sys.stdin); print(len(o["discrimination"]), len(o["interval"]), len(o["match"]))')
[ "$rc$rc2$rc3" = 000 ] && [ -f "$raw" ] && [ "$n" = "1 1 1" ] && [ "$(find "$work" -name 'h*.sqlite*' | wc -l)" -le 4 ] &&
  ! find "$work" -name "*$(printf '\xef\xbf\xbd')*" | grep -q . && pass "--db h\\xff.sqlite: that name, read back by stats" ||
  fail "--db h\\xff.sqlite: rc $rc/$rc2/$rc3, sessions $n, $(cat "$work/r.err") $(ls "$work" | od -c | head -5)"
"$boop" train stats --db "$work/missing"$'\xff'".sqlite" >/dev/null 2>"$work/m.err"
rc=$?
[ "$rc" = 66 ] && grep -qF 'missing\xFF.sqlite' "$work/m.err" && pass "a missing non-UTF-8 --db: 66, its bytes escaped" ||
  fail "missing non-UTF-8 --db: rc $rc $(cat "$work/m.err")"
exit $((failures > 0))
