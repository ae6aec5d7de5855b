# Sourced by the command-line check scripts in scripts/cli-tests.d: `check` runs a command and holds
# it to the error contract (its exit status; one stderr line when it fails; never a raw ESC on
# stderr), `fail` counts a failure, `under_way PID` waits for a render's temporary file, `cpu_ms`
# times a command by the CPU it used (not the clock, which a loaded machine or a busy disk
# stretches). The sourcing script sets `work` and `failures`.

fail() { echo "FAIL $1"; failures=$((failures + 1)); }

check() {  # check NAME EXPECTED_STATUS COMMAND...
  local name="$1" expected="$2"; shift 2
  "$@" >"$work/stdout" 2>"$work/stderr"
  local status=$?
  if [ "$status" -ne "$expected" ]; then fail "$name: exit $status, expected $expected: $(head -c 300 "$work/stderr" | cat -v)"; return 1; fi
  if [ "$expected" -ne 0 ] && [ "$(wc -l <"$work/stderr")" -ne 1 ]; then
    fail "$name: expected one stderr line, got: $(cat -v "$work/stderr")"; return 1; fi
  if grep -q $'\e' "$work/stderr"; then fail "$name: raw escape on stderr"; return 1; fi
  echo "ok   $name (exit $status) $(head -c 160 "$work/stderr")"
}

cpu_ms() {  # cpu_ms COMMAND...: runs it (output discarded) and prints the milliseconds of CPU it used
  python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(int((r.ru_utime + r.ru_stime) * 1000))' "$@"
}

under_way() {  # under_way PID: waits (60 s at most) until a temporary file of boop's exists in $work
  for _ in $(seq 1200); do
    compgen -G "$work/.boop-*" >/dev/null && return 0
    kill -0 "$1" 2>/dev/null || return 1
    sleep 0.05
  done
  return 1
}
