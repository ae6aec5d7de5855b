#!/usr/bin/env bash
# What a user installing PixelBoop meets, checked end to end:
#   1. make install into a stage: every file in place; boop is stripped, its debug symbols in a
#      file of their own that gdb finds by build ID; boop links only system libraries, starts
#      fast and renders with the Swift toolchain's folder hidden; libpixelboop exports only the C
#      API; the C example builds through pkg-config and through find_package and renders a chord
#      in tune; make uninstall removes exactly what install put there.
#   2. make deb: the package (and its -dbgsym package) installs with apt, boop renders from it (toolchain hidden), the C
#      example builds against the installed library both ways, and apt remove leaves nothing.
#      Needs root (or sudo), as installing any package does; skipped with a line otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
multiarch="$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)"
toolchain="$(cd "$(dirname "$(readlink -f "$(command -v swift)")")/../.." && pwd)"
chord=(261.6255653005986 329.6275569128699 391.99543598174927) # C4 E4 G4, as examples/c renders
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
# Size limits of what is shipped: the stripped boop (11.9 MB on x86-64 without Foundation, the
# Swift half at -Osize and linked by lld with packed relocations; it was 16.8 MB with
# FoundationEssentials and 62 MB with Foundation's ICU data) and the .deb (xz, dpkg-deb's
# default). 15 MB is the product's promise; the limit catches FoundationEssentials or a library
# linked whole coming back, not a feature's few kilobytes.
boop_max_bytes=$((15 * 1000 * 1000))
deb_max_bytes=$((6 * 1000 * 1000))
# BOOP_SCRATCH names a SwiftPM scratch path whose release boop is already built (the test command
# passes .build, which its release-build stage has just built, the same build `make` makes): make
# installs that boop instead of building it a second time in the Makefile's own .build-install.
make_vars=()
[ -z "${BOOP_SCRATCH:-}" ] || make_vars=(SCRATCH="$BOOP_SCRATCH")

fail() {
  echo "install-tests: $*" >&2
  exit 1
}

# Runs a command with an empty tmpfs mounted over the toolchain's folder (in a private mount
# namespace) and a minimal environment: what a machine without Swift looks like to the program.
hidden() {
  $sudo unshare --mount --propagation private sh -c 'mount -t tmpfs none "$0" && shift && exec env -i PATH=/usr/bin:/bin "$@"' \
    "$toolchain" - "$@"
}

# A boop as Debian ships it: no symbol table and no debug sections left, and DEBUGDIR holds a
# debug file named by boop's build ID with the symbols and line tables, the one its debuglink names.
check_stripped() { # boop debugdir
  local bin=$1 debugdir=$2 id debug
  readelf -S -W "$bin" | grep -E ' \.(symtab|debug_[a-z_]+) ' && fail "$bin is not stripped (above)"
  id=$(readelf -n "$bin" | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p')
  debug="$debugdir/.build-id/${id:0:2}/${id:2}.debug"
  [ -n "$id" ] && [ -s "$debug" ] || fail "no debug file for $bin (build ID '$id') in $debugdir"
  readelf -S -W "$debug" 2>/dev/null | grep -q ' \.debug_info ' || fail "$debug has no .debug_info"
  readelf -S -W "$debug" 2>/dev/null | grep -q ' \.symtab ' || fail "$debug has no symbol table"
  [ "$(readelf -p .gnu_debuglink "$bin" 2>/dev/null | sed -n 's/^ *\[ *0\] *//p')" = "${id:2}.debug" ] ||
    fail "$bin's .gnu_debuglink does not name ${id:2}.debug"
  [ "$(stat -c %s "$bin")" -lt "$boop_max_bytes" ] || fail "$bin is $(stat -c %s "$bin") bytes (limit $boop_max_bytes)"
  [ "$(strings "$bin" | grep -c icudt)" = 0 ] || fail "$bin carries ICU's data"
  # No Foundation and no regex modules (docs/DESIGN.md, "Packaging"): read from the debug file's
  # symbols, by their mangled module names.
  local modules
  modules=$(nm "$debug" 2>/dev/null | { grep -oE '(20FoundationEssentials|22_FoundationCollections|17_StringProcessing|12_RegexParser)' || true; } | sort -u | tr '\n' ' ')
  [ -z "$modules" ] || fail "$bin links $modules(an import of Foundation, or a String method from _StringProcessing)"
  # libsndfile and libsystemd (and their 13 libraries) are opened on first use, not at start.
  readelf -d "$bin" | grep -E 'NEEDED.*(libsndfile|libsystemd)' && fail "$bin links libsndfile or libsystemd (above)"
  echo "boop is stripped ($(stat -c %s "$bin") bytes, limit $boop_max_bytes); debug symbols in ${debug#"$debugdir"/} ($(stat -c %s "$debug") bytes)"
}

# The C example, built one way or the other against a given prefix, renders a chord in tune.
example_pkgconfig() { # prefix-root (/ or a stage) libdir
  local sysroot=$1 libdir=$2
  PKG_CONFIG_SYSROOT_DIR="${sysroot%/}" PKG_CONFIG_PATH="$sysroot$libdir/pkgconfig" \
    pkg-config --exists pixelboop || fail "pkg-config does not find pixelboop in $sysroot$libdir/pkgconfig"
  # shellcheck disable=SC2046
  cc -std=c99 -Wall -Wextra -Werror examples/c/render_chord.c -o "$work/chord-pc" \
    $(PKG_CONFIG_SYSROOT_DIR="${sysroot%/}" PKG_CONFIG_PATH="$sysroot$libdir/pkgconfig" pkg-config --cflags --libs pixelboop)
  LD_LIBRARY_PATH="$sysroot$libdir" "$work/chord-pc" "$work/chord-pc.wav"
  scripts/check-tuning.py "$work/chord-pc.wav" "${chord[@]}"
}
example_cmake() { # prefix (/usr or stage/usr) libdir
  local prefix=$1 libdir=$2
  rm -rf "$work/example-build"
  cmake -S examples/c -B "$work/example-build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
  cmake --build "$work/example-build" >/dev/null
  LD_LIBRARY_PATH="$libdir" "$work/example-build/render_chord" "$work/chord-cmake.wav"
  scripts/check-tuning.py "$work/chord-cmake.wav" "${chord[@]}"
}

echo "--- make install (staged) ---"
stage="$work/stage"
make install DESTDIR="$stage" PREFIX=/usr "${make_vars[@]}" >/dev/null
lib="usr/lib/$multiarch"
for f in usr/bin/boop usr/share/man/man1/boop.1 usr/share/bash-completion/completions/boop \
  usr/share/zsh/site-functions/_boop usr/share/fish/vendor_completions.d/boop.fish \
  usr/share/pixelboop/examples/demo.json usr/include/pixelboop/CAudioEngine.h usr/include/pixelboop/CAudioEngineAmbient.h \
  usr/include/pixelboop/CAudioEngineProcess.h usr/include/pixelboop/CAudioEngineKeys.h \
  usr/include/pixelboop/CAudioEngineSynth.h usr/include/pixelboop/CAudioEngineLimits.h \
  "$lib/libpixelboop.so.0" "$lib/libpixelboop.so" "$lib/libpixelboop.a" "$lib/pkgconfig/pixelboop.pc" \
  "$lib/cmake/PixelBoop/PixelBoopConfig.cmake" "$lib/cmake/PixelBoop/PixelBoopTargets.cmake"; do
  test -s "$stage/$f" || fail "make install did not install $f"
done
boop="$stage/usr/bin/boop"
check_stripped "$boop" "$stage/usr/lib/debug"

# Only system libraries: nothing from the toolchain, nothing unresolved.
ldd "$boop" | tee "$work/ldd"
grep -q "not found" "$work/ldd" && fail "boop needs a library that is not installed"
grep -q "$toolchain" "$work/ldd" && fail "boop links a library from the Swift toolchain"
awk '/=>/ {print $3}' "$work/ldd" | grep -Ev '^(/usr)?/lib' && fail "boop links a library outside the system folders"
# SwiftPM always adds $ORIGIN; anything else would point into a build machine's folders.
readelf -d "$boop" | grep -E 'RUNPATH|RPATH' | grep -v 'path: \[\$ORIGIN\]$' && fail "boop carries a RUNPATH (above)"
python3 - "$boop" <<'PY'
import subprocess, sys, time
best = min((lambda t: (subprocess.run([sys.argv[1], "--version"], capture_output=True, check=True),
                       time.perf_counter() - t)[1])(time.perf_counter()) for _ in range(10))
print(f"boop --version: {best * 1000:.1f} ms (best of 10)")
PY
hidden "$boop" render "$stage/usr/share/pixelboop/examples/demo.json" -o "$work/demo.wav" -q ||
  fail "the installed boop does not render with the toolchain hidden"
test -s "$work/demo.wav" || fail "no WAV rendered"
echo "boop renders with $toolchain hidden: $(stat -c %s "$work/demo.wav") bytes"

# Only the C API leaves the library.
nm -D --defined-only "$stage/$lib/libpixelboop.so.0" | awk '{print $3}' >"$work/exports"
grep -v '^boop_' "$work/exports" && fail "libpixelboop exports symbols outside the C API (above)"
echo "libpixelboop exports $(wc -l <"$work/exports") symbols, all boop_*; SONAME $(readelf -d "$stage/$lib/libpixelboop.so.0" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')"
example_pkgconfig "$stage" "/usr/lib/$multiarch"
example_cmake "$stage/usr" "$stage/$lib"
# boop.lv2 under libdir/lv2 (where Debian's lilv looks), lilv finding it there, and only its
# entry point exported.
lv2uri=https://github.com/pixelboop/pixelboop-linux/lv2/boop
for f in manifest.ttl boop.ttl boop.so; do
  test -s "$stage/$lib/lv2/boop.lv2/$f" || fail "make install did not install $lib/lv2/boop.lv2/$f"
done
[ "$(nm -D --defined-only "$stage/$lib/lv2/boop.lv2/boop.so" | awk '{print $3}')" = lv2_descriptor ] ||
  fail "boop.lv2/boop.so exports more than lv2_descriptor"
LV2_PATH="$stage/$lib/lv2" lv2info "$lv2uri" >/dev/null || fail "lv2info does not find the installed boop.lv2"
echo "boop.lv2 installed in $lib/lv2, listed by lv2info, exporting only lv2_descriptor"

MANWIDTH=80 man -l "$stage/usr/share/man/man1/boop.1" 2>/dev/null | grep -q "boop" || fail "man page does not render"
bash -c "source '$stage/usr/share/bash-completion/completions/boop'" || fail "bash completion does not load"
make uninstall DESTDIR="$stage" PREFIX=/usr >/dev/null
left="$(find "$stage" -type f -o -type l)"
[ -z "$left" ] || fail "make uninstall left files behind: $left"
echo "installed and uninstalled cleanly"

echo "--- Debian package ---"
if [ -n "$sudo" ] && ! sudo -n true 2>/dev/null; then
  echo "skipped: installing a package needs root or sudo"
  exit 0
fi
# The package is installed system-wide: a second test run at once (another clone) waits here
# rather than install or remove pixelboop under this one.
exec 8>"${TMPDIR:-/tmp}/boop-install-tests-deb.lock"
flock -w 3600 8 || fail "another test run held the Debian package check for an hour"
# The package as shipped (xz), so its size is the one checked.
make -s deb "${make_vars[@]}" | tail -1
deb="$(ls build-deb/pixelboop_*.deb)"
[ "$(stat -c %s "$deb")" -lt "$deb_max_bytes" ] || fail "$deb is $(stat -c %s "$deb") bytes (limit $deb_max_bytes)"
echo "$deb: $(stat -c %s "$deb") bytes (limit $deb_max_bytes)"
dbgsym="$(ls build-deb/pixelboop-dbgsym_*.deb)" || fail "make deb made no pixelboop-dbgsym package"
[ "$(dpkg-deb -f "$dbgsym" Depends)" = "pixelboop (= $(dpkg-deb -f "$deb" Version))" ] ||
  fail "$dbgsym does not depend on exactly this pixelboop"
dpkg-deb -c "$deb" | grep ' ./usr/lib/debug/' && fail "$deb carries debug files (above)"
dpkg-deb -c "$deb" | awk '{print $6}' >"$work/contents"
for f in ./usr/bin/boop ./usr/include/pixelboop/CAudioEngine.h ./usr/include/pixelboop/CAudioEngineAmbient.h \
  ./usr/include/pixelboop/CAudioEngineProcess.h ./usr/include/pixelboop/CAudioEngineKeys.h \
  ./usr/include/pixelboop/CAudioEngineSynth.h ./usr/include/pixelboop/CAudioEngineLimits.h "./$lib/libpixelboop.so.0" \
  "./$lib/pkgconfig/pixelboop.pc" ./usr/share/man/man1/boop.1; do
  grep -qx "$f" "$work/contents" || fail "$deb lacks $f"
done
dpkg-deb -f "$deb" Depends
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "./$deb" "./$dbgsym" >/dev/null
installed() { dpkg-query -W -f='${Status}' "${1:-pixelboop}" 2>/dev/null | grep -q "install ok installed"; }
cleanup_package() { installed && $sudo apt-get remove -y -qq pixelboop pixelboop-dbgsym >/dev/null || true; }
trap 'cleanup_package; rm -rf "$work"' EXIT
installed || fail "apt did not install $deb"
installed pixelboop-dbgsym || fail "apt did not install $dbgsym"
check_stripped /usr/bin/boop /usr/lib/debug
hidden /usr/bin/boop render /usr/share/pixelboop/examples/demo.json -o "$work/demo-deb.wav" -q ||
  fail "boop from the package does not render with the toolchain hidden"
cmp -s "$work/demo.wav" "$work/demo-deb.wav" || fail "the packaged boop renders differently from the staged one"
echo "boop from the package renders demo.json (identical to the staged build)"
example_pkgconfig / "/usr/lib/$multiarch"
example_cmake /usr "/usr/lib/$multiarch"
env -u LV2_PATH lv2info "$lv2uri" >/dev/null || fail "lv2info does not find boop.lv2 from the package"
$sudo apt-get remove -y -qq pixelboop >/dev/null
installed && fail "apt remove left pixelboop installed"
installed pixelboop-dbgsym && fail "apt remove pixelboop left pixelboop-dbgsym installed"
for f in /usr/bin/boop /usr/include/pixelboop "/$lib/libpixelboop.so.0" "/$lib/libpixelboop.so" \
  "/$lib/pkgconfig/pixelboop.pc" "/$lib/cmake/PixelBoop" /usr/share/pixelboop "/$lib/lv2/boop.lv2"; do
  [ ! -e "$f" ] || fail "apt remove left $f"
done
echo "the package installed, worked and removed cleanly"
