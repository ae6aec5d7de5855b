#!/usr/bin/env bash
# Hostile surroundings, second part: stdout that fails or goes away, signals twice or before main,
# names that are not UTF-8 or too long, names and keys that hide escapes, FIFOs, `ulimit -v` and
# `ulimit -f`. Every failure keeps its status and one escaped stderr line; nothing is left behind.
# Run by scripts/cli-tests.sh with BOOP, ROOT and WORK set.
set -uo pipefail
boop="$(cd "$(dirname "$BOOP")" && pwd)/$(basename "$BOOP")" root="$ROOT" work="$WORK/hostile-io"
mkdir -p "$work"
failures=0
demo="$root/examples/demo.json"

source "$root/scripts/cli-check.sh"

expect_in_stderr() {  # expect_in_stderr NAME TEXT
  grep -qF -- "$2" "$work/stderr" && echo "ok   $1 says \"$2\"" || fail "$1: stderr lacks \"$2\": $(head -c 300 "$work/stderr")"
}

full() { "$@" >/dev/full; }   # a command whose stdout is full
closed() { "$@" >&-; }        # ... or closed
no_stdin() { "$@" <&-; }      # a command started with stdin closed

leftovers() {  # leftovers NAME DIR: no temporary files
  local found
  found="$(find "$2" -maxdepth 1 -name '.boop-*' 2>/dev/null)"
  [ -z "$found" ] && echo "ok   $1: no leftovers" || fail "$1: left behind: $found"
}

# --- stdout: a failed write is 74 with one line; a reader that went away is a quiet 0.
check "devices >/dev/full" 74 full "$boop" devices
check "devices --json >/dev/full" 74 full "$boop" devices --json
check "devices with stdout closed" 74 closed "$boop" devices
check "--help >/dev/full" 74 full "$boop" --help
check "--version >/dev/full" 74 full "$boop" --version
check "ambient --list >/dev/full" 74 full "$boop" ambient --list
printf 'higher\nhigher\nhigher\n' | "$boop" train --json --trials 3 --db "$work/t.sqlite" -o "$work/train.wav" --seed 1 \
  --duration 0.1 --gap 0.1 >/dev/null 2>&1 || fail "train --json to make a history"
check "train stats --csv >/dev/full" 74 full "$boop" train stats --csv --db "$work/t.sqlite"
check "train stats >/dev/full" 74 full "$boop" train stats --db "$work/t.sqlite"
printf 'higher\nhigher\nhigher\n' | "$boop" train --json --trials 3 --db "$work/t.sqlite" -o "$work/train2.wav" --seed 1 \
  --duration 0.1 --gap 0.1 >/dev/full 2>"$work/stderr"; s=$?
[ "$s" -eq 74 ] && [ "$(wc -l <"$work/stderr")" -eq 1 ] && echo "ok   train --json >/dev/full (exit 74)" ||
  fail "train --json >/dev/full: exit $s: $(cat "$work/stderr")"
[ -e "$work/train2.wav" ] && fail "train --json >/dev/full left a WAV without a trial"
# Answers from /dev/zero (never a newline): 65 once a line passes 4096 bytes, not memory without
# end (under ulimit -v, so a regression fails here instead of taking the machine's memory).
for exercise in run interval; do
  ( ulimit -v 4000000 && check "train $exercise --json </dev/zero" 65 timeout 60 "$boop" train "$exercise" --json \
    --trials 3 --db "$work/z.sqlite" -o "$work/z.wav" --seed 1 </dev/zero ) || failures=$((failures + 1))
  expect_in_stderr "train $exercise --json </dev/zero" "longer than 4096 bytes"
done
# Standard descriptors closed at start: each gets /dev/null, so nothing opened later takes its
# number. With stdin closed, the signal pipe used to become descriptor 0 and --json read its own
# wake-ups as answers, for ever, through `timeout`'s SIGTERM; now stdin is empty: the session
# ends at once. With stdout closed, the trial lines are a failed write (74), never bytes in a file.
for exercise in run interval; do
  mkdir -p "$work/closed-$exercise"
  check "train $exercise --json with stdin closed" 0 no_stdin timeout -s KILL 60 "$boop" train "$exercise" --json \
    --trials 2 --db "$work/closed-$exercise/h.sqlite" -o "$work/closed-$exercise/x.wav"
  grep -q '"trials":0}' "$work/stdout" || fail "train $exercise --json with stdin closed: last line $(tail -1 "$work/stdout")"
  check "train $exercise --json with stdout closed" 74 closed timeout -s KILL 60 "$boop" train "$exercise" --json \
    --trials 2 --db "$work/closed-$exercise/h2.sqlite" -o "$work/closed-$exercise/y.wav" <<<"quit"
  expect_in_stderr "train $exercise --json with stdout closed" "standard output is closed"
  [ -e "$work/closed-$exercise/x.wav" ] || [ -e "$work/closed-$exercise/y.wav" ] &&
    fail "train $exercise with a closed descriptor left a WAV without an answer"
  leftovers "train $exercise with a closed descriptor" "$work/closed-$exercise"
done
for cmd in "devices" "train stats --csv --db $work/t.sqlite" "--help"; do
  # The reader closes its end before anything is written: every write meets EPIPE.
  # shellcheck disable=SC2086
  "$boop" $cmd 2>"$work/stderr" | { exec <&-; sleep 0.5; }; s=${PIPESTATUS[0]}
  [ "$s" -eq 0 ] && [ ! -s "$work/stderr" ] && echo "ok   $cmd into a closed pipe: exit 0, quiet" ||
    fail "$cmd into a closed pipe: exit $s: $(cat "$work/stderr")"
done

# listen needs a capture device: a private PulseAudio null sink when pulseaudio is installed.
if command -v pulseaudio >/dev/null 2>&1 && env_lines="$("$root/scripts/pulse-null-sink.sh" start "$work/pulse" 2>/dev/null)"; then
  eval "$env_lines"
  ( cd "$work" && timeout 30 "$boop" listen -D pulse --json -o rec.wav --duration 5 >/dev/full 2>"$work/stderr" ); s=$?
  if [ "$s" -eq 74 ] && [ "$(wc -l <"$work/stderr")" -eq 1 ] && python3 - "$work/rec.wav" <<'EOF'
import sys, wave, struct
# A complete float WAV: the RIFF and data sizes agree with the file's length.
data = open(sys.argv[1], 'rb').read()
riff = struct.unpack('<I', data[4:8])[0]
assert riff + 8 == len(data), (riff, len(data))
i = data.index(b'data')
size = struct.unpack('<I', data[i + 4:i + 8])[0]
assert size > 0 and i + 8 + size == len(data), (size, len(data))
EOF
  then
    echo "ok   listen --json -o rec.wav >/dev/full: 74, the recording finished ($(cat "$work/stderr"))"
  else
    fail "listen --json -o >/dev/full: exit $s, $(cat "$work/stderr"), rec.wav: $(ls -la "$work/rec.wav" 2>&1)"
  fi
  start=$(date +%s)
  timeout 30 "$boop" listen -D pulse 2>"$work/stderr" | head -c 100 >/dev/null; s=${PIPESTATUS[0]}
  [ "$s" -eq 0 ] && [ ! -s "$work/stderr" ] && echo "ok   listen | head -c 100 ends, exit 0 in $(($(date +%s) - start)) s" ||
    fail "listen | head -c 100: exit $s (124: it never ended): $(cat "$work/stderr")"
  # With the Pulse client's default shared memory, whose 64 MiB segment fails under the limit
  # first: libpulse falls back to the socket, and its own complaint stays off stderr.
  ( ulimit -f 100; timeout 30 "$boop" listen -D pulse --raw --duration 10 >"$work/raw.f32" 2>"$work/stderr" ); s=$?
  [ "$s" -eq 74 ] && grep -q 'file size limit' "$work/stderr" && [ "$(wc -l <"$work/stderr")" -eq 1 ] &&
    echo "ok   listen --raw under ulimit -f: 74 $(cat "$work/stderr")" ||
    fail "listen --raw under ulimit -f: exit $s: $(cat "$work/stderr")"
  printf '{"name": "x\\u001b[2Jy", "tracks": {"melody": [{"step": 0, "pitch": 60}]}}' >"$work/esc-play.json"
  timeout 30 script -qec "$boop play $work/esc-play.json -D pulse --loops 1" /dev/null >"$work/play.out" 2>&1; s=$?
  [ "$s" -eq 0 ] && ! grep -q $'\e\[2J' "$work/play.out" && grep -qF 'x\e[2Jy' "$work/play.out" &&
    echo "ok   play shows an escaped pattern name" || fail "play with an escape in the name: exit $s: $(head -c 300 "$work/play.out" | cat -v)"
  "$root/scripts/pulse-null-sink.sh" stop "$work/pulse" >/dev/null 2>&1
else
  echo "skip listen and play checks: no PulseAudio"
fi

# --- Two signals at once (GNU timeout signals the child and then its group): 130 or a clean
# death, and never a temporary file, whenever they land.
mkdir -p "$work/twice"
for i in $(seq 100); do
  delay=$(awk -v i="$i" 'BEGIN { printf "%.3f", 0.005 + (i % 25) * 0.012 }')
  timeout -s TERM "$delay" "$boop" render "$demo" --loops 2000 -o "$work/twice/x$i.wav" 2>/dev/null
done
leftovers "100 renders stopped by timeout (two SIGTERMs)" "$work/twice"
for i in 1 2 3; do
  "$boop" render "$demo" --loops 5000 -o "$work/twice/y.wav" 2>/dev/null &
  pid=$!
  for _ in $(seq 500); do compgen -G "$work/twice/.boop-*" >/dev/null && break; sleep 0.01; done
  kill -TERM "$pid"; kill -TERM "$pid"
  wait "$pid"; s=$?
  [ "$s" -eq 130 ] || fail "two SIGTERMs during a render: exit $s, expected 130"
done
leftovers "two SIGTERMs while the temporary file exists" "$work/twice"

# SIGQUIT from the first microsecond: never the Swift runtime's crash report (a job started with
# `&` ignores SIGQUIT, so python starts boop with the default disposition).
python3 - "$boop" "$work" <<'EOF' && echo "ok   SIGQUIT during start-up: no crash report, no leftovers" || fail "SIGQUIT during start-up"
import os, signal, subprocess, sys, time
boop, work = sys.argv[1], sys.argv[2]
for i in range(100):
    p = subprocess.Popen([boop, "tone", "A4", "--duration", "30", "-o", os.path.join(work, "q.wav")],
                         stderr=subprocess.PIPE)
    time.sleep((i % 50) * 0.0008)
    p.send_signal(signal.SIGQUIT)
    _, err = p.communicate(timeout=60)
    text = err.decode(errors="replace")
    if "Backtrac" in text or "crashed" in text or text.count("\n") > 1:
        sys.exit(f"run {i}: exit {p.returncode}, stderr: {text[:300]!r}")
leftover = [f for f in os.listdir(work) if f.startswith(".boop-")]
if leftover:
    sys.exit(f"left behind: {leftover}")
EOF

# --- File names that are not UTF-8: the bytes given are the bytes used, and shown escaped.
mkdir -p "$work/latin1"
cp "$demo" "$work/latin1/lat"$'\xe9'".json"
check "render a non-UTF-8 pattern name" 0 "$boop" render "$work/latin1/lat"$'\xe9'".json" -o "$work/latin1/o"$'\xff'".wav"
[ -f "$work/latin1/o"$'\xff'".wav" ] && echo "ok   -o o\\xff.wav wrote exactly that name" || fail "-o o\\xff.wav: wrote $(ls "$work/latin1" | od -c | head -3)"
check "render -o a non-UTF-8 .mid name" 0 "$boop" render "$work/latin1/lat"$'\xe9'".json" -o "$work/latin1/m"$'\xfe'".mid"
[ -f "$work/latin1/m"$'\xfe'".mid" ] || fail "-o m\\xfe.mid: wrote $(ls "$work/latin1" | od -c | head -3)"
check "ambient --preset non-UTF-8 missing" 66 "$boop" ambient --preset "$work/latin1/p"$'\xe9'".json" -o "$work/latin1/a.wav"
expect_in_stderr "a missing non-UTF-8 name" 'p\xE9.json: no such file'
[ "$(find "$work/latin1" -type f | wc -l)" -eq 3 ] || fail "non-UTF-8 names: unexpected files: $(ls -a "$work/latin1" | od -c | head)"

# --- Names that hide escapes reach no terminal raw: render -v, the render and ambient progress.
printf '{"name": "x\\u001b[2J\\u001b]0;pwn\\u0007y", "tracks": {"melody": [{"step": 0, "pitch": 60}]}}' >"$work/esc.json"
check "render -v, an escape in the name" 0 "$boop" render "$work/esc.json" -o "$work/esc.wav" -v
grep -qF 'x\e[2J\e]0;pwn\u{7}y' "$work/stderr" && echo "ok   render -v shows the name escaped" || fail "render -v: $(cat -v "$work/stderr")"
printf '{"name": "P\\u001b[31mred"}' >"$work/esc-preset.json"
if command -v script >/dev/null 2>&1; then
  script -qec "$boop render $work/esc.json --loops 20 -o $work/esc2.wav" /dev/null >"$work/progress.out" 2>&1
  script -qec "$boop ambient --preset $work/esc-preset.json --duration 2 -o $work/esc3.wav" /dev/null >>"$work/progress.out" 2>&1
  if grep -q 'rendering x\\e\[2J' "$work/progress.out" && grep -q 'rendering P\\e\[31mred' "$work/progress.out" &&
    ! grep -qE $'\e\\[(2J|31m)|\e\\]0' "$work/progress.out"; then
    echo "ok   render and ambient -o progress lines show names escaped"
  else
    fail "progress lines: $(head -c 400 "$work/progress.out" | cat -v)"
  fi
fi

# --- Duplicate keys spelled with escapes are duplicates (the fixtures in Fixtures/bad too).
printf '{"bpm": 60, "b\\u0070m": 200}' >"$work/dup.json"
check "duplicate key spelled with an escape" 65 "$boop" render "$work/dup.json" -o "$work/dup.wav"
expect_in_stderr "duplicate key spelled with an escape" "bpm: duplicate key"
printf '{"tracks": {"melody": [{"step": 0, "pitch": 60}, {"step": 1, "pitch": 61, "p\\u0069tch": 62}]}}' >"$work/dup2.json"
check "nested duplicate key" 65 "$boop" render "$work/dup2.json" -o "$work/dup.wav"
expect_in_stderr "nested duplicate key" "tracks.melody[1].pitch: duplicate key"
printf '{"name": "a", "n\\u0061me": "b"}' >"$work/dup-preset.json"
check "preset duplicate key spelled with an escape" 65 "$boop" ambient --preset "$work/dup-preset.json" -o "$work/dup.wav" --duration 1
[ -e "$work/dup.wav" ] && fail "a duplicate key left a file"

# --- Output names the file system cannot take: 73 at once, before any rendering.
name256="$(printf 'a%.0s' $(seq 252)).wav"
check "256-byte output name" 73 "$boop" render "$demo" --loops 10000 -o "$work/$name256"
# Before any rendering: the CPU the refusal used (the render it spares takes minutes).
ms=$(cpu_ms "$boop" render "$demo" --loops 10000 -o "$work/$name256")
[ "$ms" -lt 1000 ] && echo "ok   refused after $ms ms of CPU" || fail "256-byte name refused only after $ms ms of CPU"
check "256-byte folder name" 73 "$boop" render "$demo" -o "$work/$(printf 'd%.0s' $(seq 256))/x.wav"
check "path over PATH_MAX" 73 "$boop" render "$demo" -o "$(python3 -c "print('/'.join(['d' * 200] * 21))")/x.wav"
check "256-byte .mid name" 73 "$boop" render "$demo" -o "$work/$(printf 'm%.0s' $(seq 252)).mid"
check "tone: 256-byte name" 73 "$boop" tone A4 -o "$work/$name256"
check "ambient: 256-byte name" 73 "$boop" ambient --duration 600 -o "$work/$name256"
check "256 bytes of UTF-8" 73 "$boop" render "$demo" -o "$work/$(printf '\xc3\xa9%.0s' $(seq 126)).wav"
check "254 bytes of UTF-8" 0 "$boop" render "$demo" -o "$work/$(printf '\xc3\xa9%.0s' $(seq 125)).wav"
leftovers "long names" "$work"

# --- tone with many notes: the options after them parse as with few (64 notes once broke --gain).
for n in 63 64 100 1000; do
  notes=(); for _ in $(seq "$n"); do notes+=(A4); done
  check "tone, $n notes, --gain 3 -q" 0 "$boop" tone "${notes[@]}" --gain 3 -q --duration 0.02 --gap 0 -o "$work/n$n.wav"
  check "tone, $n notes, --gain=3 --backend alsa -r 22050" 0 "$boop" tone "${notes[@]}" --gain=3 --backend alsa -r 22050 \
    --duration 0.02 --gap 0 -o "$work/m$n.wav"
  "$boop" tone "${notes[@]}" --gain=3 --duration 0.02 --gap 0 -o "$work/e$n.wav" 2>/dev/null
  cmp -s "$work/n$n.wav" "$work/e$n.wav" && echo "ok   $n notes: --gain 3 and --gain=3 give the same bytes" ||
    fail "$n notes: --gain 3 and --gain=3 differ"
done

# --- FIFOs: one nobody writes to is empty at once (65), one being written is read.
mkfifo "$work/p.fifo"
check "a FIFO with no writer" 65 timeout 10 "$boop" render "$work/p.fifo" -o "$work/f.wav"
expect_in_stderr "a FIFO with no writer" "nothing was written to the pipe"
cat "$demo" >"$work/p.fifo" &
writer=$!
check "a FIFO being written" 0 timeout 10 "$boop" render "$work/p.fifo" -o "$work/f.wav"
kill "$writer" 2>/dev/null; wait "$writer" 2>/dev/null
check "a pattern through <(...)" 0 "$boop" render <(cat "$demo") -o "$work/f2.wav"
check "a pattern on /dev/stdin" 0 "$boop" render /dev/stdin -o "$work/f3.wav" <"$demo"
check "a directory as the pattern" 66 "$boop" render "$work" -o "$work/f4.wav"

# --- ulimit -v: no hang in signal set-up (libdispatch used to retry its thread for ever).
( ulimit -v 90000; timeout 30 "$boop" tone A4 --duration 0.2 -o "$work/v1.wav" ) 2>"$work/stderr"; s=$?
[ "$s" -eq 0 ] && echo "ok   tone -o under ulimit -v 90000" || fail "tone -o under ulimit -v 90000: exit $s (124: hung) $(cat "$work/stderr")"
( ulimit -v 90000; trap '' INT; timeout 30 "$boop" render "$demo" -o "$work/v2.wav" ) 2>"$work/stderr"; s=$?
[ "$s" -eq 0 ] && echo "ok   render -o under ulimit -v 90000, SIGINT ignored" || fail "render -o under ulimit -v: exit $s $(cat "$work/stderr")"
# listen runs on the concurrency runtime's threads: where none can start, one line and 74, not a hang.
# Swept, because where that happens moves with the binary's own size (90000 KiB was too little
# for the 16.8 MB boop with FoundationEssentials, and is enough for the 11.9 MB one).
thread_refused=0
for v in 30000 40000 50000 60000 70000 80000 90000; do
  ( ulimit -v $v; timeout 30 "$boop" listen -D null --duration 0.5 --json >/dev/null ) 2>"$work/stderr"; s=$?
  if [ "$s" -eq 0 ] || { [ "$s" -eq 74 ] && [ "$(wc -l <"$work/stderr")" -eq 1 ]; }; then
    echo "ok   listen under ulimit -v $v: $s $(cat "$work/stderr")"
  else
    fail "listen under ulimit -v $v: exit $s (124: hung) $(cat "$work/stderr")"
  fi
  grep -q 'cannot start a thread' "$work/stderr" && thread_refused=$((thread_refused + 1))
done
[ "$thread_refused" -gt 0 ] && echo "ok   listen: a thread that cannot start is named ($thread_refused limits)" ||
  fail "listen: no limit of the sweep refused a thread (the check has nothing left to check)"
# Tighter limits, down to where the binary can no longer be loaded at all (the kernel or the
# loader refuses it before boop runs): each either renders or says in one line that memory or a
# thread was refused, with 74 (the engine's "out of memory" used to be a usage error, 64, with the
# ranges of the settings as if they were wrong), and leaves no file behind.
for limit in 85000 80000 75000 70000 65000 60000; do
  ( ulimit -v "$limit"; "$boop" --version ) >/dev/null 2>&1 || break
  rm -f "$work/v3.wav"
  ( ulimit -v "$limit"; timeout 30 "$boop" tone A4 --duration 0.2 -o "$work/v3.wav" ) 2>"$work/stderr"; s=$?
  left=$(find "$work" -maxdepth 1 -name '.boop-*' | wc -l)
  if [ "$s" -eq 0 ] && [ -s "$work/v3.wav" ] && [ "$left" -eq 0 ]; then
    echo "ok   tone -o under ulimit -v $limit: rendered"
  elif [ "$s" -eq 74 ] && [ "$(wc -l <"$work/stderr")" -eq 1 ] && grep -Eq 'memory|thread' "$work/stderr" &&
    [ ! -e "$work/v3.wav" ] && [ "$left" -eq 0 ]; then
    echo "ok   tone -o under ulimit -v $limit: 74 $(cat "$work/stderr")"
  else
    fail "tone -o under ulimit -v $limit: exit $s, $left temporary file(s) left: $(cat "$work/stderr")"
  fi
done

# --- ulimit -f: every format says so in words (Ogg said "Unspecified internal error"), 74, no file.
for ext in ogg flac wav; do
  ( ulimit -f 100; "$boop" render "$demo" --loops 50 -o "$work/big.$ext" 2>"$work/stderr" ); s=$?
  [ "$s" -eq 74 ] && [ "$(wc -l <"$work/stderr")" -eq 1 ] && grep -q 'file size limit exceeded' "$work/stderr" &&
    echo "ok   .$ext past ulimit -f: 74 $(cat "$work/stderr")" || fail ".$ext past ulimit -f: exit $s $(cat "$work/stderr")"
  [ -e "$work/big.$ext" ] && fail ".$ext past ulimit -f left the file"
done
( ulimit -f 20; "$boop" ambient --duration 60 -o "$work/big-ambient.ogg" 2>"$work/stderr" ); s=$?
[ "$s" -eq 74 ] && grep -q 'file size limit exceeded' "$work/stderr" && echo "ok   ambient .ogg past ulimit -f: 74" ||
  fail "ambient .ogg past ulimit -f: exit $s $(cat "$work/stderr")"
leftovers "ulimit -f" "$work"

echo "hostile-io checks: $failures failure(s)"
[ "$failures" -eq 0 ]
