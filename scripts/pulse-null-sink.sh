#!/usr/bin/env bash
# A private, clocked PulseAudio server with one null sink, for live tests without a sound card.
#
#   scripts/pulse-null-sink.sh start [DIR]   start it (DIR default: /tmp/boop-pulse-$UID); prints env lines
#   scripts/pulse-null-sink.sh stop  [DIR]   stop it by the PID it recorded (never by name)
#   scripts/pulse-null-sink.sh env   [DIR]   print the `export` lines that point clients at it
#
# Use it as:  eval "$(scripts/pulse-null-sink.sh start)"; ...; scripts/pulse-null-sink.sh stop
#
# BOOP_PULSE_OWNER=PID ties the server to that process: a watcher kills the server once PID is
# gone, so a test that dies without stopping it (a crash, SIGKILL, ctest's timeout) leaves no
# server behind. `start` waits up to BOOP_PULSE_START_LIMIT seconds (default 60: a loaded two-core
# machine can be that slow) for the server to answer, and fails with its log if it does not.
#
# What the server offers (reached through ALSA's `pulse` PCM from libasound2-plugins):
#   sink   boop_null            the default sink: `-D pulse` (or `-D default`) plays into it
#   source boop_null.monitor    the default source, a loopback of the sink: `-D pulse` for capture hears
#                               what is played; it can also be named explicitly as `-D pulse:boop_null.monitor`
#                               (the `pulse` PCM takes the Pulse device name as its DEVICE argument).
#
# No other client stays connected: the sink is idle between tests, as on a desktop where nothing
# plays. An idle null sink renders 2 s of silence ahead at a time, so a new stream starts up to 2 s
# after it connects (and again after an underrun); boop must survive that, and the tests meet it.
#
# Running as root (CI containers): PulseAudio refuses --system=false as root only when it would share the
# root user's runtime/home state with a system instance; it runs fine once it has its own private
# XDG_RUNTIME_DIR (mode 0700) and HOME, no D-Bus (-n with explicit modules and no autospawn), and
# --use-pid-file=no (we record the PID ourselves: it is the PID of the `pulseaudio` process we exec,
# since it runs with --daemonize=no in the background). It prints a warning about root; that is harmless.
set -euo pipefail

cmd=${1:-start}
dir=${2:-/tmp/boop-pulse-$(id -u)}
sink=boop_null
socket="$dir/run/pulse/native"

print_env() {
    echo "export PULSE_SERVER=unix:$socket"
    echo "export BOOP_PULSE_DIR=$dir"
    echo "export BOOP_PULSE_PID=$(cat "$dir/pid" 2>/dev/null || echo 0)"
    echo "export BOOP_PULSE_SINK=$sink"
}

case "$cmd" in
start)
    if [[ -f "$dir/pid" ]] && kill -0 "$(cat "$dir/pid")" 2>/dev/null; then
        print_env
        exit 0
    fi
    mkdir -p "$dir/run" "$dir/home"
    chmod 700 "$dir/run" "$dir/home"
    rm -f "$socket"
    # The environment is scoped to the server: it never sees the caller's session bus or real runtime dir.
    env -i PATH="$PATH" HOME="$dir/home" XDG_RUNTIME_DIR="$dir/run" XDG_CONFIG_HOME="$dir/home/.config" \
        pulseaudio --daemonize=no --exit-idle-time=-1 --system=false -n --use-pid-file=no \
        --disallow-exit=yes --log-target=file:"$dir/pulse.log" ${BOOP_PULSE_LOG_LEVEL:+--log-level=$BOOP_PULSE_LOG_LEVEL} \
        --load="module-null-sink sink_name=$sink sink_properties=device.description=BoopNullSink" \
        --load="module-native-protocol-unix auth-anonymous=1" \
        --load="module-always-sink" \
        --load="module-suspend-on-idle timeout=1" \
        </dev/null >/dev/null 2>&1 &
    echo $! >"$dir/pid"
    if [[ -n "${BOOP_PULSE_OWNER:-}" ]]; then
        # Checked once a second; its output goes nowhere, so a caller reading ours sees EOF.
        owner=$BOOP_PULSE_OWNER server=$(cat "$dir/pid")
        (
            while kill -0 "$owner" 2>/dev/null && kill -0 "$server" 2>/dev/null; do sleep 1; done
            [[ "$(cat "/proc/$server/comm" 2>/dev/null)" == pulseaudio ]] && kill -KILL "$server"
        ) </dev/null >/dev/null 2>&1 &
        echo $! >"$dir/watch.pid"
    fi
    limit=${BOOP_PULSE_START_LIMIT:-60}
    deadline=$((SECONDS + limit))
    while ((SECONDS <= deadline)); do
        if [[ -S "$socket" ]] && PULSE_SERVER="unix:$socket" pactl info >/dev/null 2>&1; then
            # The server's main thread relays every client's data to the sink; PulseAudio leaves it
            # SCHED_OTHER (only the sink thread gets SCHED_RR). On a small (2-core) VM its jitter
            # alone overran the 8.7 ms default playback buffer now and then, so give it SCHED_RR
            # when permitted (root in CI). BOOP_PULSE_RT=0 disables this.
            if [[ "${BOOP_PULSE_RT:-1}" != 0 ]]; then
                chrt -r -p 10 "$(cat "$dir/pid")" >/dev/null 2>&1 || true
            fi
            PULSE_SERVER="unix:$socket" pactl set-default-sink "$sink" >/dev/null 2>&1 || true
            PULSE_SERVER="unix:$socket" pactl set-default-source "$sink.monitor" >/dev/null 2>&1 || true
            print_env
            exit 0
        fi
        if ! kill -0 "$(cat "$dir/pid")" 2>/dev/null; then break; fi
        sleep 0.1
    done
    if kill -0 "$(cat "$dir/pid")" 2>/dev/null; then
        echo "pulse-null-sink: the server did not answer within $limit s; stopping it; log: $dir/pulse.log" >&2
        "$0" stop "$dir"
    else
        echo "pulse-null-sink: the server exited at start; log: $dir/pulse.log" >&2
    fi
    tail -n 20 "$dir/pulse.log" >&2 || true
    exit 1
    ;;
stop)
    if [[ -f "$dir/pid" ]]; then
        pid=$(cat "$dir/pid")
        if kill -0 "$pid" 2>/dev/null; then
            kill -TERM "$pid" 2>/dev/null || true
            for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
            kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
        fi
        rm -f "$dir/pid"
    fi
    if [[ -f "$dir/watch.pid" ]]; then
        kill "$(cat "$dir/watch.pid")" 2>/dev/null || true
        rm -f "$dir/watch.pid"
    fi
    ;;
env)
    print_env
    ;;
*)
    echo "usage: $0 start|stop|env [DIR]" >&2
    exit 64
    ;;
esac
