#!/usr/bin/env bash
# boop train as programs and users meet it: the machine protocol answered by simulated listeners
# (accuracy against their known 75 % points, the tones in -o measured), bad answers, end of input,
# kill -9 mid-session, and a history that is read-only, corrupt, newer or shared by two sessions.
# Run by scripts/cli-tests.sh with BOOP, ROOT and WORK set.
set -uo pipefail
boop="$BOOP" root="$ROOT" work="$WORK/train"
mkdir -p "$work"
failures=0
pass() { echo "PASS  $1"; }
fail() { echo "FAIL  $1"; failures=$((failures + 1)); }

python3 "$root/scripts/train-sim.py" "$boop" "$work/sim" --sessions "${TRAIN_SESSIONS:-60}" --check-wav 3 ||
  fail "simulated listeners (see above)"

# Answers from a here-document: a malformed line is 65 with one line, and what came before is kept.
db="$work/a.sqlite"
printf 'higher\nlower\nsideways\n' | "$boop" train --json --trials 10 --seed 1 --db "$db" -o "$work/a.wav" \
  >"$work/a.out" 2>"$work/a.err"
rc=$?
[ "$rc" = 65 ] && [ "$(wc -l <"$work/a.err")" = 1 ] && grep -q 'expected higher, lower or quit' "$work/a.err" &&
  [ ! -e "$work/a.wav" ] && pass "a malformed answer: 65, one line, no half-written WAV" ||
  fail "malformed answer: rc $rc, $(cat "$work/a.err")"
rows=$("$boop" train stats --db "$db" --csv | tail -n +2 | wc -l)
[ "$rows" = 2 ] && pass "the two answers before it are in the history" || fail "history has $rows trials, expected 2"

# End of input ends the session like quit: exit 0, the final line with the trials answered.
printf 'higher\nhigher\nlower\n' | "$boop" train --json --trials 10 --seed 2 --db "$db" -o "$work/b.wav" >"$work/b.out"
rc=$?
last=$(tail -1 "$work/b.out")
[ "$rc" = 0 ] && echo "$last" | grep -q '"trials":3}' && [ -s "$work/b.wav" ] &&
  pass "end of input ends the session: $last" || fail "end of input: rc $rc, $last"

# kill -9 after five answers: all five are in the history (WAL, one transaction per trial).
db="$work/k.sqlite"
python3 - "$boop" "$db" "$work/k.wav" <<'PY'
import json, os, signal, subprocess, sys
boop, db, wav = sys.argv[1:]
p = subprocess.Popen([boop, "train", "--json", "--trials", "40", "--db", db, "-o", wav], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, text=True, bufsize=1)
for k in range(6):
    json.loads(p.stdout.readline())
    if k < 5:
        p.stdin.write("higher\n")
        p.stdin.flush()
os.kill(p.pid, signal.SIGKILL)
p.wait()
PY
rows=$("$boop" train stats --db "$db" --csv | tail -n +2 | wc -l)
[ "$rows" = 5 ] && pass "kill -9 after five answers: all five in the history" || fail "kill -9: $rows trials stored, expected 5"
"$boop" train stats --db "$db" >"$work/stats.txt" && grep -q '^      1 ' "$work/stats.txt" &&
  pass "stats lists the killed session" || fail "stats: $(cat "$work/stats.txt")"

# A history that cannot be used is refused with one line and never touched.
cp "$db" "$work/ro.sqlite" && chmod 444 "$work/ro.sqlite"
if [ "$(id -u)" != 0 ]; then
  printf 'higher\n' | "$boop" train --json --trials 1 --db "$work/ro.sqlite" -o "$work/ro.wav" >/dev/null 2>"$work/ro.err"
  rc=$?
  [ "$rc" = 74 ] && [ "$(wc -l <"$work/ro.err")" = 1 ] && pass "a read-only history: 74, one line" ||
    fail "read-only: rc $rc $(cat "$work/ro.err")"
else
  # Root writes through file modes: a read-only mount is what stops it (a private mount namespace,
  # so nothing outside sees it); and a folder that cannot be created.
  mkdir -p "$work/romount" && cp "$db" "$work/romount/h.sqlite"
  printf 'higher\n' | unshare --mount sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"' \
    - "$work/romount" "$boop" train --json --trials 1 --db "$work/romount/h.sqlite" -o "$work/ro.wav" >/dev/null 2>"$work/ro.err"
  rc=$?
  [ "$rc" = 74 ] && [ "$(wc -l <"$work/ro.err")" = 1 ] && pass "a read-only history (read-only mount): 74, one line: $(cat "$work/ro.err")" ||
    fail "read-only history: rc $rc $(cat "$work/ro.err")"
  printf 'higher\n' | "$boop" train --json --trials 1 --db /proc/boop/training.sqlite -o "$work/ro.wav" >/dev/null 2>"$work/ro.err"
  rc=$?
  [ "$rc" = 74 ] && [ "$(wc -l <"$work/ro.err")" = 1 ] && pass "a history that cannot be created: 74, one line: $(cat "$work/ro.err")" ||
    fail "uncreatable history: rc $rc $(cat "$work/ro.err")"
fi
head -c 4096 /dev/urandom >"$work/corrupt.sqlite"
sum=$(md5sum <"$work/corrupt.sqlite")
printf 'higher\n' | "$boop" train --json --trials 1 --db "$work/corrupt.sqlite" -o "$work/c.wav" >/dev/null 2>"$work/c.err"
rc=$?
[ "$rc" = 65 ] && [ "$(wc -l <"$work/c.err")" = 1 ] && [ "$(md5sum <"$work/corrupt.sqlite")" = "$sum" ] &&
  pass "a corrupt history: 65, one line, left as it was" || fail "corrupt: rc $rc $(cat "$work/c.err")"
python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('PRAGMA user_version=99'); c.commit()" "$work/newer.sqlite"
sum=$(md5sum <"$work/newer.sqlite")
"$boop" train stats --db "$work/newer.sqlite" >/dev/null 2>"$work/n.err"
rc=$?
[ "$rc" = 65 ] && grep -q "newer PixelBoop" "$work/n.err" && [ "$(md5sum <"$work/newer.sqlite")" = "$sum" ] &&
  pass "a newer history: 65, one line, left as it was" || fail "newer: rc $rc $(cat "$work/n.err")"

# Someone else's SQLite database: refused (65, one line) before anything is written to it, by the
# session and by stats, and left byte-identical with no journal beside it.
python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('CREATE TABLE notes(x)'); c.execute(\"INSERT INTO notes VALUES ('mine')\"); c.commit()" "$work/foreign.sqlite"
sum=$(md5sum <"$work/foreign.sqlite")
printf 'higher\n' | "$boop" train --json --trials 1 --db "$work/foreign.sqlite" -o "$work/f.wav" >/dev/null 2>"$work/f.err"
rc=$?
"$boop" train stats --db "$work/foreign.sqlite" >/dev/null 2>"$work/f2.err"
rc2=$?
[ "$rc" = 65 ] && [ "$rc2" = 65 ] && [ "$(wc -l <"$work/f.err")" = 1 ] && [ "$(wc -l <"$work/f2.err")" = 1 ] &&
  [ "$(md5sum <"$work/foreign.sqlite")" = "$sum" ] && ! ls "$work"/foreign.sqlite-* >/dev/null 2>&1 &&
  pass "a foreign SQLite file: 65 from train and stats, byte-identical, no journal: $(cat "$work/f.err")" ||
  fail "foreign file: rc $rc/$rc2, $(cat "$work/f.err" "$work/f2.err"), $(ls "$work"/foreign.sqlite*)"

# Not a regular file: refused before SQLite opens it (no /dev/null-journal, even as root).
rm -f /dev/null-journal /dev/zero-journal 2>/dev/null
for dev in /dev/null /dev/zero "$work"; do
  printf 'higher\n' | "$boop" train --json --trials 1 --db "$dev" -o "$work/d.wav" >/dev/null 2>"$work/d.err"
  rc=$?
  "$boop" train stats --db "$dev" >/dev/null 2>"$work/d2.err"
  rc2=$?
  [ "$rc" = 73 ] && [ "$rc2" = 66 ] && [ "$(wc -l <"$work/d.err")" = 1 ] && [ "$(wc -l <"$work/d2.err")" = 1 ] &&
    [ ! -e "$dev-journal" ] && [ ! -e "$dev-wal" ] && pass "--db $dev: train 73, stats 66, nothing created beside it" ||
    fail "--db $dev: rc $rc/$rc2 $(cat "$work/d.err" "$work/d2.err")"
done

# stats reads without writing: a missing history is 66; it works under ulimit -f 0 and on a
# read-only mount, and leaves the file byte-identical. (Its output goes through a pipe: the limit
# would stop a write to a file.)
"$boop" train stats --db "$work/none/h.sqlite" >/dev/null 2>"$work/m.err"
rc=$?
[ "$rc" = 66 ] && [ "$(wc -l <"$work/m.err")" = 1 ] && [ ! -e "$work/none" ] &&
  pass "stats of a missing history: 66, nothing created" || fail "stats missing: rc $rc $(cat "$work/m.err")"
clean="$work/clean.sqlite"
printf 'higher\nlower\n' | "$boop" train --json --trials 2 --db "$clean" -o "$work/clean.wav" >/dev/null
sum=$(md5sum <"$clean")
(ulimit -f 0 && "$boop" train stats --db "$clean" 2>&1; echo "rc=$?") | cat >"$work/u.out"
rc=$(sed -n 's/^rc=//p' "$work/u.out")
[ "$rc" = 0 ] && grep -q '^      1 .*  2  ' "$work/u.out" && [ "$(md5sum <"$clean")" = "$sum" ] &&
  pass "stats under ulimit -f 0: reads the history, writes nothing" || fail "stats under ulimit -f 0: $(cat "$work/u.out")"
# A killed session's answers still in the -wal: stats reads them when it can, else says so (74).
"$boop" train stats --db "$db" | grep -q '^      1 .*  5  ' && pass "stats reads a killed session's answers from the -wal" ||
  fail "stats of a killed session: $("$boop" train stats --db "$db" 2>&1)"
# Under ulimit -f 0 with the -wal there: one line and 74 (or the answers read), and the history,
# its -wal and what they hold unchanged (every one of the five answers still there, intact).
[ -s "$db-wal" ] || fail "the killed session left no -wal to test with"
sums=$(cat "$db" "$db-wal" | md5sum)
(ulimit -f 0 && "$boop" train stats --db "$db" 2>&1 >/dev/null; echo "rc=$?") | cat >"$work/u.out"
rc=$(sed -n 's/^rc=//p' "$work/u.out")
{ { [ "$rc" = 74 ] && [ "$(wc -l <"$work/u.out")" = 2 ]; } || { [ "$rc" = 0 ] && [ "$(wc -l <"$work/u.out")" = 1 ]; }; } &&
  [ "$(cat "$db" "$db-wal" | md5sum)" = "$sums" ] &&
  pass "stats of a killed session under ulimit -f 0: rc $rc $(head -1 "$work/u.out"); history and -wal unchanged" ||
  fail "stats of a killed session under ulimit -f 0: $(cat "$work/u.out")"
python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); assert c.execute('PRAGMA integrity_check').fetchone()[0]=='ok'; print(c.execute('SELECT count(*) FROM trials').fetchone()[0])" "$db" 2>&1 |
  grep -qx 5 && pass "after it, the history is intact with its five answers" || fail "the history after ulimit -f 0 is damaged"
if [ "$(id -u)" = 0 ]; then
  cp "$clean" "$work/romount/clean.sqlite"
  unshare --mount sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"' \
    - "$work/romount" "$boop" train stats --db "$work/romount/clean.sqlite" >"$work/r.out" 2>"$work/r.err"
  rc=$?
  [ "$rc" = 0 ] && grep -q '^      1 .*  2  ' "$work/r.out" && pass "stats on a read-only mount" ||
    fail "stats on a read-only mount: rc $rc $(cat "$work/r.err" "$work/r.out")"
fi

# A session ended before its first answer is not listed by stats.
db="$work/q.sqlite"
printf 'higher\n' | "$boop" train --json --trials 1 --db "$db" -o "$work/q1.wav" >/dev/null
printf 'quit\n' | "$boop" train --json --trials 5 --db "$db" -o "$work/q2.wav" >/dev/null
rows=$("$boop" train stats --db "$db" | grep -cE '^ +[0-9]+  [0-9]{4}-')
[ "$rows" = 1 ] && pass "stats leaves out a session without answers" || fail "stats lists $rows sessions, expected 1"

# --help names the default history, with its fallback when XDG_DATA_HOME is not set.
for args in "train --help" "train stats --help" "train run --help"; do
  # shellcheck disable=SC2086
  "$boop" $args | tr -s ' \n' ' ' | grep -q 'XDG_DATA_HOME/pixelboop/training.sqlite.*~/.local/share/pixelboop/training.sqlite' &&
    pass "boop $args names the default history" || fail "boop $args does not name ~/.local/share/pixelboop/training.sqlite"
done

# Two sessions at once on one history: both complete, every trial of both stored.
db="$work/two.sqlite"
for s in 1 2; do
  yes higher | head -20 | "$boop" train --json --trials 20 --seed "$s" --db "$db" -o "$work/two-$s.wav" >"$work/two-$s.out" &
done
wait
rows=$("$boop" train stats --db "$db" --csv | tail -n +2 | wc -l)
sessions=$("$boop" train stats --db "$db" | grep -cE '^ +[0-9]+  [0-9]{4}-')
[ "$rows" = 40 ] && [ "$sessions" = 2 ] && pass "two sessions at once: 2 sessions, 40 trials stored" ||
  fail "two sessions: $sessions sessions, $rows trials"

# Interactive: arrows and j/k answer, r replays, --feedback says right or wrong, the result is shown.
python3 - "$boop" "$work/int.sqlite" <<'PY' && pass "interactive session: keys, replay, feedback, result" || fail "interactive session"
import os, pty, select, sys, time
boop, db = sys.argv[1:]
pid, fd = pty.fork()
if pid == 0:
    os.execv(boop, [boop, "train", "--trials", "3", "-D", "null", "--db", db, "--feedback", "--duration", "0.2", "--gap", "0.1"])
out = b""
def pump(t):
    global out
    end = time.time() + t
    while time.time() < end:
        if select.select([fd], [], [], 0.05)[0]:
            try:
                data = os.read(fd, 4096)
            except OSError:
                return
            if not data:
                return
            out += data
pump(1.5)
for key in (b"r", b"\x1b[A", b"j", b"k"):
    os.write(fd, key)
    pump(1.0)
# An answer typed while the tones still play is dropped (by design): on a loaded machine one of
# the three may be, so answer again until the session ends, within a generous limit.
status, deadline = None, time.time() + 60
while status is None and time.time() < deadline:
    done, code = os.waitpid(pid, os.WNOHANG)
    if done:
        status = code
        break
    os.write(fd, b"j")
    pump(1.0)
if status is None:
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    print("the session did not end within 60 s of answers")
text = out.decode(errors="replace")
ok = status == 0 and text.count("trial ") == 3 and "Threshold:" in text and ("right" in text or "wrong" in text)
print(text if not ok else "", end="")
sys.exit(0 if ok else 1)
PY

# Keys typed while the tones play are not answers: a k pressed during the first tone is dropped,
# the session waits for the answer after the second tone (j), times it from there, and ends
# "after 1 trial" (singular). The tones need a device that plays in real time (ALSA's null PCM
# takes them at once): a private PulseAudio null sink, through ALSA's pulse PCM.
if ! pulse_env=$("$root/scripts/pulse-null-sink.sh" start "$work/pulse"); then
  fail "early answer: no PulseAudio null sink"
else
eval "$pulse_env"
python3 - "$boop" "$work/early.sqlite" <<'PY' && pass "an answer during the tones is ignored; timed from the tones' end" || fail "early answer"
import csv, io, os, pty, select, subprocess, sys, time
boop, db = sys.argv[1:]
pid, fd = pty.fork()
if pid == 0:
    os.execv(boop, [boop, "train", "--trials", "1", "-D", "pulse", "--db", db, "--duration", "1", "--gap", "0.4"])
out = b""
def pump(until, limit):
    global out
    end = time.time() + limit
    while time.time() < end and until not in out:
        if select.select([fd], [], [], 0.05)[0]:
            try:
                data = os.read(fd, 4096)
            except OSError:
                return False
            if not data:
                return False
            out += data
    return until in out
ok = pump(b"trial 1/1", 20)
time.sleep(0.3)
os.write(fd, b"k")                       # during the first tone
started = time.time()
ok = ok and pump(b"second tone higher", 20)
waited = time.time() - started
time.sleep(0.5)
alive = os.waitpid(pid, os.WNOHANG) == (0, 0)
os.write(fd, b"j")
pump(b"you hear a difference", 20)
_, status = os.waitpid(pid, 0)
text = out.decode(errors="replace")
rows = list(csv.DictReader(io.StringIO(subprocess.run([boop, "train", "stats", "--db", db, "--csv"],
                                                      capture_output=True, text=True).stdout)))
good = (ok and alive and status == 0 and waited > 1.5 and len(rows) == 1 and rows[0]["answer"] == "lower"
        and int(rows[0]["response_ms"]) >= 400 and "after 1 trial" in text and "1 trials" not in text)
print("" if good else f"ok {ok} alive {alive} status {status} waited {waited:.2f} rows {rows}\n{text}", end="")
sys.exit(0 if good else 1)
PY
"$root/scripts/pulse-null-sink.sh" stop "$work/pulse"
fi

exit $((failures > 0))
