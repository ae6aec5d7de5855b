#!/usr/bin/env bash
# Turns a staged install (make install DESTDIR=ROOT PREFIX=/usr) into a Debian package:
#   scripts/make-deb.sh ROOT VERSION OUTDIR   ->  OUTDIR/pixelboop_VERSION_ARCH.deb
#                                                 OUTDIR/pixelboop-dbgsym_VERSION_ARCH.deb
# Depends come from dpkg-shlibdeps over every ELF file in the stage (what is really linked), and
# the two libraries boop opens on first use (Sources/CAudioEngine/lazy), which no ELF names. The
# stage's usr/lib/debug (boop's debug symbols, split off by make install) goes into the second
# package, as Debian ships them: pixelboop-dbgsym, Section debug, for exactly this pixelboop.
set -euo pipefail
root=$1 version=$2 out=$3
arch=$(dpkg --print-architecture)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# dpkg-shlibdeps wants a debian/control to read; the libraries it resolves come from the system.
mkdir -p "$work/debian"
printf 'Source: pixelboop\n\nPackage: pixelboop\nArchitecture: any\n' >"$work/debian/control"
elves=("$(realpath "$root")/usr/bin/boop")
mapfile -t -O 1 elves < <(find "$(realpath "$root")" -type f \( -name 'libpixelboop.so.*' -o -path '*/lv2/boop.lv2/boop.so' \) | sort)
# Its warnings are about the staging layout (no debian/<package>/ tree), shown only on failure.
if ! depends=$(cd "$work" && dpkg-shlibdeps -O "${elves[@]}" 2>"$work/shlibdeps.log" | sed -n 's/^shlibs:Depends=//p') ||
  [ -z "$depends" ]; then
  cat "$work/shlibdeps.log" >&2
  echo "make-deb: dpkg-shlibdeps could not compute Depends" >&2
  exit 1
fi
# The sonames dlopen asks for (libsndfile.so.1, libsystemd.so.0), at the versions whose
# sd_bus_*v forms the engine calls (libsystemd 246) and whose writer it was tested with.
depends="$depends, libsndfile1 (>= 1.0.31), libsystemd0 (>= 246)"
# Packed relative relocations (DT_RELR, Package.swift on glibc 2.36 and later) need the loader of
# glibc 2.36, a version dpkg-shlibdeps does not map: without this, the package would install on
# 2.35 and boop would not start there.
if readelf -V "${elves[0]}" | grep -q GLIBC_ABI_DT_RELR; then
  depends=$(sed 's/libc6 (>= [0-9.]*)/libc6 (>= 2.36)/' <<<"$depends")
fi

# The debug files leave the stage for their own package while the main one is built.
dbgroot="$work/dbgsym"
mkdir -p "$dbgroot/usr/lib"
mv "$root/usr/lib/debug" "$dbgroot/usr/lib/debug"
build_ids=$(find "$dbgroot/usr/lib/debug/.build-id" -name '*.debug' | sed 's|.*/\(..\)/\(.*\)\.debug$|\1\2|' | sort | xargs)
size=$(du -sk "$root" | cut -f1)
mkdir -p "$root/DEBIAN"
cat >"$root/DEBIAN/control" <<CONTROL
Package: pixelboop
Version: $version
Architecture: $arch
Maintainer: PixelBoop maintainers <maintainers@pixelboop.invalid>
Installed-Size: $size
Depends: $depends
Section: sound
Priority: optional
Homepage: https://github.com/pixelboop/pixelboop-linux
Description: real-time synthesis engine and the boop step-sequencer tool
 boop plays and renders step-sequencer patterns, plays precisely tuned tones
 for ear training, captures and analyses a microphone, and runs generative
 ambient music, through ALSA. The engine is also installed as a C library
 (libpixelboop, with pkg-config and CMake files), and the live synth as an
 LV2 instrument (boop.lv2) for Ardour, Qtractor, Carla and other LV2 hosts.
CONTROL
# The shared library's symlinks and SONAME need ldconfig after install and removal.
printf '#!/bin/sh\nset -e\n[ "$1" = configure ] && ldconfig || true\n' >"$root/DEBIAN/postinst"
printf '#!/bin/sh\nset -e\n[ "$1" = remove ] && ldconfig || true\n' >"$root/DEBIAN/postrm"
chmod 755 "$root/DEBIAN/postinst" "$root/DEBIAN/postrm"
mkdir -p "$out"
# DEB_COMPRESSION: dpkg-deb's compression options (default its own, xz); the test command, which
# installs the package once and throws it away, asks for a fast one (make deb DEB_COMPRESSION=...).
# shellcheck disable=SC2086
dpkg-deb --root-owner-group ${DEB_COMPRESSION:-} --build "$root" "$out/pixelboop_${version}_${arch}.deb" >/dev/null
rm -rf "$root/DEBIAN"

mkdir -p "$dbgroot/DEBIAN"
cat >"$dbgroot/DEBIAN/control" <<CONTROL
Package: pixelboop-dbgsym
Source: pixelboop
Version: $version
Auto-Built-Package: debug-symbols
Architecture: $arch
Maintainer: PixelBoop maintainers <maintainers@pixelboop.invalid>
Installed-Size: $(du -sk "$dbgroot/usr" | cut -f1)
Depends: pixelboop (= $version)
Section: debug
Priority: optional
Description: debug symbols for pixelboop
Build-Ids: $build_ids
CONTROL
# shellcheck disable=SC2086
dpkg-deb --root-owner-group ${DEB_COMPRESSION:-} --build "$dbgroot" "$out/pixelboop-dbgsym_${version}_${arch}.deb" >/dev/null
mv "$dbgroot/usr/lib/debug" "$root/usr/lib/debug"
echo "$out/pixelboop-dbgsym_${version}_${arch}.deb (Build-Ids: $build_ids)"
echo "$out/pixelboop_${version}_${arch}.deb (Depends: $depends)"
