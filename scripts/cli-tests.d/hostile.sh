#!/usr/bin/env bash
# Hostile input and surroundings: every error keeps its documented status and one stderr line
# whatever stderr is; signals and file-size limits leave no file; odd names and formats work.
# Run by scripts/cli-tests.sh with BOOP, ROOT and WORK set.
set -uo pipefail
boop="$BOOP" root="$ROOT" work="$WORK/hostile"
mkdir -p "$work"
failures=0
demo="$root/examples/demo.json"

source "$root/scripts/cli-check.sh"

status_of() {  # status_of EXPECTED NAME COMMAND... (stderr not captured by us)
  local expected="$1" name="$2"; shift 2
  "$@"; local status=$?
  [ "$status" -eq "$expected" ] && echo "ok   $name (exit $status)" || fail "$name: exit $status, expected $expected"
}

leftovers() {  # leftovers NAME DIR: no temporary or partial files
  local found
  found="$(find "$2" -maxdepth 1 \( -name '.boop-*' -o -name '*.tmp-*' \) 2>/dev/null)"
  [ -z "$found" ] && echo "ok   $1: no leftovers" || fail "$1: left behind: $found"
}

# Numbers past 2^63 where an integer is expected: 65, no trap.
printf '{"length": 1e19}' >"$work/len.json"
check "length 1e19" 65 "$boop" render "$work/len.json" -o "$work/len.wav"
printf '{"tracks": {"melody": [{"step": 1e19, "pitch": 60}]}}' >"$work/step.json"
check "step 1e19" 65 "$boop" render "$work/step.json" -o "$work/len.wav"
printf '{"name": "x", "layers": {"pad": {"level": 1e19}}}' >"$work/preset-big.json"
check "preset number 1e19" 65 "$boop" ambient --preset "$work/preset-big.json" -o "$work/p.wav" --duration 1

# Error paths with stderr full, closed, or a broken pipe with SIGPIPE ignored.
status_of 65 "error with stderr on /dev/full" "$boop" render "$work/len.json" -o "$work/x.wav" 2>/dev/full
status_of 65 "error with stderr closed" "$boop" render "$work/len.json" -o "$work/x.wav" 2>&-
status_of 64 "usage error with stderr closed" "$boop" render 2>&-
status_of 66 "missing file with stderr on /dev/full" "$boop" render "$work/none.json" -o "$work/x.wav" 2>/dev/full
( trap '' PIPE; "$boop" render "$work/len.json" -o "$work/x.wav" 2>&1 | true; exit "${PIPESTATUS[0]}" )
s=$?; [ "$s" -eq 65 ] && echo "ok   error into a closed pipe, SIGPIPE ignored (exit 65)" || fail "error into a closed pipe: exit $s"
status_of 0 "render with stderr closed" "$boop" render "$demo" -o "$work/ok.wav" -v 2>&-

# Control characters from names, keys, notes and paths are escaped: one line, no raw escape.
printf '{"bpm": 120, "n\\u001b[2Jx\\ny": 1}' >"$work/esc-key.json"
check "escape in a JSON key" 65 "$boop" render "$work/esc-key.json" -o "$work/e.wav"
printf '{"name": 5}' >"$work/esc$(printf '\e')[2Jname
.json"
check "escape and newline in a path" 65 "$boop" render "$work/esc$(printf '\e')[2Jname
.json" -o "$work/e.wav"
check "escape in a NOTE" 64 "$boop" tone "$(printf 'A\e[2J\n4')" -o "$work/e.wav"
check "empty preset name" 66 "$boop" ambient --preset "" -o "$work/e.wav" --duration 1 &&
  { grep -qF "(empty name): no bundled preset" "$work/stderr" || fail "empty preset name: $(cat "$work/stderr")"; }
check "escape in a preset name" 66 "$boop" ambient --preset "$(printf 'Bright\e[2J\nBells')" -o "$work/e.wav" --duration 1
check "escape in -o" 73 "$boop" render "$demo" -o "$work/no$(printf '\e')[2J
dir/x.wav"
check "escape in a device name" 69 "$boop" tone A4 --duration 0.1 -D "$(printf 'hw:9\e[2J\n,0')"
# A device that will not open says why, in ALSA's words (missing, busy, refused the settings).
check "a missing ALSA device" 69 "$boop" play "$demo" --loops 1 -D no-such-pcm &&
  { grep -qF "cannot be opened for playback at 44100 Hz, 2 channel(s): no such file or directory" "$work/stderr" ||
    fail "a missing ALSA device: the reason is not given: $(cat "$work/stderr")"; }
check "a missing ALSA microphone" 69 "$boop" listen -D no-such-pcm --duration 0.1 &&
  { grep -qF "cannot be opened for capture at 16000 Hz, 1 channel(s): no such file or directory" "$work/stderr" ||
    fail "a missing ALSA microphone: the reason is not given: $(cat "$work/stderr")"; }

# Duplicate keys at any level: 65 naming the key.
printf '{"bpm": 120, "bpm": 130}' >"$work/dup-bpm.json"
check "duplicate bpm" 65 "$boop" render "$work/dup-bpm.json" -o "$work/d.wav" && grep -q 'bpm: duplicate key' "$work/stderr" || fail "duplicate bpm not named"
printf '{"tracks": {"melody": [], "melody": []}}' >"$work/dup-melody.json"
check "duplicate melody" 65 "$boop" render "$work/dup-melody.json" -o "$work/d.wav" && grep -q 'melody: duplicate key' "$work/stderr" || fail "duplicate melody not named"
printf '{"name": "a", "name": "b"}' >"$work/dup-preset.json"
check "duplicate key in a preset" 65 "$boop" ambient --preset "$work/dup-preset.json" -o "$work/d.wav" --duration 1

# -o that cannot be created: 73 before any rendering.
mkdir -p "$work/adir" "$work/ro"
check "-o a directory" 73 "$boop" render "$demo" -o "$work/adir" --loops 10000
check "-o a directory (trailing slash)" 73 "$boop" render "$demo" -o "$work/adir/" --loops 10000
check "-o a directory (.mid)" 73 "$boop" render "$demo" -o "$work/adir" 
check "tone -o a directory" 73 "$boop" tone A4 -o "$work/adir"
check "ambient -o a directory" 73 "$boop" ambient -o "$work/adir" --duration 1
check "-o /dev/full" 73 "$boop" render "$demo" -o /dev/full
if [ "$(id -u)" -ne 0 ]; then
  chmod a-w "$work/ro"
  check "-o in a read-only folder" 73 "$boop" render "$demo" -o "$work/ro/x.wav"
  chmod u+w "$work/ro"
fi
[ -c /dev/full ] && echo "ok   /dev/full still a device" || fail "/dev/full was replaced"

# FLAC and Ogg get a format they support without --sample-format.
check "render -o x.flac" 0 "$boop" render "$demo" -o "$work/x.flac"
check "render -o x.ogg" 0 "$boop" render "$demo" -o "$work/x.ogg"
check "tone -o x.flac" 0 "$boop" tone A4 --duration 0.2 -o "$work/t.flac"
check "tone -o x.ogg" 0 "$boop" tone A4 --duration 0.2 -o "$work/t.ogg"
check "render -o x.flac --sample-format f32" 73 "$boop" render "$demo" -o "$work/f.flac" --sample-format f32

# A 245-character output name (the temporary name must not be longer than NAME_MAX).
long="$(printf 'a%.0s' $(seq 241)).wav"
check "245-character output name" 0 "$boop" render "$demo" -o "$work/$long"
check "255-character output name" 0 "$boop" render "$demo" -o "$work/$(printf 'b%.0s' $(seq 251)).wav"
check "245-character .mid name" 0 "$boop" render "$demo" -o "$work/$(printf 'c%.0s' $(seq 241)).mid"
leftovers "long names" "$work"

# Signals during a render (every stop signal, .wav and .mid): scripts/cli-tests.d/probes.sh.

# ulimit -f: the write fails with EFBIG (SIGXFSZ ignored), 74, no file.
( ulimit -f 100; "$boop" render "$demo" --loops 50 -o "$work/big.wav" 2>"$work/xfsz.err" ); s=$?
[ "$s" -eq 74 ] && echo "ok   ulimit -f exits 74 $(head -c 120 "$work/xfsz.err")" || fail "ulimit -f: exit $s $(head -c 300 "$work/xfsz.err")"
[ "$(wc -l <"$work/xfsz.err")" -eq 1 ] || fail "ulimit -f: expected one line"
[ -e "$work/big.wav" ] && fail "ulimit -f left the output"
( ulimit -f 10; "$boop" render "$demo" --loops 50 -o "$work/big.mid" 2>/dev/null ); s=$?
[ "$s" -eq 74 ] && echo "ok   ulimit -f on .mid exits 74" || fail "ulimit -f .mid: exit $s"
leftovers "ulimit -f" "$work"

# Many NOTE arguments: rendered, and parsed in linear time. The time is the CPU time of a run that
# parses and checks every note and then stops at its output (-o /dev/full, 73), so neither the
# render nor a busy disk's sync of its 56 MB is counted (about 80 ms on a 2-core EPYC; a parse
# quadratic in the notes would take seconds).
notes=(); for i in $(seq 16000); do notes+=(A4); done
check "16000 notes" 0 "$boop" tone "${notes[@]}" --duration 0.02 --gap 0 -o "$work/many.wav"
rm -f "$work/many.wav"
ms=$(cpu_ms "$boop" tone "${notes[@]}" --duration 0.02 --gap 0 -o /dev/full)
[ "$ms" -lt 2000 ] && echo "ok   16000 notes parsed and checked in $ms ms of CPU" ||
  fail "16000 notes took $ms ms of CPU to parse and check (at most 2000)"

# help for an unknown subcommand is a usage error.
check "help nope" 64 "$boop" help nope
check "help render" 0 "$boop" help render

# Notes above Nyquist: render warns in one line and renders the rest; tone refuses (64).
check "tone above Nyquist" 64 "$boop" tone C8 -r 8000 -o "$work/n.wav"
printf '{"tracks": {"melody": [{"step": 0, "pitch": 60}, {"step": 1, "pitch": 120}]}}' >"$work/high.json"
"$boop" render "$work/high.json" -r 8000 -o "$work/n.wav" 2>"$work/nyq.err"; s=$?
if [ "$s" -eq 0 ] && [ "$(wc -l <"$work/nyq.err")" -eq 1 ] && grep -q 'half the sample rate' "$work/nyq.err"; then
  echo "ok   render above Nyquist warns: $(cat "$work/nyq.err")"
else
  fail "render above Nyquist: exit $s, stderr: $(cat "$work/nyq.err")"
fi

# Other hostile files: empty, binary, 1 MiB+, deep nesting, bad UTF-8, NaN-like, negative.
: >"$work/empty.json"; check "empty file" 65 "$boop" render "$work/empty.json" -o "$work/z.wav"
head -c 4096 /dev/urandom >"$work/garbage.json"; check "binary garbage" 65 "$boop" render "$work/garbage.json" -o "$work/z.wav"
{ printf '{"name": "'; head -c 1100000 /dev/zero | tr '\0' 'a'; printf '"}'; } >"$work/big.json"
check "file over 1 MiB" 65 "$boop" render "$work/big.json" -o "$work/z.wav"
# A file that never ends is refused after 1 MiB, not read until memory runs out.
check "/dev/zero as a pattern" 65 timeout 10 "$boop" render /dev/zero -o "$work/z.wav"
check "/dev/zero as a preset" 65 timeout 10 "$boop" ambient --preset /dev/zero --duration 1 -o "$work/z.wav"
{ for i in $(seq 100000); do printf '['; done; } >"$work/deep.json"
check "deep nesting" 65 "$boop" render "$work/deep.json" -o "$work/z.wav"
printf '{"name": "\xc3\x28"}' >"$work/utf8.json"; check "invalid UTF-8" 65 "$boop" render "$work/utf8.json" -o "$work/z.wav"
printf '{"bpm": -1e308}' >"$work/neg.json"; check "bpm -1e308" 65 "$boop" render "$work/neg.json" -o "$work/z.wav"
printf '{"bpm": NaN}' >"$work/nan.json"; check "bpm NaN" 65 "$boop" render "$work/nan.json" -o "$work/z.wav"
printf '{"name": "\xf0\x9f\x8e\xb5 \\u2028 ok", "bpm": 90}' >"$work/emoji.json"
check "UTF-8 name with U+2028" 0 "$boop" render "$work/emoji.json" -o "$work/z.wav"
check "tone --duration nan" 64 "$boop" tone A4 --duration nan -o "$work/z2.wav"
check "tone --duration 1e308" 64 "$boop" tone A4 --duration 1e308 -o "$work/z2.wav"
check "tone 1e400Hz" 64 "$boop" tone 1e400Hz -o "$work/z2.wav"
check "tone --reference -inf" 64 "$boop" tone A4 --reference=-inf -o "$work/z2.wav"
check "render --loops 99999999999999999999" 64 "$boop" render "$demo" --loops 99999999999999999999 -o "$work/z2.wav"
leftovers "hostile files" "$work"

echo "hostile checks: $failures failure(s)"
[ "$failures" -eq 0 ]
