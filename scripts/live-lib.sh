# Helpers shared by the live test scripts (sourced, not run): PASS/FAIL lines with counters,
# wall-clock arithmetic, and waiting for a child with a time limit.
PASSES=0
FAILURES=0
pass() { echo "PASS  $*"; PASSES=$((PASSES + 1)); }
failed() { echo "FAIL  $*"; FAILURES=$((FAILURES + 1)); }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

# Waits up to $2 seconds for PID $1 (our own child); kills it by PID if it hangs. Sets WAIT_RC
# (the exit status, or "hang").
wait_for() {
    local pid=$1 limit=$2 start
    start=$(now)
    while kill -0 "$pid" 2>/dev/null; do
        if awk -v a="$start" -v b="$(now)" -v l="$limit" 'BEGIN { exit !((b - a) > l) }'; then
            kill -KILL "$pid" 2>/dev/null
            wait "$pid" 2>/dev/null
            WAIT_RC=hang
            return
        fi
        sleep 0.02
    done
    wait "$pid"
    WAIT_RC=$?
}

# Waits for a condition rather than a guessed time: runs COMMAND... every 0.05 s until it
# succeeds (return 0), LIMIT seconds pass, or PID (when not empty) exits (return 1; WAIT_WHY says
# which). Limits are generous: on a loaded two-core machine a sanitizer build or a first start can
# take many seconds, and a condition that holds is seen within 0.05 s anyway.
wait_until() { # LIMIT PID COMMAND...
    local limit=$1 pid=$2 start
    shift 2
    start=$(now)
    WAIT_WHY=""
    until "$@"; do
        if [[ -n $pid ]] && ! kill -0 "$pid" 2>/dev/null; then
            WAIT_WHY="process $pid exited before: $*"
            return 1
        fi
        if awk -v a="$start" -v b="$(now)" -v l="$limit" 'BEGIN { exit !((b - a) > l) }'; then
            WAIT_WHY="not within ${limit} s: $*"
            return 1
        fi
        sleep 0.05
    done
}

# What the PulseAudio server that PULSE_SERVER names is doing: a sink plays an uncorked stream
# (state RUNNING), a source (the null sink's monitor) feeds a recording stream, or any client
# stream at all is open on it.
pulse_playing() { pactl list short sinks 2>/dev/null | grep RUNNING >/dev/null; }
pulse_recording() { pactl list short sources 2>/dev/null | grep RUNNING >/dev/null; }
pulse_has_stream() { [[ -n "$(pactl list short sink-inputs 2>/dev/null; pactl list short source-outputs 2>/dev/null)" ]]; }

# Names this run's private JACK servers: JACK_DEFAULT_SERVER (the scripts' own server) and
# BOOP_LIVE_JACK_SERVER (LiveJackTests'). Two test runs at once (two clones, or a user's run beside
# CI's) must never share a server, yet the names cannot be new every run: a killed server leaves
# its slot in libjack's registry (eight in all) until a server of the same name reclaims it. So
# each run takes the first free name of a pool of four, holding a lock on it (file descriptor 9)
# until the sourcing script exits; the first is the plain boop-cli-tests/boop-live-tests.
claim_jack_names() {
    local n suffix
    for n in 1 2 3 4; do
        exec 9>"${TMPDIR:-/tmp}/boop-jack-names-$(id -u)-$n.lock"
        if flock -n 9; then
            suffix=""
            [[ $n == 1 ]] || suffix="-$n"
            export JACK_DEFAULT_SERVER="boop-cli-tests$suffix" BOOP_LIVE_JACK_SERVER="boop-live-tests$suffix"
            return 0
        fi
    done
    exec 9>&-
    echo "four test runs already hold the JACK server names (${TMPDIR:-/tmp}/boop-jack-names-*.lock)" >&2
    return 1
}
