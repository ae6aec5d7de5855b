#!/usr/bin/env bash
# What a hostile probe found, each kept as a check: MIDI files past 2^32 ticks and songs too long to
# hold in memory (read back by mido, Debian's python3-mido), every stop signal during every kind of render, duplicate keys in UTF-16 and
# UTF-32, a locked training history, WAV headers with impossible rates, huge and bidirectional text
# in messages, an output path that is a symbolic link.
# Run by scripts/cli-tests.sh with BOOP, ROOT and WORK set.
set -uo pipefail
boop="$BOOP" root="$ROOT" work="$WORK/probes"
mkdir -p "$work"
failures=0
demo="$root/examples/demo.json"
source "$root/scripts/cli-check.sh"

leftovers() {  # leftovers NAME DIR: no temporary or partial files
  local found
  found="$(find "$2" -maxdepth 1 -name '.boop-*' 2>/dev/null)"
  [ -z "$found" ] && echo "ok   $1: no leftovers" || fail "$1: left behind: $found"
}

# A song within every limit whose MIDI file spans more than 2^32 ticks (1,024 chain entries x 256
# repeats x 64 steps x 3 loops): a valid file whose end of track is where the song ends.
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
empty = {"length": 64, "tracks": {}}
song = {"version": 2, "name": "Long", "bpm": 120, "patterns": {"e": empty},
        "song": [{"pattern": "e", "repeat": 256}] * 1024}
json.dump(song, open(f"{work}/long.json", "w"))
# Many notes: 32 entries x 64 repeats of a full 64-step pattern on four tracks (458,752 notes).
full = {"length": 64, "tracks": {
    "melody": [{"step": s, "pitch": 60 + s % 12, "length": 1} for s in range(64)],
    "chords": [{"step": s, "pitch": 48 + s % 7, "length": 2} for s in range(0, 64, 2)] * 1,
    "bass": [{"step": s, "pitch": 36 + s % 5, "length": 1} for s in range(64)],
    "rhythm": [{"step": s, "pitch": 36 if s % 4 == 0 else 42} for s in range(64)]}}
song = {"version": 2, "name": "Dense", "bpm": 120, "patterns": {"f": full},
        "song": [{"pattern": "f", "repeat": 64}] * 32}
json.dump(song, open(f"{work}/dense.json", "w"))
PY
check "MIDI past 2^32 ticks" 0 "$boop" render "$work/long.json" --loops 3 -o "$work/long.mid"
/usr/bin/python3 - "$work/long.mid" <<'PY' || fail "MIDI past 2^32 ticks: not the song's length (above)"
import sys, mido
m = mido.MidiFile(sys.argv[1])
end = sum(msg.time for msg in m.tracks[0])
want = 1024 * 256 * 64 * 120 * 3
print(f"ok   {sys.argv[1]}: end of track at tick {end} (expected {want}), {len(m.tracks)} track(s)")
sys.exit(0 if end == want else 1)
PY

# The export streams: 458,752 notes written in little memory, and the same bytes as before.
/usr/bin/python3 - "$boop" "$work" <<'PY' || failures=$((failures + 1))
import resource, subprocess, sys, mido
boop, work = sys.argv[1:3]
subprocess.run([boop, "render", f"{work}/dense.json", "-o", f"{work}/dense.mid"], check=True)
rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
notes = sum(1 for t in mido.MidiFile(f"{work}/dense.mid").tracks for m in t if m.type == "note_on")
print(f"{'ok  ' if rss_mb < 40 and notes == 32 * 64 * 224 else 'FAIL'} dense song to MIDI: {notes} notes, "
      f"peak resident memory {rss_mb:.0f} MB (at most 40; 71 MB when the whole piece was held)")
sys.exit(0 if rss_mb < 40 and notes == 32 * 64 * 224 else 1)
PY

# Every stop signal during a MIDI render and an audio render: 130 (74 for SIGHUP), one line, no
# file, no temporary left.
for sig in TERM HUP QUIT USR1 USR2 ALRM XCPU; do
  for ext in mid wav; do
    if [ "$ext" = mid ]; then args=("$work/dense.json" --loops 40); else args=("$demo" --loops 5000); fi
    "$boop" render "${args[@]}" -o "$work/sig-$sig.$ext" 2>"$work/sig.err" &
    pid=$!
    under_way "$pid"
    kill -"$sig" "$pid"
    wait "$pid"; s=$?
    want=130; [ "$sig" = HUP ] && want=74
    if [ "$s" -eq "$want" ] && [ "$(wc -l <"$work/sig.err")" -eq 1 ] && [ ! -e "$work/sig-$sig.$ext" ]; then
      echo "ok   SIG$sig during a .$ext render: $s, $(cat "$work/sig.err")"
    else
      fail "SIG$sig during a .$ext render: exit $s (expected $want), stderr: $(head -c 300 "$work/sig.err")"
    fi
    leftovers "SIG$sig .$ext" "$work"
  done
done
for sig in USR1 ALRM XCPU; do
  "$boop" tone A4 A4 --duration 3600 -o "$work/t-$sig.wav" 2>/dev/null &
  pid=$!
  under_way "$pid"
  kill -"$sig" "$pid"; wait "$pid"; s=$?
  [ "$s" -eq 130 ] && echo "ok   SIG$sig during tone -o: 130" || fail "SIG$sig during tone -o: exit $s"
  leftovers "SIG$sig tone" "$work"
  "$boop" ambient --duration 3600 -o "$work/a-$sig.wav" 2>/dev/null &
  pid=$!
  under_way "$pid"
  kill -"$sig" "$pid"; wait "$pid"; s=$?
  [ "$s" -eq 130 ] && echo "ok   SIG$sig during ambient -o: 130" || fail "SIG$sig during ambient -o: exit $s"
  leftovers "SIG$sig ambient" "$work"
done
rm -f "$work"/sig-* "$work"/t-* "$work"/a-*

# Duplicate keys spelled with escapes, in every encoding JSON allows; a song in UTF-16 and UTF-32
# renders the bytes of its UTF-8 self.
for enc in utf-16-le utf-16-be utf-32-le utf-32-be utf-16 utf-32; do
  python3 -c "import sys; open(sys.argv[1], 'wb').write('{\"bpm\": 90, \"b\\\\u0070m\": 100}'.encode(sys.argv[2]))" \
    "$work/dup-$enc.json" "$enc"
  check "duplicate key in $enc" 65 "$boop" render "$work/dup-$enc.json" -o "$work/z.wav" &&
    grep -q "duplicate key" "$work/stderr" || fail "duplicate key in $enc: not named as one"
  python3 -c "import sys; open(sys.argv[2], 'wb').write(open(sys.argv[1], encoding='utf-8').read().encode(sys.argv[3]))" \
    "$root/examples/song.json" "$work/song-$enc.json" "$enc"
  check "song in $enc" 0 "$boop" render "$work/song-$enc.json" -o "$work/song-$enc.wav"
done
"$boop" render "$root/examples/song.json" -o "$work/song-utf8.wav" -q
for enc in utf-16-le utf-32-be; do
  cmp -s "$work/song-utf8.wav" "$work/song-$enc.wav" && echo "ok   song in $enc: the same bytes" ||
    fail "song in $enc renders other bytes"
done

# The training history: '' is no path (64); a lock held by another program is answered within
# seconds, naming the holder (74).
check "train --db ''" 64 "$boop" train --db '' --trials 1
check "train stats --db ''" 64 "$boop" train stats --db ''
python3 - "$boop" "$work" <<'PY' || failures=$((failures + 1))
import sqlite3, subprocess, sys, time
boop, work = sys.argv[1:3]
db = f"{work}/locked.sqlite"
holder = sqlite3.connect(db, isolation_level=None)
holder.execute("BEGIN EXCLUSIVE")
holder.execute("CREATE TABLE t (x)")
started = time.monotonic()
p = subprocess.run([boop, "train", "stats", "--db", db], capture_output=True, text=True, timeout=120)
took = time.monotonic() - started
holder.execute("ROLLBACK")
lines = p.stderr.strip().split("\n")
ok = p.returncode == 74 and len(lines) == 1 and "locked" in p.stderr and took < 20
print(f"{'ok  ' if ok else 'FAIL'} a locked history: exit {p.returncode} after {took:.1f} s: {p.stderr.strip()}")
sys.exit(0 if ok else 1)
PY

# Another program's SQLite database in WAL mode: refused (65) and left as it was, nothing made beside it.
/usr/bin/python3 - "$work" <<'PY'
import sqlite3, sys
for name, app in (("other-id.sqlite", 1234), ("other-noid.sqlite", 0)):
    c = sqlite3.connect(f"{sys.argv[1]}/{name}")
    c.execute("PRAGMA journal_mode=WAL")
    c.execute(f"PRAGMA application_id={app}")
    c.execute("CREATE TABLE notes (x)")
    c.commit()
    c.close()
PY
# A rollback-mode database left with a hot journal (a transaction interrupted by kill -9).
/usr/bin/python3 - "$work/other-hot.sqlite" <<'PY'
import os, sqlite3, sys
path = sys.argv[1]
c = sqlite3.connect(path)
c.execute("CREATE TABLE t (x)")
c.commit()
if os.fork() == 0:
    c = sqlite3.connect(path, isolation_level=None)
    c.execute("PRAGMA cache_size=1")
    c.execute("BEGIN")
    c.executemany("INSERT INTO t VALUES (?)", [(os.urandom(500),) for _ in range(2000)])
    os._exit(0)  # no rollback, no commit: the journal stays hot
os.wait()
PY
for name in other-id other-noid other-hot; do
  check "train stats on $name" 65 "$boop" train stats --db "$work/$name.sqlite"
  check "train on $name" 65 "$boop" train --json --trials 1 --db "$work/$name.sqlite" </dev/null
  ls "$work/$name.sqlite-wal" "$work/$name.sqlite-shm" >/dev/null 2>&1 &&
    fail "$name: boop left $(ls "$work/$name.sqlite-"*)" || echo "ok   $name: nothing made beside it"
done

# A WAV whose header claims a rate the tracker cannot take is bad content (65), naming the file.
for rate in 1 100 384001 4294967295; do
  python3 - "$work/rate-$rate.wav" "$rate" <<'PY'
import struct, sys
path, rate = sys.argv[1], int(sys.argv[2])
data = b"\0\0" * 4800
fmt = struct.pack("<HHIIHH", 1, 1, rate, (rate * 2) & 0xFFFFFFFF, 2, 16)
body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(data)) + data
open(path, "wb").write(b"RIFF" + struct.pack("<I", len(body)) + body)
PY
  check "train match --input at $rate Hz" 65 "$boop" train match --input "$work/rate-$rate.wav" --db "$work/m.sqlite" &&
    grep -q "rate-$rate.wav" "$work/stderr" || fail "rate $rate: the message does not name the file"
done

# Messages: a 100 KB option value is not echoed whole; U+202E is shown escaped.
check "100 KB --voices value" 64 "$boop" render "$demo" -o "$work/z.wav" --voices "$(head -c 100000 /dev/zero | tr '\0' 7)"
[ "$(wc -c <"$work/stderr")" -lt 1000 ] && echo "ok   its message is $(wc -c <"$work/stderr") bytes" ||
  fail "100 KB value: a $(wc -c <"$work/stderr")-byte message"
check "U+202E in a name" 66 "$boop" render "$work/evil$(printf '\u202e')nosj.json" -o "$work/z.wav"
grep -q '\\u{202E}' "$work/stderr" && echo "ok   U+202E shown as \\u{202E}" || fail "U+202E reached the message raw"

# Hexadecimal floating point is no number boop takes; a name that only starts like one is a name.
check "tone --duration 0x15180" 64 "$boop" tone A4 --duration 0x15180 -o "$work/z.wav"
check "tone --duration=0x1p-2" 64 "$boop" tone A4 --duration=0x1p-2 -o "$work/z.wav"
check "tone 0x1B8Hz" 64 "$boop" tone 0x1B8 -o "$work/z.wav"
check "an output named 0xfeed.wav" 0 "$boop" tone A4 --duration 0.1 -o "$work/0xfeed.wav"

# An output that is a symbolic link: the file it names is written, the link stays.
mkdir -p "$work/real"
ln -sf real/take.wav "$work/link.wav"
ln -sf real/take.mid "$work/link.mid"
check "render onto a link" 0 "$boop" render "$demo" -o "$work/link.wav"
check "MIDI onto a link" 0 "$boop" render "$demo" -o "$work/link.mid"
[ -L "$work/link.wav" ] && [ -s "$work/real/take.wav" ] && [ -L "$work/link.mid" ] && [ -s "$work/real/take.mid" ] &&
  echo "ok   the links stay links; their targets hold the renders" || fail "a link at the output was replaced"
leftovers "probes" "$work"

echo "probe checks: $failures failure(s)"
[ "$failures" -eq 0 ]
