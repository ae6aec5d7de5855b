#!/usr/bin/env bash
# Checks boop's MPRIS media controls the way a desktop would: starts a boop command on a D-Bus
# session bus, then with `playerctl -p boop` checks that it shows up Playing with the right title,
# pauses and resumes, (optionally) switches preset with Next, and quits with exit status 0.
#
#   scripts/mpris-check.sh [--title TITLE] [--next] [--timeout S] -- BOOP-COMMAND...
#   e.g. scripts/mpris-check.sh --title Demo -- .build/release/boop play examples/demo.json --no-display
#        scripts/mpris-check.sh --title "Deep Space" --next -- .build/release/boop ambient --preset deep-space
#
# It always re-runs itself under dbus-run-session (a private session bus, as in CI), so it works over
# ssh and never touches the desktop's players (set MPRIS_CHECK_PRIVATE_BUS=1 to use the current bus). Needs playerctl and dbus (dbus-run-session). Exit 0 when every check
# passes, 1 otherwise (each failure is one line on stderr), 2 on bad use.
set -u

title=""
next=0
# How long to wait for each change to show (boop on the bus, a status, a title, its exit): each
# wait ends as soon as the change is seen, so the limit can be generous for a loaded machine.
timeout=60
while [ $# -gt 0 ]; do
    case "$1" in
        --title) title="$2"; shift 2 ;;
        --next) next=1; shift ;;
        --timeout) timeout="$2"; shift 2 ;;
        --) shift; break ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
        *) echo "mpris-check: unknown option $1 (expected --title, --next, --timeout, then -- COMMAND)" >&2; exit 2 ;;
    esac
done
[ $# -gt 0 ] || { echo "mpris-check: no boop command given (expected -- BOOP-COMMAND...)" >&2; exit 2; }
command -v playerctl >/dev/null || { echo "mpris-check: playerctl is not installed" >&2; exit 2; }

if [ -z "${MPRIS_CHECK_PRIVATE_BUS:-}" ]; then
    command -v dbus-run-session >/dev/null || { echo "mpris-check: dbus-run-session is not installed" >&2; exit 2; }
    args=(--timeout "$timeout")
    [ -n "$title" ] && args+=(--title "$title")
    [ "$next" = 1 ] && args+=(--next)
    MPRIS_CHECK_PRIVATE_BUS=1 exec dbus-run-session -- "$0" "${args[@]}" -- "$@"
fi

failures=0
fail() { echo "mpris-check: FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "mpris-check: ok: $*"; }

log=$(mktemp)
"$@" >"$log" 2>&1 </dev/null &
boop=$!
player="boop.instance$boop"
cleanup() {
    if kill -0 "$boop" 2>/dev/null; then
        kill -INT "$boop" 2>/dev/null
        local deadline=$((SECONDS + 10))
        while kill -0 "$boop" 2>/dev/null && [ $SECONDS -le $deadline ]; do sleep 0.1; done
        kill -KILL "$boop" 2>/dev/null
    fi
    rm -f "$log"
}
trap cleanup EXIT

# Polls `playerctl ARGS` until it prints WANT (or the timeout passes); prints what it last saw.
await() {
    local want="$1"; shift
    local got="" deadline=$((SECONDS + timeout))
    while [ $SECONDS -le $deadline ]; do
        got=$(playerctl -p "$player" "$@" 2>/dev/null)
        [ "$got" = "$want" ] && { echo "$got"; return 0; }
        kill -0 "$boop" 2>/dev/null || break
        sleep 0.1
    done
    echo "$got"
    return 1
}

if got=$(await Playing status); then pass "$player is Playing"; else
    fail "expected $player to be Playing, got '${got:-no such player}'"
    echo "--- boop output:" >&2; cat "$log" >&2
    exit 1
fi
if [ -n "$title" ]; then
    if got=$(await "$title" metadata title); then pass "title is '$title'"; else fail "expected title '$title', got '$got'"; fi
else
    got=$(playerctl -p "$player" metadata title 2>/dev/null)
    if [ -n "$got" ]; then pass "title is '$got'"; else fail "expected a title, got none"; fi
fi

# Position (seconds heard) moves while playing, at most as fast as the clock, and holds while paused.
position() { playerctl -p "$player" position 2>/dev/null || echo 0; }
started=$(date +%s.%N)
deadline=$((SECONDS + timeout)); pos=$(position)
while awk -v p="$pos" 'BEGIN { exit !(p < 1.0) }' && [ $SECONDS -le $deadline ]; do sleep 0.1; pos=$(position); done
elapsed=$(awk -v s="$started" -v n="$(date +%s.%N)" 'BEGIN { print n - s }')
if awk -v p="$pos" -v e="$elapsed" 'BEGIN { exit !(p >= 1.0) }'; then pass "position moves: ${pos}s"; else
    fail "expected the position to reach 1 s, got '$pos' after ${elapsed}s"; fi

playerctl -p "$player" pause
if got=$(await Paused status); then pass "pause -> Paused"; else fail "after pause expected Paused, got '$got'"; fi
# The position is the music heard (play) or the engine's clock (ambient), asked at each read, and
# a pause fades the music out first (ambient: 0.25 s of music, which a loaded machine's stalled
# stream may take seconds to play): wait for the position to come to rest (unchanged for a second),
# then it must hold for two seconds more.
rest_from=$(date +%s.%N); deadline=$((SECONDS + timeout)); held=$(position); still=$(date +%s.%N)
while [ $SECONDS -le $deadline ] && awk -v s="$still" -v n="$(date +%s.%N)" 'BEGIN { exit !(n - s < 1.0) }'; do
    sleep 0.1; now=$(position)
    [ "$now" = "$held" ] || { held=$now; still=$(date +%s.%N); }
done
settled=$(awk -v s="$rest_from" -v n="$still" 'BEGIN { printf "%.2f", n - s }')
sleep 2; later=$(position)
if awk -v a="$held" -v b="$later" 'BEGIN { d = b - a; exit !(d < 0.05 && d > -0.05) }'; then
    pass "position holds while paused: ${held}s (at rest ${settled}s after Paused showed)"; else
    fail "position moved while paused: $held -> $later (it had been at rest from ${settled}s after Paused)"; fi
playerctl -p "$player" play
if got=$(await Playing status); then pass "play -> Playing"; else fail "after play expected Playing, got '$got'"; fi
playerctl -p "$player" play-pause
if got=$(await Paused status); then pass "play-pause -> Paused"; else fail "after play-pause expected Paused, got '$got'"; fi
playerctl -p "$player" play-pause
if got=$(await Playing status); then pass "play-pause -> Playing"; else fail "after play-pause expected Playing, got '$got'"; fi

if [ "$next" = 1 ]; then
    before=$(playerctl -p "$player" metadata title 2>/dev/null)
    playerctl -p "$player" next
    deadline=$((SECONDS + timeout)); after="$before"
    while [ "$after" = "$before" ] && [ $SECONDS -le $deadline ]; do
        sleep 0.1; after=$(playerctl -p "$player" metadata title 2>/dev/null)
    done
    if [ "$after" != "$before" ] && [ -n "$after" ]; then pass "next: '$before' -> '$after'"; else fail "next did not change the title from '$before'"; fi
    playerctl -p "$player" previous
    deadline=$((SECONDS + timeout)); back="$after"
    while [ "$back" = "$after" ] && [ $SECONDS -le $deadline ]; do
        sleep 0.1; back=$(playerctl -p "$player" metadata title 2>/dev/null)
    done
    if [ "$back" != "$after" ] && [ -n "$back" ]; then pass "previous: '$after' -> '$back'"; else fail "previous did not change the title from '$after'"; fi
fi

# Quit is on the root interface; playerctl has no verb for it.
if dbus-send --session --print-reply --dest="org.mpris.MediaPlayer2.$player" /org/mpris/MediaPlayer2 \
        org.mpris.MediaPlayer2.Quit >/dev/null 2>&1; then pass "Quit accepted"; else fail "Quit call failed"; fi
status=""
deadline=$((SECONDS + timeout))
while kill -0 "$boop" 2>/dev/null && [ $SECONDS -le $deadline ]; do sleep 0.1; done
if kill -0 "$boop" 2>/dev/null; then
    fail "boop still running ${timeout}s after Quit"
else
    wait "$boop"; status=$?
    if [ "$status" = 0 ]; then pass "boop exited 0 after Quit"; else fail "boop exited $status after Quit (expected 0)"; fi
fi

if [ "$failures" -gt 0 ]; then
    echo "--- boop output:" >&2; cat "$log" >&2
    echo "mpris-check: $failures check(s) failed" >&2
    exit 1
fi
echo "mpris-check: all checks passed"
