#!/usr/bin/env bash
# Every test: the C++ suite under clang in all four sanitizer modes, the Swift tests (plain, under
# TSan and under ASan), the fuzz targets, the command-line checks, the live tests against a private
# PulseAudio null sink (through ALSA) and a private JACK server, and the install: staged, as a C
# library and as a Debian package.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
jobs="${BOOP_JOBS:-$(nproc)}"

echo "=== formatting (clang-format, swift format) ==="
scripts/check-format.sh

for mode in none realtime thread address; do
  echo "=== C++ tests, sanitizer: $mode ==="
  cmake -S . -B "build-test-$mode" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DBOOP_SANITIZER="$mode" >/dev/null
  cmake --build "build-test-$mode" -j "$jobs"
  ctest --test-dir "build-test-$mode" -LE live --output-on-failure -j "$jobs"
done

echo "=== Swift build and tests ==="
swift build -c release --product boop
swift test

echo "=== Swift tests under ThreadSanitizer and AddressSanitizer (own build folders) ==="
swift test --sanitize=thread --scratch-path .build-tsan
LSAN_OPTIONS=suppressions=$PWD/scripts/lsan-suppressions.txt swift test --sanitize=address --scratch-path .build-asan

echo "=== fuzzing: ${FUZZ_SECONDS:-30} s per target ==="
scripts/fuzz.sh

echo "=== command-line checks ==="
scripts/cli-tests.sh "$(swift build -c release --show-bin-path)/boop"

echo "=== live tests (PulseAudio null sink through ALSA's pulse PCM) ==="
BUILD_DIR=build-test-none SWIFT_SCRATCH=.build BOOP_SKIP_BUILD=1 scripts/live-tests.sh

echo "=== JACK: jackd2's dummy driver at 48 kHz, 64-frame periods ==="
scripts/jack-tests.sh "$(swift build -c release --show-bin-path)/boop"

echo "=== install: staged make install, the C library and its example, the Debian package ==="
scripts/install-tests.sh

echo "all tests passed"
