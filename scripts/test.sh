#!/usr/bin/env bash
# Every test: the C++ suite under clang in all four sanitizer modes, the Swift tests (under TSan
# and under ASan), the fuzz targets, the command-line checks, the live tests against a private
# PulseAudio null sink (through ALSA) and a private JACK server, and the install: staged, as a C
# library and as a Debian package.
#
# Every stage runs even when an earlier one failed (a failure in one says nothing about the
# others, and a 30-minute run should report everything it can); only a failed setup stops it,
# since nothing else can run without the tools. Each stage's output streams as it runs; the end
# is a table of stages with PASS/FAIL and seconds, and a last line `N passed, N failed` (stages),
# which CI reads. The exit status is 0 only when every stage passed.
set -uo pipefail
cd "$(dirname "$0")/.."
# A stage that hangs (a test blocked for good) must not take the stages after it with it: each
# has this many seconds, about twice the slowest stage seen on a loaded 2-core machine (the
# ThreadSanitizer run, 540 s), then it fails and its processes are ended.
stage_limit="${BOOP_STAGE_LIMIT:-1200}"
if ! [[ "$stage_limit" =~ ^[1-9][0-9]{0,5}$ ]]; then
  echo "test.sh: BOOP_STAGE_LIMIT=$stage_limit: expected whole seconds, 1 to 999999" >&2
  echo "0 passed, 1 failed"
  exit 2
fi
if ! scripts/setup.sh; then
  echo "test.sh: setup failed (above); no test can run without it" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
jobs="${BOOP_JOBS:-$(nproc)}"
boop_bin() { echo "$(swift build -c release --show-bin-path)/boop"; }

names=() results=() times=()

# Runs one stage: its commands in a bash under `set -e` (so the first failing command ends the
# stage, as in a plain script), never in a conditional context (which would switch `set -e` off
# inside it), under timeout(1): at the limit its process group gets SIGTERM (the scripts' traps
# stop their servers), SIGKILL 60 s later. Records PASS/FAIL and the wall time.
stage() {
  local name=$1 start rc
  shift
  echo
  echo "=== $name ==="
  start=$(date +%s.%N)
  # In the background and waited for, so Ctrl-C or a SIGTERM of this script reaches the stage
  # (timeout puts it in a process group of its own, which the terminal's Ctrl-C misses).
  timeout --kill-after=60 "$stage_limit" bash -c 'set -euo pipefail; "$@"' stage "$@" </dev/null &
  stage_pid=$!
  wait "$stage_pid"
  rc=$?
  stage_pid=
  local took
  took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }')
  names+=("$name")
  times+=("$took")
  if [ "$rc" = 0 ]; then
    results+=(PASS)
    echo "=== $name: PASS in ${took} s ==="
  elif [ "$rc" = 124 ] || { [ "$rc" = 137 ] && [ "$took" -ge "$stage_limit" ]; }; then
    results+=(FAIL)
    echo "=== $name: FAIL (still running after the ${stage_limit} s limit; stopped) after ${took} s ==="
  else
    results+=(FAIL)
    echo "=== $name: FAIL (exit $rc) after ${took} s ==="
  fi
}

# The benchmarks are built (compile-checked) in the plain mode only: they are no part of ctest,
# and building them three more times under sanitizers would only cost minutes. The address build
# also carries libFuzzer's coverage (BOOP_FUZZ=ON: the same ASan+UBSan engine, instrumented for the
# fuzzer too) and builds EngineEventsFuzz, which the fuzzing stage runs from it instead of
# compiling the engine a sixth time.
cxx_tests() { # mode
  local bench=ON fuzz=OFF
  [ "$1" = none ] || bench=OFF
  [ "$1" = address ] && fuzz=ON
  cmake -S . -B "build-test-$1" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
    -DCMAKE_CXX_COMPILER=clang++ -DBOOP_SANITIZER="$1" -DBOOP_BUILD_BENCH="$bench" -DBOOP_FUZZ="$fuzz" >/dev/null
  cmake --build "build-test-$1" -j "$jobs"
  ctest --test-dir "build-test-$1" -LE live --output-on-failure -j "$jobs"
}
swift_release() { swift build -c release --product boop; }
# The Swift tests run twice, under ThreadSanitizer and under AddressSanitizer: a plain third run
# would run the same tests with no check the other two lack (the engine is optimised in every
# build, Package.swift), and cost 171 s alone on the CI machine.
# Under swift-test-watch.py: a test blocked for good (no test ending for 300 s) is named and the
# run stopped, instead of holding the stage to its limit with a log that names nothing.
swift_tsan() { scripts/swift-test-watch.py -- swift test --sanitize=thread --scratch-path .build-tsan; }
swift_asan() {
  LSAN_OPTIONS=suppressions=$PWD/scripts/lsan-suppressions.txt \
    scripts/swift-test-watch.py -- swift test --sanitize=address --scratch-path .build-asan
}
cli_tests() { scripts/cli-tests.sh "$(boop_bin)"; }
# The release boop of the release-build stage; the Swift live tests take the AddressSanitizer build
# the ASan stage made (no third debug build).
live_tests() {
  BUILD_DIR=build-test-none SWIFT_SCRATCH=.build SWIFT_TEST_SCRATCH=.build-asan SWIFT_SANITIZE=address BOOP_SKIP_BUILD=1 \
    LSAN_OPTIONS=suppressions=$PWD/scripts/lsan-suppressions.txt scripts/live-tests.sh
}
# JACK keeps its servers' sockets and semaphores, and one metadata database (Berkeley DB) shared by
# every server and client of the machine, in /dev/shm. A process killed while it holds that
# database's lock (these tests kill servers and clients) leaves every later jack_client_open on the
# machine waiting for ever: two runs side by side hung so. Where the stage may have a mount
# namespace, it gets a /dev/shm of its own (BOOP_JACK_PRIVATE_SHM=1 tells the tests, which then
# remove the database after each server they kill); elsewhere it shares the machine's.
jack_tests() {
    if unshare --mount --propagation private true 2>/dev/null; then
        unshare --mount --propagation private bash -c \
            'mount -t tmpfs -o mode=1777 boop-jack-shm /dev/shm && BOOP_JACK_PRIVATE_SHM=1 exec scripts/jack-tests.sh "$1"' \
            _ "$(boop_bin)"
    else
        scripts/jack-tests.sh "$(boop_bin)"
    fi
}
suspend_tests() { scripts/suspend-tests.sh "$(boop_bin)"; }
# The loaded cases only: a terminal stalled at nice 19 beside two busy processes is the same check
# as on an idle machine, made harder (the idle cases remain for a run by hand).
stall_tests() { scripts/stall-tests.sh "$(boop_bin)" edit-nice play-nice; }

fuzz_tests() { FUZZ_CXX_BUILD=build-test-address scripts/fuzz.sh; }
# make install and make deb take the release boop the "Swift release build" stage built in .build.
install_tests() { BOOP_SCRATCH=.build scripts/install-tests.sh; }

stage_pid=
trap 'if [ -n "$stage_pid" ]; then kill -TERM "$stage_pid" 2>/dev/null; wait "$stage_pid"; fi; exit 130' INT TERM

SWIFT_TEST_WATCH_NOTES=$(mktemp)
# The stages run in a bash of their own (under timeout), which sees these only when exported.
export jobs SWIFT_TEST_WATCH_NOTES
export -f boop_bin cxx_tests swift_release swift_tsan swift_asan cli_tests live_tests jack_tests \
  suspend_tests stall_tests fuzz_tests install_tests

t0=$(date +%s.%N)
stage "formatting (clang-format, swift format)" scripts/check-format.sh
stage "sizes: no source file over 450 lines, no function over 60" python3 scripts/check-sizes.py
stage "folders: no loop among the Swift folders (type use) or the C++ folders (#include)" python3 scripts/folder-graph.py --check
stage "tests: every unit with logic has a test file named after it (or a stated exemption)" \
  python3 scripts/test-coverage-names.py --check
for mode in none realtime thread address; do
  stage "C++ tests, sanitizer: $mode" cxx_tests "$mode"
done
stage "Swift release build (boop)" swift_release
stage "Swift tests under ThreadSanitizer (.build-tsan)" swift_tsan
stage "Swift tests under AddressSanitizer (.build-asan)" swift_asan
stage "fuzzing: ${FUZZ_SECONDS:-30} s per target" fuzz_tests
stage "command-line checks" cli_tests
stage "live tests (PulseAudio null sink through ALSA's pulse PCM)" live_tests
stage "suspend and reconnect (SIGSTOP 15 s, server killed and restarted)" suspend_tests
stage "stalled terminal (30 s unread and resized, at nice 19 beside two busy processes)" stall_tests
stage "JACK: jackd2's dummy driver at 48 kHz, 64-frame periods" jack_tests
stage "install: staged make install, the C library, the Debian package" install_tests
total=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }')

passed=0 failed=0
echo
echo "=== summary ==="
printf '%-66s %-6s %8s\n' "stage" "result" "seconds"
for i in "${!names[@]}"; do
  printf '%-66s %-6s %8s\n' "${names[$i]}" "${results[$i]}" "${times[$i]}"
  if [ "${results[$i]}" = PASS ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
printf '%-66s %-6s %8s\n' "total" "" "$total"
# Tests that hung (swift-test-watch.py), named again here, at the end of a long log.
if [ -s "$SWIFT_TEST_WATCH_NOTES" ]; then cat "$SWIFT_TEST_WATCH_NOTES"; fi
rm -f "$SWIFT_TEST_WATCH_NOTES"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
