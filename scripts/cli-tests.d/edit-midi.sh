#!/usr/bin/env bash
# `boop edit --midi SRC` where there is no sequencer device, as on the build machines: one line
# saying so and exit 69, before the terminal is taken (so it holds without a terminal too). Where
# /dev/snd/seq exists the check says plainly that it was skipped. An empty SRC is a usage error.
# Run by scripts/cli-tests.sh with BOOP, ROOT and WORK set. Under 1 s.
set -uo pipefail
boop="$BOOP" root="$ROOT" work="$WORK/edit-midi"
mkdir -p "$work"
failures=0
source "$root/scripts/cli-check.sh"

if [ -e /dev/snd/seq ]; then
  echo "SKIP edit --midi without a sequencer: /dev/snd/seq exists on this machine (the no-sequencer line is not testable here)"
else
  for src in "24:0" "keyboard"; do
    if check "edit --midi $src, no sequencer" 69 timeout 20 "$boop" edit --midi "$src" "$work/p.json" </dev/null; then
      grep -qx "boop: edit: --midi: no ALSA sequencer (/dev/snd/seq: No such file or directory)" "$work/stderr" ||
        fail "edit --midi $src: unexpected line: $(cat "$work/stderr")"
    fi
  done
  [ ! -e "$work/p.json" ] || fail "edit --midi: a file was written: $work/p.json"
fi
check "edit --midi ''" 64 "$boop" edit --midi "" "$work/p.json"
check "edit --midi without SRC" 64 "$boop" edit "$work/p.json" --midi

[ "$failures" -eq 0 ]
