#!/usr/bin/env bash
# Moves an installed binary's debug information into a file of its own, as Debian's dh_strip does:
#   scripts/split-debug.sh BIN DEBUGDIR   ->  DEBUGDIR/.build-id/xx/yyyy.debug, BIN stripped
# The file is found by the binary's build ID (gdb, eu-unstrip and systemd-coredump look in
# /usr/lib/debug/.build-id) and by its .gnu_debuglink, which also carries a checksum of it.
set -euo pipefail
bin=$1 debugdir=$2
id=$(readelf -n "$bin" | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p')
[ -n "$id" ] || {
  echo "split-debug: $bin has no build ID" >&2
  exit 1
}
debug="$debugdir/.build-id/${id:0:2}/${id:2}.debug"
mkdir -p "$(dirname "$debug")"
objcopy --only-keep-debug --compress-debug-sections "$bin" "$debug"
chmod 644 "$debug"
strip --remove-section=.comment --remove-section=.note "$bin"
objcopy --add-gnu-debuglink="$debug" "$bin"
