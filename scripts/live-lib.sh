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
