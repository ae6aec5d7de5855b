#!/usr/bin/env bash
# Live tests on a real clocked server, no sound card needed: a private PulseAudio with a null sink
# (scripts/pulse-null-sink.sh), reached through ALSA's `pulse` PCM.
#
#   scripts/live-tests.sh            build (CMake + SwiftPM release), then run everything below
#
# 1. ctest -L live                  C++ backend: pacing, 0 xruns over 10 s, capture of the monitor,
#                                   bad device, server killed (each test starts its own server)
# 2. swift test (CaptureLive)       AudioStream events against the server
# 3. the CLI, as a user would run it (release `boop`):
#    boop devices · boop play demo -D pulse --loops 2 and a song (wall time = music time) · boop listen --json
#    hearing boop tone A4 at 440 Hz · -D hw:9,0 -> 69 · Ctrl-C -> 0 within 1 s, WAV finalised ·
#    server killed -> 74 (or 69), no hang · boop edit: audition and an edit while playing heard,
#    a simulated singer sung into the loop (-C)
# Servers are stopped by their PID on exit, whatever happens.
#
# Environment: BUILD_DIR (default build-live), SWIFT_SCRATCH (default .build-live),
# BOOP_SKIP_BUILD=1 to reuse existing builds, BOOP_SKIP_SWIFT_LIVE=1 to skip step 2,
# SWIFT_TEST_SCRATCH (default SWIFT_SCRATCH) for step 2's `swift test`, with SWIFT_SANITIZE=address
# (or thread) when it is a build of `swift test --sanitize=...`.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD_DIR=${BUILD_DIR:-build-live}
SWIFT_SCRATCH=${SWIFT_SCRATCH:-.build-live}
SWIFT_TEST_SCRATCH=${SWIFT_TEST_SCRATCH:-$SWIFT_SCRATCH}
WORK=$(mktemp -d /tmp/boop-live.XXXXXX)
SERVER_DIR="$WORK/pulse"
KILL_DIR="$WORK/pulse-kill"

cleanup() {
    "$ROOT/scripts/pulse-null-sink.sh" stop "$SERVER_DIR" >/dev/null 2>&1 || true
    "$ROOT/scripts/pulse-null-sink.sh" stop "$KILL_DIR" >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT
# The servers die with this script even when it is killed outright (see pulse-null-sink.sh).
export BOOP_PULSE_OWNER=$$

source "$ROOT/scripts/live-lib.sh"
# LiveJackTests (in ctest -L live below) starts a JACK server of this run's own name.
claim_jack_names || exit 1

# ---------------------------------------------------------------- build
if [[ "${BOOP_SKIP_BUILD:-0}" != 1 ]]; then
    echo "== building ($BUILD_DIR, $SWIFT_SCRATCH release)"
    cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ \
        -DCMAKE_C_COMPILER=clang >/dev/null || exit 1
    cmake --build "$BUILD_DIR" -j2 || exit 1
    swift build -c release --scratch-path "$SWIFT_SCRATCH" --product boop || exit 1
fi
BOOP="$SWIFT_SCRATCH/release/boop"
[[ -x "$BOOP" ]] || { echo "no release boop at $BOOP" >&2; exit 1; }

# ---------------------------------------------------------------- server
eval "$("$ROOT/scripts/pulse-null-sink.sh" start "$SERVER_DIR")" || { echo "cannot start PulseAudio" >&2; exit 1; }
echo "== PulseAudio null sink: PID $BOOP_PULSE_PID, PULSE_SERVER=$PULSE_SERVER"
MAIN_SERVER=$PULSE_SERVER

# ---------------------------------------------------------------- 1. C++ live tests
echo "== ctest -L live"
if ctest --test-dir "$BUILD_DIR" -L live --output-on-failure; then pass "ctest -L live"; else failed "ctest -L live"; fi
# ctest lists a test that exits 77 as skipped; say which and why where it is this one.
[[ -e /dev/snd/seq ]] || echo "== SKIPPED: LiveAlsaSynthTests (boop synth on ALSA, live): this machine has no /dev/snd/seq"

# ---------------------------------------------------------------- 2. Swift live tests
if [[ "${BOOP_SKIP_SWIFT_LIVE:-0}" != 1 ]]; then
    echo "== swift test --filter CaptureLiveTests|LiveSineWaveNotePlayerTests"
    sanitize=(); [[ -n "${SWIFT_SANITIZE:-}" ]] && sanitize=(--sanitize="$SWIFT_SANITIZE")
    if swift test "${sanitize[@]}" --scratch-path "$SWIFT_TEST_SCRATCH" --filter "CaptureLiveTests|LiveSineWaveNotePlayerTests" 2>&1 | tail -n 3 | grep -q "passed"; then
        pass "swift test CaptureLiveTests, LiveSineWaveNotePlayerTests"
    else
        failed "swift test CaptureLiveTests"
    fi
fi

# ---------------------------------------------------------------- 3. the CLI
echo "== CLI"
out=$("$BOOP" devices 2>&1); rc=$?
if [[ $rc == 0 ]] && grep -q '^\* default' <<<"$out" && grep -q 'pulse .*PulseAudio' <<<"$out" &&
    grep -q '^Capture devices:' <<<"$out"; then
    pass "boop devices lists playback and capture PCMs, default marked"
else
    failed "boop devices (rc $rc): $out"
fi

# Under a tight `ulimit -v`, libpulse cannot start its threads: it reported "connection refused"
# (play) or waited for ever (listen). Both say memory was refused, in one line, with 74, at once.
for cmd in "play examples/demo.json --loops 1 --no-display" "listen --duration 1 --json"; do
    # shellcheck disable=SC2086
    ( ulimit -v 200000; timeout 20 "$BOOP" $cmd -D pulse ) >/dev/null 2>"$WORK/ulimit.err"; rc=$?
    if [[ $rc == 74 ]] && [[ $(wc -l <"$WORK/ulimit.err") == 1 ]] && grep -q 'memory refused' "$WORK/ulimit.err"; then
        pass "${cmd%% *} -D pulse under ulimit -v 200000: 74 $(cat "$WORK/ulimit.err")"
    else
        failed "${cmd%% *} -D pulse under ulimit -v 200000: exit $rc (124: hung) $(cat "$WORK/ulimit.err")"
    fi
done

# play on an idle sink, ten times back to back (every other run after the sink idled 2.5 s, long
# enough to suspend): exit 0 each time, wall time = music time + the idle sink's start (<= 2 s) +
# the 0.3 s release tail.
if "$BOOP" play --help >/dev/null 2>&1; then
    music=$(python3 -c "
import json; p = json.load(open('examples/demo.json'))
print(2 * p.get('length', 16) * 60.0 / (p.get('bpm', 120) * 4))")
    walls=""; bad=0
    for run in 1 2 3 4 5 6 7 8 9 10; do
        (( run % 2 == 0 )) && sleep 2.5
        t0=$(now)
        "$BOOP" play examples/demo.json -D pulse --loops 2 --no-display -v >"$WORK/play.out" 2>&1 &
        wait_for $! $(awk -v m="$music" 'BEGIN { print m + 15 }')
        wall=$(elapsed "$t0" "$(now)")
        walls="$walls $wall"
        if [[ $WAIT_RC != 0 ]] || ! awk -v w="$wall" -v m="$music" 'BEGIN { exit !(w >= m * 0.98 && w <= m + 3) }'; then
            bad=1; echo "  run $run: rc $WAIT_RC, wall ${wall}s: $(tail -c 300 "$WORK/play.out")"
        fi
    done
    if [[ $bad == 0 ]]; then
        pass "boop play --loops 2 on an idle sink, 10 runs: exit 0, wall (s)$walls for ${music}s of music"
    else
        failed "boop play --loops 2 on an idle sink: walls$walls for ${music}s of music"
    fi
    # A song (version 2): its chain with a tempo change, played live, lasts as long as its music.
    music=$(python3 -c "
import json; s = json.load(open('examples/song.json'))
print(sum(s['patterns'][e['pattern']].get('length', 16) * e.get('repeat', 1) * 60.0 / (e.get('bpm', s.get('bpm', 120)) * 4)
          for e in s['song']))")
    t0=$(now)
    "$BOOP" play examples/song.json -D pulse --loops 1 --no-display --seed 3 >"$WORK/song.out" 2>&1 &
    wait_for $! $(awk -v m="$music" 'BEGIN { print m + 15 }')
    wall=$(elapsed "$t0" "$(now)")
    if [[ $WAIT_RC == 0 ]] && awk -v w="$wall" -v m="$music" 'BEGIN { exit !(w >= m * 0.98 && w <= m + 3) }'; then
        pass "boop play of a song (chain, tempo change, instruments): exit 0, wall ${wall}s for ${music}s of music"
    else
        failed "boop play of a song: rc $WAIT_RC, wall ${wall}s for ${music}s of music: $(tail -c 300 "$WORK/song.out")"
    fi

    # The server stopped for 1.5 s mid-play (SIGSTOP, then SIGCONT): a stall, survived.
    "$BOOP" play examples/demo.json -D pulse --loops 3 --no-display -v >"$WORK/stop.out" 2>&1 &
    pid=$!; wait_until 60 "$pid" pulse_playing || echo "  $WAIT_WHY"; sleep 1
    kill -STOP "$BOOP_PULSE_PID"; sleep 1.5; kill -CONT "$BOOP_PULSE_PID"
    wait_for "$pid" 20
    if [[ $WAIT_RC == 0 ]] && grep -q "stalls [1-9]" "$WORK/stop.out"; then
        pass "boop play survives the server stopped for 1.5 s: $(grep '^played' "$WORK/stop.out")"
    else
        failed "boop play with the server stopped for 1.5 s: rc $WAIT_RC: $(tail -c 300 "$WORK/stop.out")"
    fi

    # Two CPU-bound processes on the two cores: 30 s of play, at most 5 xruns in all.
    hogs=()
    for _ in 1 2; do sh -c 'while :; do :; done' & hogs+=($!); done
    "$BOOP" play examples/demo.json -D pulse --loops 15 --no-display -v >"$WORK/load.out" 2>&1 &
    wait_for $! 60
    kill "${hogs[@]}" 2>/dev/null; wait "${hogs[@]}" 2>/dev/null
    xr=$(sed -n 's/^played .*xruns \([0-9]*\),.*/\1/p' "$WORK/load.out")
    if [[ $WAIT_RC == 0 && -n $xr && $xr -le 5 ]]; then
        pass "boop play, 30 s beside two CPU hogs: exit 0, $(grep '^played' "$WORK/load.out")"
    else
        failed "boop play beside two CPU hogs: rc $WAIT_RC, xruns '${xr}': $(tail -c 400 "$WORK/load.out")"
    fi

    # Ambient for 20 s on the idle sink: exit 0, and 20 s of music as the stream counts it (its
    # frames at the device's rate, -v's last line: the end fade over and drained, at most 0.5 s
    # more), never sooner in wall time. The wall time itself is no measure of the duration: a
    # loaded machine's stalls (said beside it) hold the stream, and the music waits for them.
    t0=$(now)
    "$BOOP" ambient -D pulse --duration 20 -v >"$WORK/ambient.out" 2>&1 &
    wait_for $! 80
    wall=$(elapsed "$t0" "$(now)")
    rate=$(sed -n 's/^device pulse: [A-Z0-9_]*, \([0-9]*\) Hz.*/\1/p' "$WORK/ambient.out")
    frames=$(sed -n 's/^played \([0-9]*\) frames.*/\1/p' "$WORK/ambient.out")
    music=$(awk -v f="${frames:-0}" -v r="${rate:-0}" 'BEGIN { printf "%.3f", (r > 0 ? f / r : 0) }')
    if [[ $WAIT_RC == 0 ]] && awk -v m="$music" -v w="$wall" 'BEGIN { exit !(m >= 20 && m <= 20.5 && w >= 19.5) }'; then
        pass "boop ambient --duration 20 on an idle sink: exit 0, ${music} s of music played ($frames frames at $rate Hz) in ${wall} s: $(grep '^played' "$WORK/ambient.out" | sed 's/^played [0-9]* frames, //')"
    else
        failed "boop ambient --duration 20: rc $WAIT_RC, ${music} s of music in ${wall} s: $(tail -c 400 "$WORK/ambient.out")"
    fi
    "$BOOP" play examples/demo.json -D pulse --no-display >/dev/null 2>&1 &
    pid=$!; wait_until 60 "$pid" pulse_playing || echo "  $WAIT_WHY"; sleep 1; t0=$(now); kill -INT "$pid"; wait_for "$pid" 3; took=$(elapsed "$t0" "$(now)")
    if [[ $WAIT_RC == 0 ]] && awk -v t="$took" 'BEGIN { exit !(t <= 1.0) }'; then
        pass "boop play: Ctrl-C -> exit 0 in ${took}s"
    else
        failed "boop play: Ctrl-C -> rc $WAIT_RC in ${took}s"
    fi
else
    echo "SKIP  boop play is not built yet (the lead's command); wall-time check not run"
fi

# boop edit: an auditioned note and a note added while the loop plays, heard on the monitor
if out=$(python3 "$ROOT/scripts/edit-live-test.py" "$BOOP" "$WORK/edit" 2>&1); then
    pass "${out#PASS  }"
else
    failed "${out#FAIL  }"
fi

# boop edit -C: a simulated singer sings a four-bar melody into the loop on the null sink, whose
# monitor is the microphone (it hears boop's clicks too). About 20 s.
# Exit 75: inconclusive (the test's own singer came in too far off the step to judge the notes):
# run again, at most three times, each counted.
for attempt in 1 2 3; do
    out=$(timeout 240 python3 "$ROOT/scripts/edit-sing-live-test.py" "$BOOP" "$WORK/edit-sing-$attempt" 2>&1)
    rc=$?
    [[ $rc == 75 ]] || break
    echo "note: edit -C: take $attempt of at most 3 inconclusive: $(echo "$out" | grep 'inconclusive' | sed 's/^note: //')"
done
if [[ $rc == 0 ]]; then
    pass "edit -C: $(echo "$out" | grep 'sung into the loop' | sed 's/^PASS  //') (take $attempt)"
elif [[ $rc == 75 ]]; then
    failed "edit -C: inconclusive in all 3 takes (the singer never came in near enough a step)"
else
    failed "edit -C: $(echo "$out" | grep -E '^FAIL|^note' | tr '\n' ' ')"
fi

# train match live: a simulated singer's notes played into the null sink once boop, capturing its
# monitor (-C), says it is listening; the references play on -D into the same sink. About 25 s.
if out=$(timeout 240 python3 "$ROOT/scripts/sim-singer.py" "$BOOP" "$WORK/match" --live pulse --notes 5 \
    --tolerance 8 --seed 2 2>&1); then
    pass "${out##*PASS  }"
else
    failed "train match live: $(echo "$out" | tail -5 | tr '\n' ' ')"
fi
# The same with the references in an engine timbre (--timbre melody) instead of the sine. About 15 s.
if out=$(timeout 240 python3 "$ROOT/scripts/sim-singer.py" "$BOOP" "$WORK/match-timbre" --live pulse --notes 3 \
    --tolerance 8 --seed 3 --timbre melody 2>&1); then
    pass "${out##*PASS  }"
else
    failed "train match --timbre melody live: $(echo "$out" | tail -5 | tr '\n' ' ')"
fi
# The same singer coughing (a 0.35 s noise burst) 0.6 s before each note, with --drone holding the
# reference under the singing: the cough is set aside, the drone never taken for the note. About 30 s.
if out=$(timeout 240 python3 "$ROOT/scripts/sim-singer.py" "$BOOP" "$WORK/match-cough" --live pulse --notes 5 \
    --tolerance 8 --seed 5 --cough --drone 2>&1); then
    pass "${out##*PASS  }"
else
    failed "train match live, a cough and --drone: $(echo "$out" | tail -5 | tr '\n' ' ')"
fi

# listen hears tone A4
"$BOOP" listen -D pulse --json --duration 3 >"$WORK/listen.json" 2>"$WORK/listen.err" &
lpid=$!
wait_until 60 "$lpid" pulse_recording || echo "  $WAIT_WHY"
"$BOOP" tone A4 -D pulse --duration 2 >"$WORK/tone.out" 2>&1; trc=$?
wait_for "$lpid" 6
verdict=$(python3 - "$WORK/listen.json" <<'EOF'
import json, sys, statistics
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
keys = {"time", "rms", "peak", "frequency", "note", "cents"}
assert rows and all(set(r) == keys for r in rows), "bad JSON objects"
voiced = [r for r in rows if r["frequency"] is not None and r["note"] == "A4"]
med = statistics.median(r["frequency"] for r in voiced) if voiced else 0
import math
cents = 1200 * math.log2(med / 440) if med else 99
print(f"{len(rows)} buffers, {len(voiced)} A4, median {med:.3f} Hz ({cents:+.2f} cents)")
sys.exit(0 if len(voiced) >= 5 and abs(cents) < 5 else 1)
EOF
)
vrc=$?
if [[ $WAIT_RC == 0 && $trc == 0 && $vrc == 0 ]]; then
    pass "boop listen -D pulse --json hears boop tone A4: $verdict"
else
    failed "listen/tone: listen rc $WAIT_RC, tone rc $trc: $verdict $(head -c 300 "$WORK/listen.err" "$WORK/tone.out")"
fi

# listen --raw and --json --samples hand the samples to another program: the tone is in tune. It is
# judged on its longest steady stretch: a discontinuity in what the monitor delivered (a server's
# underflow or a capture overrun: samples missing or silence inserted, far off a sine's own
# prediction where one sample's noise is ~1e-4 of it) moves a spectral peak over the whole window
# by a cent or two, the capture's fault, not the tone's. Each one found is excluded and said; the
# stretch between them must hold at least 0.5 s.
tune_check() {  # $1: file of mono float32 samples, $2: rate -> prints the frequency; exit 0 when A4 within 2 cents
    python3 - "$1" "$2" <<'EOF'
import sys, numpy as np
x = np.fromfile(sys.argv[1], dtype="<f4").astype(np.float64); rate = float(sys.argv[2])
env = np.abs(x) > 0.05 * np.max(np.abs(x)) if x.size else np.zeros(0, bool)
idx = np.flatnonzero(env)
assert idx.size > rate * 0.5, f"only {idx.size} loud samples"
whole = x[idx[0] + int(0.1 * rate): idx[-1] - int(0.1 * rate)]
def peak(seg):
    n = 1 << int(np.ceil(np.log2(seg.size)) + 2)
    spec = np.abs(np.fft.rfft(seg * np.hanning(seg.size), n))
    k = int(np.argmax(spec)); a, b, c = np.log(spec[k - 1:k + 2])
    return (k + 0.5 * (a - c) / (a - 2 * b + c)) * rate / n
# A sine obeys x[n] = 2 cos(w) x[n-1] - x[n-2]: where the residual jumps, the stream broke.
w = 2 * np.pi * peak(whole) / rate
r = np.abs(whole[2:] - 2 * np.cos(w) * whole[1:-1] + whole[:-2])
amp = np.max(np.abs(whole))
breaks = np.flatnonzero(r > max(50 * np.median(r), 0.005 * amp)) + 1
edges = [0] + [int(b) for b in breaks] + [whole.size]
lo, hi = max(zip(edges, edges[1:]), key=lambda e: e[1] - e[0])
lo, hi = (lo + 4 if lo else lo), (hi - 4 if hi < whole.size else hi)  # clear of the break itself
seg = whole[lo:hi]
spots = sorted({round(b / rate, 2) for b in breaks})
told = (f"; {len(spots)} discontinuities excluded (at {', '.join(f'{t:.2f}' for t in spots[:6])} s; the largest "
        f"{np.max(r[breaks - 1]) / amp:.3f} of the amplitude off the sine, one sample's noise {np.median(r) / amp:.1e})"
        if spots else "")
assert seg.size >= 0.5 * rate, f"no steady 0.5 s: the longest stretch between discontinuities is {seg.size / rate:.2f} s{told}"
f = peak(seg)
cents = 1200 * np.log2(f / 440.0)
print(f"{f:.3f} Hz ({cents:+.2f} cents), {seg.size / rate:.2f} s of {whole.size / rate:.2f} s analysed{told}")
sys.exit(0 if abs(cents) < 2 else 1)
EOF
}
"$BOOP" listen -D pulse --raw --duration 4.5 >"$WORK/raw.f32" 2>"$WORK/raw.err" &
lpid=$!; wait_until 60 "$lpid" pulse_recording || echo "  $WAIT_WHY"
"$BOOP" tone A4 -D pulse --duration 2 >/dev/null 2>&1
wait_for "$lpid" 10
verdict=$(tune_check "$WORK/raw.f32" 16000 2>&1); vrc=$?
if [[ $WAIT_RC == 0 && $vrc == 0 && ! -s "$WORK/raw.err" ]]; then
    pass "boop listen --raw delivers boop tone A4 in tune: $verdict"
else
    failed "boop listen --raw: rc $WAIT_RC: $verdict $(head -c 200 "$WORK/raw.err")"
fi
"$BOOP" listen -D pulse --json --samples --duration 4.5 >"$WORK/samples.json" 2>"$WORK/samples.err" &
lpid=$!; wait_until 60 "$lpid" pulse_recording || echo "  $WAIT_WHY"
"$BOOP" tone A4 -D pulse --duration 2 >/dev/null 2>&1
wait_for "$lpid" 10
python3 -c "
import json, sys, numpy as np
rows = [json.loads(l) for l in open('$WORK/samples.json') if l.strip()]
assert rows and all(r['rate'] == 16000 and isinstance(r['samples'], list) for r in rows)
np.concatenate([np.array(r['samples'], dtype='<f4') for r in rows]).tofile('$WORK/samples.f32')
" 2>"$WORK/samples.py.err"
verdict=$(tune_check "$WORK/samples.f32" 16000 2>&1); vrc=$?
if [[ $WAIT_RC == 0 && $vrc == 0 ]]; then
    pass "boop listen --json --samples delivers boop tone A4 in tune: $verdict"
else
    failed "boop listen --json --samples: rc $WAIT_RC: $verdict $(head -c 200 "$WORK/samples.py.err" "$WORK/samples.err")"
fi
# a reader that stops reading: boop ends quietly with exit 0
"$BOOP" listen -D pulse --raw 2>"$WORK/pipe.err" | head -c 64000 >/dev/null; rc=${PIPESTATUS[0]}
"$BOOP" listen -D pulse --json --samples 2>>"$WORK/pipe.err" | head -n 2 >/dev/null; rc2=${PIPESTATUS[0]}
if [[ $rc == 0 && $rc2 == 0 && ! -s "$WORK/pipe.err" ]]; then
    pass "boop listen --raw | head and --json --samples | head: exit 0, nothing on stderr"
else
    failed "boop listen into a closed pipe: rc $rc / $rc2: $(head -c 200 "$WORK/pipe.err")"
fi

# missing device -> 69, one line
for cmd in "listen -D hw:9,0" "tone A4 -D hw:9,0" "play examples/demo.json -D hw:9,0 --no-display"; do
    # shellcheck disable=SC2086
    "$BOOP" $cmd >"$WORK/bad.out" 2>"$WORK/bad.err" </dev/null &
    wait_for $! 5
    lines=$(wc -l <"$WORK/bad.err")
    if [[ $WAIT_RC == 69 && $lines == 1 ]]; then
        pass "boop $cmd -> exit 69: $(cat "$WORK/bad.err")"
    elif [[ $cmd == play* ]] && ! "$BOOP" play --help >/dev/null 2>&1; then
        echo "SKIP  boop play missing"
    else
        failed "boop $cmd -> rc $WAIT_RC, $lines stderr line(s): $(head -c 300 "$WORK/bad.err")"
    fi
done

# Ctrl-C on listen -o: exit 0 within a second, the WAV complete
# (2.5 s after the recording stream runs: an idle null sink's monitor delivers its first audio
# about 2 s after the stream opens.)
"$BOOP" listen -D pulse -q -o "$WORK/rec.wav" &
pid=$!
wait_until 60 "$pid" pulse_recording || echo "  $WAIT_WHY"
sleep 2.5
t0=$(now); kill -INT "$pid"; wait_for "$pid" 3; took=$(elapsed "$t0" "$(now)")
wavcheck=$(python3 - "$WORK/rec.wav" <<'EOF'
import struct, sys, os
d = open(sys.argv[1], "rb").read()
assert d[:4] == b"RIFF" and d[8:12] == b"WAVE", "not a RIFF/WAVE file"
assert struct.unpack("<I", d[4:8])[0] + 8 == len(d), "RIFF size does not match the file"
pos, fmt, frames = 12, None, None
while pos + 8 <= len(d):
    cid, size = d[pos:pos + 4], struct.unpack("<I", d[pos + 4:pos + 8])[0]
    if cid == b"fmt ":
        fmt = struct.unpack("<HHIIHH", d[pos + 8:pos + 24])
    if cid == b"data":
        assert pos + 8 + size <= len(d), "data chunk runs past the end"
        frames = size // fmt[4]
    pos += 8 + size + (size & 1)
assert fmt and frames, "no fmt/data"
print(f"{frames} frames at {fmt[2]} Hz ({frames / fmt[2]:.2f} s), {fmt[1]} ch, tag {fmt[0]}")
EOF
)
wrc=$?
leftover=$(find "$WORK" -maxdepth 1 -name 'rec.wav.*' | wc -l)
if [[ $WAIT_RC == 0 && $wrc == 0 && $leftover == 0 ]] && awk -v t="$took" 'BEGIN { exit !(t <= 1.0) }'; then
    pass "boop listen -o: Ctrl-C -> exit 0 in ${took}s, WAV valid: $wavcheck"
else
    failed "boop listen -o: Ctrl-C -> rc $WAIT_RC in ${took}s; wav: $wavcheck; temp files left: $leftover"
fi

# the server killed mid-run -> 74 (or 69), no hang. A second server, so the main one survives.
eval "$("$ROOT/scripts/pulse-null-sink.sh" start "$KILL_DIR")" >/dev/null
for cmd in "listen -D pulse -q" "tone A4 -D pulse --duration 20" "play examples/demo.json -D pulse --loops 100 --no-display"; do
    if [[ $cmd == play* ]] && ! "$BOOP" play --help >/dev/null 2>&1; then continue; fi
    "$ROOT/scripts/pulse-null-sink.sh" start "$KILL_DIR" >/dev/null
    kpid=$(cat "$KILL_DIR/pid")
    PULSE_SERVER="unix:$KILL_DIR/run/pulse/native" "$BOOP" $cmd >/dev/null 2>"$WORK/kill.err" </dev/null &
    pid=$!
    PULSE_SERVER="unix:$KILL_DIR/run/pulse/native" wait_until 60 "$pid" pulse_has_stream || echo "  $WAIT_WHY"
    t0=$(now); kill -KILL "$kpid"; wait_for "$pid" 5; took=$(elapsed "$t0" "$(now)")
    rm -f "$KILL_DIR/pid"
    if [[ $WAIT_RC == 74 || $WAIT_RC == 69 ]] && [[ $(wc -l <"$WORK/kill.err") == 1 ]]; then
        pass "boop $cmd, server killed -> exit $WAIT_RC in ${took}s: $(cat "$WORK/kill.err")"
    else
        failed "boop $cmd, server killed -> rc $WAIT_RC in ${took}s: $(head -c 300 "$WORK/kill.err")"
    fi
done
export PULSE_SERVER=$MAIN_SERVER

# ---------------------------------------------------------------- 4. MPRIS with a real client
echo "== MPRIS (playerctl on a private session bus)"
if "$ROOT/scripts/mpris-check.sh" --title Demo -- "$BOOP" play examples/demo.json -D pulse --no-display >"$WORK/mpris.out" 2>&1; then
    pass "playerctl -p boop: play shows Playing, title Demo, $(grep -o "position moves: [0-9.]*s" "$WORK/mpris.out"), pauses (the position holds), resumes, quits with exit 0"
else
    failed "MPRIS check on boop play: $(tail -n 5 "$WORK/mpris.out")"
fi
if "$ROOT/scripts/mpris-check.sh" --next -- "$BOOP" ambient -D pulse -q >"$WORK/mpris-ambient.out" 2>&1; then
    pass "playerctl -p boop: ambient $(grep -o "position moves: [0-9.]*s" "$WORK/mpris-ambient.out"), pauses (the position holds), resumes, next/previous switch presets, quits with exit 0"
else
    failed "MPRIS check on boop ambient: $(tail -n 5 "$WORK/mpris-ambient.out")"
fi

echo "== $PASSES passed, $FAILURES failed"
[[ $FAILURES == 0 ]]
