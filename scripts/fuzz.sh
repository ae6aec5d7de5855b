#!/usr/bin/env bash
# Coverage-guided fuzzing (libFuzzer, with AddressSanitizer and UBSan) of everything that reads
# outside input:
#   EngineEventsFuzz  random C API call streams into an engine (fuzz/cxx/EngineEventsFuzz.cpp)
#   ScalaFuzz         any bytes as a Scala scale and keyboard mapping (fuzz/cxx/ScalaFuzz.cpp)
#   LoaderFuzz        pattern files, ambient presets and NOTE arguments (fuzz/swift/LoaderFuzz.swift)
# Each target runs for FUZZ_SECONDS (default 30) from its seed corpus in fuzz/corpus/; any crash,
# trap, multi-line error or sanitizer report fails the script, and the input that caused it is
# kept in build-fuzz/artifacts/ (replay it: build-fuzz/<Target> build-fuzz/artifacts/<file>).
#
#   scripts/fuzz.sh                      every target, 30 s each (what the test command runs)
#   FUZZ_SECONDS=3600 scripts/fuzz.sh    an hour each; new inputs land in build-fuzz/corpus-*/
#   FUZZ_JOBS=2 scripts/fuzz.sh          parallel fuzzing processes per target
#   FUZZ_CXX_BUILD=DIR scripts/fuzz.sh   the C++ targets from DIR, a CMake build already configured
#                                        with BOOP_SANITIZER=address and BOOP_FUZZ=ON (the test
#                                        command's build-test-address), instead of its own build-fuzz
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
seconds="${FUZZ_SECONDS:-30}"
jobs="${FUZZ_JOBS:-1}"
out=build-fuzz
mkdir -p "$out/artifacts" # LoaderFuzz is linked here even when EngineEventsFuzz comes from FUZZ_CXX_BUILD

cxx="${FUZZ_CXX_BUILD:-$out}"
if [ -z "${FUZZ_CXX_BUILD:-}" ]; then
  cmake -S . -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
    -DCMAKE_CXX_COMPILER=clang++ -DBOOP_SANITIZER=address -DBOOP_FUZZ=ON -DBUILD_TESTING=OFF \
    -DBOOP_BUILD_BENCH=OFF >/dev/null
elif ! grep -qx 'BOOP_FUZZ:BOOL=ON' "$cxx/CMakeCache.txt" || ! grep -qx 'BOOP_SANITIZER:STRING=address' "$cxx/CMakeCache.txt"; then
  echo "fuzz.sh: $cxx is not a build with BOOP_SANITIZER=address and BOOP_FUZZ=ON" >&2
  exit 1
fi
cmake --build "$cxx" --target EngineEventsFuzz ScalaFuzz

# The Swift target: the library built by SwiftPM with coverage and ASan, the harness linked to it
# by swiftc (SwiftPM's own executables bring a main(), which libFuzzer's driver replaces).
swift build --sanitize=fuzzer --sanitize=address --scratch-path .build-fuzz --target PixelBoopCore
lib=.build-fuzz/debug
lld=(); command -v ld.lld >/dev/null 2>&1 || [[ -x "$(dirname "$(command -v swiftc)")/ld.lld" ]] && lld=(-use-ld=lld)
mapfile -t objects < <(find "$lib/PixelBoopCore.build" "$lib/CAudioEngine.build" "$lib/CMpris.build" "$lib/CTerminal.build" -name '*.o')
swiftc -sanitize=fuzzer,address -parse-as-library -g "${lld[@]}" fuzz/swift/LoaderFuzz.swift \
  -I "$lib/Modules" -Xcc -fmodule-map-file="$lib/CAudioEngine.build/module.modulemap" \
  -Xcc -fmodule-map-file="$lib/CMpris.build/module.modulemap" \
  -Xcc -fmodule-map-file="$lib/CTerminal.build/module.modulemap" \
  -Xcc -fmodule-map-file=Sources/CSQLite/module.modulemap \
  "${objects[@]}" -lasound -ljack -lsqlite3 -lstdc++ -ldl -o "$out/LoaderFuzz"

# The targets fuzz at once, each for its own FUZZ_SECONDS: the time is a budget per target, so
# side by side they get the same seconds as one after another in a third of the wall time.
targets=(EngineEventsFuzz:engine ScalaFuzz:scala LoaderFuzz:loaders)
pids=()
for target in "${targets[@]}"; do
  name=${target%%:*} seeds=fuzz/corpus/${target##*:}
  work="$out/corpus-${target##*:}"
  mkdir -p "$work"
  echo "== $name: ${seconds}s from $seeds"
  # New inputs go to the first directory (build output), never into the committed seeds.
  parallel=(); [[ $jobs -gt 1 ]] && parallel=(-fork="$jobs")
  binary="$out/$name"
  [ "$name" = LoaderFuzz ] || binary="$cxx/$name"
  "$binary" -max_total_time="$seconds" "${parallel[@]}" -rss_limit_mb=4096 \
    -artifact_prefix="$out/artifacts/$name-" -print_final_stats=1 "$work" "$seeds" >"$out/$name.log" 2>&1 &
  pids+=($!)
done
status=0
for i in "${!targets[@]}"; do
  name=${targets[$i]%%:*}
  if wait "${pids[$i]}"; then
    echo "PASS  $name: $(grep -m1 -o 'Done [0-9]* runs in [0-9]* second(s)' "$out/$name.log" || echo done)"
  else
    echo "FAIL  $name: $(grep -m1 -E 'ERROR|Fatal error|SUMMARY|deadly signal' "$out/$name.log")"
    tail -n 40 "$out/$name.log"
    status=1
  fi
done
exit "$status"
