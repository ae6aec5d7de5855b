#!/usr/bin/env bash
# Live tests of the JACK backend against a private jackd2 with the dummy driver (a real clocked
# server, no sound card): 48 kHz, 64-frame periods, as a low-latency studio setup runs.
#
#   scripts/jack-tests.sh [BOOP]     BOOP defaults to the release build (swift build -c release)
#
# The C++ live test (LiveJackTests) from the sanitizer builds ·
# no server -> 69 with one line · boop devices lists the ports · play --backend jack --loops 2
# takes the music's time with boop:out_N connected to system:playback_N while it plays ·
# --no-connect leaves them unconnected · tone, ambient and listen run and exit 0 · the server
# killed during play and during listen -> 74 within 5 s.
# The server runs under its own name (JACK_DEFAULT_SERVER), so a user's JACK is never touched,
# and is stopped by its PID on exit; it is also started with a parent-death signal (setpriv
# --pdeathsig), so it dies with this script even if the script is killed outright.
# Every wait is for the thing itself (the server taking clients, boop's ports appearing or being
# connected), with generous limits: a loaded two-core machine can be slow to start anything.
# boop synth (scripts/jack_synth_test.py, about 25 s): notes sent at random frames start the
# latency out_1 reports (the output stage's look-ahead) and one frame later at 64- and 256-frame
# periods (jitter 0), a chord played hard at --gain 12 held at -1 dBTP by the output stage's
# limiter (scripts/jack_synth_loud_test.py), C3...C6 in tune, channels 2/3/10, the
# sustain pedal, all notes off, CC 7 on sounding notes, random bytes, --record (a .mid at 64 frames,
# a WAV equal to the output at 256; a missing folder -> 73); no server -> 69; the server killed -> 74.
# play --midi-out --clock --no-sound (scripts/jack_midi_out_test.py, about 10 s; a song:
# scripts/jack_midi_out_song_test.py, about 5 s): every note and
# clock on the sequencer's frame, Start first, Stop and note-offs after SIGTERM.
# play --midi-out --clock --loops 2 (scripts/jack_midi_out_stop_test.py, about 3 s): one Stop, on the
# frame the second loop ends (within a frame), with the sound and with --no-sound.
# play --sync jack (scripts/jack_sync_test.py, about 10 s): the test client as timebase master
# (BBT 100 BPM) places, starts, moves, stops and restarts the transport; every note on the
# formula's frame from the transport's start frame, the first step of each run included (boop is
# a slow-sync client), Song Position + Continue first, only note-offs and Stop once it stopped;
# then a song started in its second entry, each note on its frame in the song's own time.
# play --sync jack through xruns (scripts/jack_sync_xrun_test.py, twice about 10 s): a test client
# sleeps four periods in its process callback, four times, while boop follows a rolling transport,
# with --midi-out and with sound (out_1 recorded): every note the xruns did not touch on its
# transport frame, those after each xrun included; Start and Stop once, nothing between.
# play --sync midi (scripts/jack_clock_sync_test.py, about 14 s): a steady 24 ppq clock at 110 BPM
# into boop:midi_in, Start one clock before a step, then Song Position + Continue: a run's first
# step on the first clock after Start (Continue), every note after within 1 frame of its step's
# clock (the prediction's bound), only note-offs after Stop.
# play --sync midi at 90 ... 200 BPM (scripts/jack_clock_tempo_test.py, about 70 s): a pattern whose
# notes overlap the next steps and the shipped examples, every note-on on its step's clock within
# 1 frame whatever note-offs are pending; steps an xrun touched are left out and counted.
# edit --backend jack (scripts/jack_reconnect_test.py, about 40 s): the server killed and started
# again five times while the loop plays; each time 'reconnecting', the unsaved work in FILE.save
# before the reconnect, the loop heard again; every edit saved, exit 0.
# play --reconnect (scripts/jack_play_reconnect_test.py, about 20 s): the server killed and started
# again four times; each time the loss and the return said on stderr, the loop heard again, no exit;
# SIGTERM -> 0; without --reconnect the server killed -> 74.
# synth --reconnect (scripts/jack_synth_reconnect_test.py, about 15 s): the server killed and
# started again four times; each time the loss and the return said, a note sent to boop:midi_in
# heard on boop:out_1; SIGTERM -> 0, also while waiting; without --reconnect -> 74.
# A server that does not answer (scripts/jack_stuck_server_test.py, about 60 s): stopped
# (SIGSTOP), play, synth, ambient, listen and tone exit 69 after 5 s saying so; stopped under
# the editor, s saves and q exits 0; a hung socket in place of a killed server, the editor takes
# edits while it waits, plays on once a real server is back, saves every edit, exit 0.
# edit --backend jack --midi PORT (scripts/jack_edit_midi_test.py, about 7 s): the test client's
# notes into boop:midi_in with step entry on land in the saved file at the cursor, with their
# velocities, a chord on one step; from silence, a key played at offsets 37 and 211 of its cycle
# starts in boop's recorded output the same number of frames after its event (sample-exact).
# edit's live recording (scripts/jack_edit_record_test.py, about 25 s): with the loop stopped, `*`
# counts in four clicks a beat apart; a part played up to 30 ms off its steps lands on its steps
# with its velocities and lengths at quantize 100 %, keeps its offsets within 0.002 step at 0 %;
# one undo step takes back a pass; replace clears the track at the pass's first note.
# edit's sung recording (scripts/jack_edit_sing_test.py, about 20 s): a simulated singer (vibrato,
# scoops, breath, 20 dB noise) sings a four-bar melody into boop's capture port in time with the
# loop, which the microphone also hears (the count-in's click measures the capture's latency):
# >= 95 % of the notes on their step and pitch, none where nothing was sung.
# boop.lv2 (scripts/jack_lv2_test.py, about 10 s; the bundle from $BOOP_LV2_DIR, default
# build-test-none/lv2): lv2info lists it without a warning; jalv loads it with its ports and a
# saved state holding a 19-EDO tuning (-l), reports its latency port, and notes at random offsets
# start that latency + 1 frame after their events (jitter 0), within 0.01 cent of the tuning.
set -uo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
BOOP=${1:-$(swift build -c release --show-bin-path)/boop}
WORK=$(mktemp -d /tmp/boop-jack.XXXXXX)
export JACK_NO_AUDIO_RESERVATION=1 # no D-Bus device reservation: the dummy driver has no card
JACKD_PID=""

# After a server was killed: its metadata database goes too (see forget_metadata in
# jack_test_lib.py: a lock the killed server held would hold every later client), where this
# stage has a /dev/shm of its own.
forget_metadata() { [ "${BOOP_JACK_PRIVATE_SHM:-}" != 1 ] || rm -rf "/dev/shm/jack_db-$(id -u)"; }
stop_jackd() {
  if [ -n "$JACKD_PID" ]; then
    kill -TERM "$JACKD_PID" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$JACKD_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$JACKD_PID" 2>/dev/null
    wait "$JACKD_PID" 2>/dev/null
    JACKD_PID=""
    forget_metadata
  fi
}
cleanup() {
  stop_jackd
  rm -rf "$WORK"
}
trap cleanup EXIT

source scripts/live-lib.sh
# This run's own server names (boop-cli-tests, and boop-live-tests for LiveJackTests, unless
# another run holds them: see claim_jack_names).
claim_jack_names || exit 1

# jackd dies with this script (SIGKILL when its parent, this shell, goes), where setpriv exists.
deathsig=()
setpriv --pdeathsig KILL true 2>/dev/null && deathsig=(setpriv --pdeathsig KILL)

jack_up() { jack_lsp -s "$JACK_DEFAULT_SERVER" 2>/dev/null | grep "system:playback_1" >/dev/null; }

# Starts the dummy server (real-time scheduling when permitted, as jackd does by default; without
# it when not) and waits until it takes clients (60 s at most, and no longer than it lives).
start_jackd() { # [PERIOD], 64 by default
  local period=${1:-64}
  if jack_up; then
    echo "a JACK server named $JACK_DEFAULT_SERVER is already running, not started by this script; stop it first:" >&2
    pgrep -a -x jackd | grep -E -e "-n $JACK_DEFAULT_SERVER( |\$)" >&2
    return 1
  fi
  for rt in -R -r; do
    "${deathsig[@]}" jackd "$rt" -n "$JACK_DEFAULT_SERVER" -d dummy -r 48000 -p "$period" -w $((period * 1000000 / 48000)) >"$WORK/jackd.log" 2>&1 &
    JACKD_PID=$!
    if wait_until 60 "$JACKD_PID" jack_up; then return 0; fi
    echo "jackd $rt: $WAIT_WHY" >&2
    stop_jackd
  done
  cat "$WORK/jackd.log"
  return 1
}

# jack_lsp -c as it stands; boop's port PORT connected to system port TARGET in it.
connections() { jack_lsp -c 2>&1; }
connected() { connections | grep -A1 -x "$1" | grep "$2" >/dev/null; }
# Runs a Python test client (its PASS/FAIL lines counted here); NAME says which printed nothing.
run_client() { # NAME SCRIPT ARGS...
  local name=$1 out
  shift
  out=$(python3 "$@" 2>&1)
  echo "$out"
  PASSES=$((PASSES + $(grep -c '^PASS' <<<"$out")))
  FAILURES=$((FAILURES + $(grep -c '^FAIL' <<<"$out")))
  grep -q '^PASS' <<<"$out" || failed "$name printed no result"
}

# As run_client, for a frame-exact client that exits 75 (jack_test_lib.INCONCLUSIVE) when the
# server's xruns touched too much of its measurement to judge: run again, at most TRIES times in
# all; only the last run's PASS/FAIL lines count, and how many runs it took is said.
run_measured() { # NAME TRIES SCRIPT ARGS...
  local name=$1 tries=$2 out rc attempt
  shift 2
  for attempt in $(seq "$tries"); do
    out=$(python3 "$@" 2>&1)
    rc=$?
    echo "$out"
    [ "$rc" = 75 ] || break
    echo "note: $name: run $attempt of at most $tries inconclusive (the server's xruns), running it again"
  done
  if [ "$rc" = 75 ]; then
    failed "$name: inconclusive in all $tries runs (the server's xruns touched too much each time)"
    return
  fi
  [ "$attempt" = 1 ] || echo "note: $name: judged on run $attempt ($((attempt - 1)) inconclusive before it)"
  PASSES=$((PASSES + $(grep -c '^PASS' <<<"$out")))
  FAILURES=$((FAILURES + $(grep -c '^FAIL' <<<"$out")))
  grep -q '^PASS' <<<"$out" || failed "$name printed no result"
}

# One of boop's ports has a connection: its client is active.
boop_connected() { jack_lsp -c 2>/dev/null | grep -A1 '^boop:' | grep -q '^ '; }
has_port() { jack_lsp 2>/dev/null | grep "^$1" >/dev/null; }

# The C++ backend first, from the RealtimeSanitizer build (the process callbacks checked on the
# server's real-time thread) and the AddressSanitizer build, when scripts/test.sh built them.
# (ThreadSanitizer cannot host libjack: its threads end inside pthread_cancel.)
live_jackds() { pgrep -a -x jackd | grep -E -e "-n $BOOP_LIVE_JACK_SERVER( |\$)" | sort; }
jackds_before=$(live_jackds)
for mode in realtime address; do
  test=build-test-$mode/LiveJackTests
  [ -x "$test" ] || continue
  if "$test" >"$WORK/cxx.log" 2>&1; then
    pass "C++ JACK backend under the $mode sanitizer: $(grep -o 'played [^,]*' "$WORK/cxx.log")"
  else
    failed "C++ JACK backend under the $mode sanitizer:"
    cat "$WORK/cxx.log"
  fi
done
# The capture's MIDI output (listen --midi-out) from the RealtimeSanitizer build likewise.
if [ -x build-test-realtime/LiveJackCaptureMidiTests ]; then
  if build-test-realtime/LiveJackCaptureMidiTests >"$WORK/cxx.log" 2>&1; then
    pass "C++ JACK capture midi_out under the realtime sanitizer: $(grep -o 'capture midi_out: [^,]*' "$WORK/cxx.log")"
  else
    failed "C++ JACK capture midi_out under the realtime sanitizer:"
    cat "$WORK/cxx.log"
  fi
fi

# Pass or fail, the C++ test stops its jackd (and the kernel kills it if the test dies first): no
# jackd of its name is running now that was not running before it.
left=$(comm -13 <(echo "$jackds_before") <(live_jackds))
if [ -n "$left" ]; then
  failed "LiveJackTests left its server running: $left"
else
  pass "LiveJackTests left no server running"
fi

echo "--- no server ---"
"$BOOP" play examples/demo.json --backend jack --no-display 2>"$WORK/err"
rc=$?
if [ "$rc" = 69 ] && [ "$(wc -l <"$WORK/err")" = 1 ]; then
  pass "no JACK server: exit 69, one line: $(cat "$WORK/err")"
else
  failed "no JACK server: exit $rc (expected 69), stderr: $(cat "$WORK/err")"
fi

"$BOOP" synth --backend jack --no-display 2>"$WORK/err"
rc=$?
if [ "$rc" = 69 ] && [ "$(wc -l <"$WORK/err")" = 1 ]; then
  pass "synth, no JACK server: exit 69, one line: $(cat "$WORK/err")"
else
  failed "synth, no JACK server: exit $rc (expected 69), stderr: $(cat "$WORK/err")"
fi

echo "--- jackd -d dummy -r 48000 -p 64 -w 1333 ---"
if ! start_jackd; then
  failed "jackd did not start"
  exit 1
fi

"$BOOP" devices >"$WORK/devices"
if grep -q "system:playback_1" "$WORK/devices" && grep -q "system:capture_1" "$WORK/devices"; then
  pass "boop devices lists the server's ports"
else
  failed "boop devices does not list the JACK ports: $(cat "$WORK/devices")"
fi

# demo.json: 16 steps at 120 BPM = 2 s a loop.
music=$(python3 -c "import json; d=json.load(open('examples/demo.json')); print(2 * d['length'] * 60 / (d['bpm'] * 4))")
start=$(now)
"$BOOP" play examples/demo.json --backend jack --loops 2 --no-display -v >"$WORK/play.out" 2>"$WORK/play.err" &
pid=$!
# While it plays, both outputs get connected: wait for that (or for boop to end without it).
both() { connected boop:out_1 system:playback_1 && connected boop:out_2 system:playback_2; }
wait_until 60 "$pid" both
connections >"$WORK/connections"
wait_for "$pid" 30
took=$(elapsed "$start" "$(now)")
if [ "$WAIT_RC" = 0 ] && awk -v t="$took" -v m="$music" 'BEGIN { exit !(t >= m && t <= m + 1.5) }'; then
  pass "play --backend jack --loops 2: ${took} s for ${music} s of music"
else
  failed "play --backend jack --loops 2: exit $WAIT_RC after ${took} s (music ${music} s): $(cat "$WORK/play.err")"
fi
if grep -A1 -x "boop:out_1" "$WORK/connections" | grep -q "system:playback_1" &&
  grep -A1 -x "boop:out_2" "$WORK/connections" | grep -q "system:playback_2"; then
  pass "while playing, boop:out_1/2 are connected to system:playback_1/2"
else
  failed "ports not connected while playing: $(cat "$WORK/connections")"
fi
grep "device jack:" "$WORK/play.err" | sed 's/^/      /'
grep "played" "$WORK/play.err" | sed 's/^/      /'
# -v's latency is counted in frames (the lead the first step was queued with, plus the ports'
# delay), not on the wall clock when the loop happens to look: well under 100 ms here.
heard_ms=$(sed -n 's/^latency: first note heard \([0-9.]*\) ms after it was queued.*/\1/p' "$WORK/play.err")
if [ -n "$heard_ms" ] && awk -v t="$heard_ms" 'BEGIN { exit !(t > 0 && t < 100) }'; then
  pass "play -v: first note heard ${heard_ms} ms after it was queued (under 100 ms)"
else
  failed "play -v: first note heard '${heard_ms}' ms after it was queued (expected under 100): $(grep latency "$WORK/play.err")"
fi

"$BOOP" play examples/demo.json --backend jack --loops 1 --no-connect --no-display 2>"$WORK/err" &
pid=$!
# The port appears, then stays unconnected as long as boop plays: watched until it exits.
wait_until 60 "$pid" has_port boop:out_1
seen=0 ever_connected=0
: >"$WORK/connections"
while kill -0 "$pid" 2>/dev/null; do
  connections >"$WORK/now"
  if grep -qx "boop:out_1" "$WORK/now"; then
    seen=1
    cp "$WORK/now" "$WORK/connections"
    grep -A1 -x "boop:out_1" "$WORK/now" | grep "system:" >/dev/null && ever_connected=1
  fi
  sleep 0.1
done
wait_for "$pid" 20
if [ "$WAIT_RC" = 0 ] && [ "$seen" = 1 ] && [ "$ever_connected" = 0 ]; then
  pass "--no-connect: the ports exist and are left unconnected"
else
  failed "--no-connect: exit $WAIT_RC, connections: $(cat "$WORK/connections") $(cat "$WORK/err")"
fi

for cmd in "tone A4 --backend jack" "ambient --backend jack --duration 2 -q" "listen --backend jack --duration 1 --json"; do
  # shellcheck disable=SC2086
  "$BOOP" $cmd >"$WORK/out" 2>"$WORK/err" &
  pid=$!
  wait_for "$pid" 15
  if [ "$WAIT_RC" = 0 ]; then pass "boop $cmd"; else failed "boop $cmd: exit $WAIT_RC: $(cat "$WORK/err")"; fi
done
lines=$(grep -c '"rms"' "$WORK/out")
[ "$lines" -ge 20 ] && pass "listen --backend jack --json: $lines readings in 1 s" ||
  failed "listen --backend jack: $lines readings in 1 s"

# The synth test's PASS/FAIL lines, counted here.
synth_test() {
  if ! python3 -c "import jack, numpy" 2>/dev/null; then
    failed "boop synth: the test client needs JACK-Client and numpy (scripts/setup.sh installs them)"
    return
  fi
  run_measured "boop synth test" 3 scripts/jack_synth_test.py "$BOOP" "$@"
}
synth_test --quick
# Played hard at --gain 12: the output stage's limiter holds the true peak at -1 dBTP.
if python3 -c "import jack, numpy, pyloudnorm, scipy" 2>/dev/null; then
  run_measured "boop synth played hard" 3 scripts/jack_synth_loud_test.py "$BOOP"
else
  failed "boop synth played hard: the test client needs JACK-Client, numpy, scipy and pyloudnorm (scripts/setup.sh)"
fi
# Palette channels, CC 10's equal-power pan, CC 120, --name, --midi-connect by part of a name,
# Ctrl-Z (SIGTSTP: out of the graph, jack_lsp answers) and --lookahead 0
# (scripts/jack_synth_palette_test.py, about 10 s).
if python3 -c "import jack, numpy, pyloudnorm, scipy" 2>/dev/null; then
  run_client "boop synth palette test" scripts/jack_synth_palette_test.py "$BOOP"
else
  failed "boop synth palette test: the test client needs JACK-Client, numpy, scipy and pyloudnorm (scripts/setup.sh)"
fi
# MPE: a member channel's own bend moves its note 200 cents, its zone's other notes stay
# (scripts/jack_synth_mpe_test.py, about 5 s). Each stretch is read without the cycles the server
# ran without the synth (silent in the recording): read across them, as it once was, the unbent
# note seemed cents off at these 64-frame periods. Inconclusive (75) when they touch every copy
# of the bend or the RPN: run again.
if python3 -c "import jack, numpy, scipy" 2>/dev/null; then
  run_measured "boop synth MPE test" 3 scripts/jack_synth_mpe_test.py "$BOOP"
else
  failed "boop synth MPE test: the test client needs JACK-Client, numpy and scipy (scripts/setup.sh)"
fi

# --record a file that cannot be made: one line and 73 before anything plays, nothing left behind.
"$BOOP" synth --backend jack --no-connect --no-display --record "$WORK/missing/take.wav" >/dev/null 2>"$WORK/err"
rc=$?
[ "$rc" = 73 ] && [ "$(wc -l <"$WORK/err")" = 1 ] && pass "synth --record into a missing folder -> 73: $(cat "$WORK/err")" ||
  failed "synth --record into a missing folder -> $rc: $(cat "$WORK/err")"
"$BOOP" synth --backend jack --record "$WORK/take.txt" >/dev/null 2>"$WORK/err"
rc=$?
[ "$rc" = 64 ] && pass "synth --record take.txt -> 64: $(cat "$WORK/err")" || failed "synth --record take.txt -> $rc"

# A MIDI port of no such name is the user's mistake (64, one line naming it), not a device's (69).
"$BOOP" synth --backend jack --no-display --midi-connect "no-such:port" >/dev/null 2>"$WORK/err"
rc=$?
[ "$rc" = 64 ] && [ "$(wc -l <"$WORK/err")" = 1 ] && pass "synth --midi-connect no-such:port -> 64: $(cat "$WORK/err")" ||
  failed "synth --midi-connect no-such:port -> $rc: $(cat "$WORK/err")"
"$BOOP" play examples/demo.json --backend jack --no-display --midi-out --midi-connect "no-such:port" >/dev/null 2>"$WORK/err"
rc=$?
[ "$rc" = 64 ] && [ "$(wc -l <"$WORK/err")" = 1 ] && pass "play --midi-connect no-such:port -> 64: $(cat "$WORK/err")" ||
  failed "play --midi-connect no-such:port -> $rc: $(cat "$WORK/err")"

# boop devices lists JACK MIDI ports: boop:midi_in while a synth runs.
"$BOOP" synth --backend jack --no-connect --no-display >/dev/null 2>"$WORK/err" &
pid=$!
if wait_until 60 "$pid" has_port boop:midi_in && "$BOOP" devices | grep -q "boop:midi_in.*JACK MIDI input"; then
  pass "boop devices lists boop:midi_in among the MIDI sinks"
else
  failed "boop devices does not list boop:midi_in: $("$BOOP" devices | tail -5) $(cat "$WORK/err")"
fi
kill -TERM "$pid"
wait_for "$pid" 20
[ "$WAIT_RC" = 0 ] && pass "synth: SIGTERM -> exit 0" || failed "synth: SIGTERM -> exit $WAIT_RC"

# The ALSA sequencer: only where the kernel offers one (build machines and containers do not).
if [ -e /dev/snd/seq ]; then
  if "$BOOP" devices | grep -q "ALSA sequencer"; then
    pass "boop devices lists the ALSA sequencer's ports"
  else
    failed "/dev/snd/seq exists but boop devices lists no ALSA sequencer port"
  fi
else
  echo "SKIP  ALSA sequencer live check: this machine has no /dev/snd/seq (the conversion of sequencer events is unit-tested in AlsaSeqEventsTests)"
fi

echo "--- the server killed ---"
for cmd in "play examples/demo.json --backend jack --no-display" "listen --backend jack --json" \
  "synth --backend jack --no-display"; do
  # shellcheck disable=SC2086
  "$BOOP" $cmd >/dev/null 2>"$WORK/err" &
  pid=$!
  # Killed while boop is its active client: once one of its ports is connected (the ports are
  # registered before the client is activated; a server gone before that is 69, not 74).
  wait_until 60 "$pid" boop_connected || echo "  $WAIT_WHY"
  kill -KILL "$JACKD_PID"
  wait "$JACKD_PID" 2>/dev/null
  JACKD_PID=""
  forget_metadata
  killed=$(now)
  wait_for "$pid" 10
  took=$(elapsed "$killed" "$(now)")
  if [ "$WAIT_RC" = 74 ] && awk -v t="$took" 'BEGIN { exit !(t <= 5) }'; then
    pass "boop ${cmd%% *}: server killed -> 74 after ${took} s: $(cat "$WORK/err")"
  else
    failed "boop ${cmd%% *}: server killed -> exit $WAIT_RC after ${took} s: $(cat "$WORK/err")"
  fi
  start_jackd || { failed "jackd did not restart"; break; }
done

echo "--- edit --backend jack: the server killed and started again five times while the loop plays ---"
stop_jackd
if python3 -c "import jack, numpy, pyte" 2>/dev/null; then
  run_client "edit reconnect test" scripts/jack_reconnect_test.py "$BOOP" 5
else
  failed "edit reconnect: the test needs JACK-Client, numpy and pyte (scripts/setup.sh installs them)"
fi

echo "--- a JACK server that does not answer: every command gives up after 5 s, the editor goes on ---"
run_client "stuck server test" scripts/jack_stuck_server_test.py "$BOOP"

echo "--- play --backend jack --reconnect: the server killed and started again four times while the loop plays ---"
run_client "play reconnect test" scripts/jack_play_reconnect_test.py "$BOOP" 4

echo "--- synth --backend jack --reconnect: the server killed and started again four times, a note heard after each ---"
run_client "synth reconnect test" scripts/jack_synth_reconnect_test.py "$BOOP" 4

# The LV2 instrument, built by the C++ stage (build-test-none) or wherever BOOP_LV2_DIR says.
lv2_tests() {
  local dir=${BOOP_LV2_DIR:-build-test-none/lv2} uri=https://github.com/pixelboop/pixelboop-linux/lv2/boop
  if [ ! -f "$dir/boop.lv2/manifest.ttl" ] || ! command -v jalv >/dev/null || ! command -v lv2info >/dev/null; then
    failed "boop.lv2: needs the bundle in $dir (cmake with lv2-dev) and jalv and lilv-utils (scripts/setup.sh)"
    return
  fi
  dir=$(realpath "$dir") # lilv takes absolute paths only
  if LV2_PATH="$dir:/usr/lib/lv2" lv2info "$uri" >"$WORK/lv2info" 2>"$WORK/lv2info.err" && [ ! -s "$WORK/lv2info.err" ]; then
    pass "lv2info lists boop.lv2 without a warning: $(grep -c 'Port [0-9]*:' "$WORK/lv2info") ports, latency $(sed -n 's/.*Has latency: *//p' "$WORK/lv2info")"
  else
    failed "lv2info boop.lv2: $(cat "$WORK/lv2info.err")"
  fi
  run_measured "boop.lv2 in jalv" 3 scripts/jack_lv2_test.py "$dir"
}

echo "--- jackd -d dummy -r 48000 -p 256 -w 5333: boop synth ---"
if start_jackd 256; then
  synth_test
  echo "--- play --midi-out --clock --no-sound: a random pattern's MIDI on the frame clock ---"
  run_measured "play --midi-out test" 3 scripts/jack_midi_out_test.py "$BOOP" 6
  echo "--- play SONG --midi-out --clock --no-sound: a song's chain, tempo change and groove on the frame clock ---"
  run_measured "play SONG --midi-out test" 3 scripts/jack_midi_out_song_test.py "$BOOP"
  echo "--- play --midi-out --clock --loops 2: Stop on the frame the last loop ends ---"
  run_client "play --midi-out Stop test" scripts/jack_midi_out_stop_test.py "$BOOP"
  echo "--- play --sync jack: the sequencer follows the JACK transport ---"
  run_client "play --sync jack test" scripts/jack_sync_test.py "$BOOP"
  echo "--- play --sync jack through server xruns: no lasting offset, no Stop or Continue the transport did not make ---"
  run_client "play --sync jack xrun test" scripts/jack_sync_xrun_test.py "$BOOP" 4
  run_client "play --sync jack xrun test, sound" scripts/jack_sync_xrun_test.py "$BOOP" 4 --audio
  echo "--- play --sync midi: the sequencer follows a MIDI clock ---"
  run_measured "play --sync midi test" 3 scripts/jack_clock_sync_test.py "$BOOP"
  echo "--- play --sync midi at 90...200 BPM, overlapping notes, the shipped examples ---"
  run_client "play --sync midi tempo test" scripts/jack_clock_tempo_test.py "$BOOP"
  echo "--- edit --backend jack --midi: a JACK MIDI keyboard's notes placed at the cursor ---"
  run_client "edit --midi test" scripts/jack_edit_midi_test.py "$BOOP"
  echo "--- edit --backend jack --midi, *: a played part recorded while the loop plays ---"
  run_measured "edit record test" 3 scripts/jack_edit_record_test.py "$BOOP"
  echo "--- edit --backend jack -C, *: a simulated singer sung into the loop ---"
  run_client "edit sing test" scripts/jack_edit_sing_test.py "$BOOP"
  echo "--- boop.lv2: lv2info, and jalv hosting it on the server ---"
  lv2_tests
else
  failed "jackd -p 256 did not start"
fi

echo "--- jackd -d dummy -r 48000 -p 64: listen --midi-out, a simulated singer into boop listen driving boop synth ---"
stop_jackd
if start_jackd 64; then
  run_measured "listen --midi-out test" 3 scripts/jack_listen_midi_test.py "$BOOP"
  run_measured "listen --midi-out --mpe test" 3 scripts/jack_listen_midi_test.py "$BOOP" --mpe --sessions 1
  run_measured "listen --midi-out --settle test" 3 scripts/jack_listen_midi_test.py "$BOOP" --settle 60 --sessions 1
else
  failed "jackd -p 64 did not start for listen --midi-out"
fi

echo "jack tests: $PASSES passed, $FAILURES failed"
[ "$FAILURES" = 0 ]
