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
_, status = os.waitpid(pid, 0)
text = out.decode(errors="replace")
ok = status == 0 and text.count("trial ") == 3 and "Threshold:" in text and ("right" in text or "wrong" in text)
print(text if not ok else "", end="")
sys.exit(0 if ok else 1)
PY

exit $((failures > 0))
