#!/usr/bin/env bash
# `boop edit` in a pseudo-terminal driven by a terminal emulator (scripts/edit-tests.py, pyte):
# keys, mouse, undo, saving, quitting, signals, resizing, colour modes, invalid files; and under
# job control in an interactive bash (scripts/edit-jobs-tests.py); a song built, undone, redone,
# saved and rendered (scripts/edit-song-tests.py, ~30 s); an export beside the editing, cancelled by
# Esc, q, SIGTERM and SIGHUP (scripts/edit-export-tests.py); terminal escapes and bytes that are
# not UTF-8 in file and pattern names (scripts/edit-names-tests.py); two editors on one file, and an
# export onto an existing file (scripts/edit-files-tests.py); piano mode (scripts/edit-piano-tests.py);
# a track's own length and an entry's transpose (scripts/edit-polymeter-tests.py); a three-part song
# built by a scripted musician, its keys counted (scripts/edit-musician-test.py).
# All run even if one fails.
# Run by scripts/cli-tests.sh with BOOP, ROOT and WORK set.
set -uo pipefail
rc=0
python3 "$ROOT/scripts/edit-tests.py" "$BOOP" "$WORK/edit" || rc=1
python3 "$ROOT/scripts/edit-input-tests.py" "$BOOP" "$WORK/edit-input" || rc=1
python3 "$ROOT/scripts/edit-jobs-tests.py" "$BOOP" "$WORK/edit-jobs" || rc=1
python3 "$ROOT/scripts/edit-song-tests.py" "$BOOP" "$WORK/edit-song" || rc=1
python3 "$ROOT/scripts/edit-export-tests.py" "$BOOP" "$WORK/edit-export" || rc=1
python3 "$ROOT/scripts/edit-names-tests.py" "$BOOP" "$WORK/edit-names" || rc=1
python3 "$ROOT/scripts/edit-files-tests.py" "$BOOP" "$WORK/edit-files" || rc=1
python3 "$ROOT/scripts/edit-piano-tests.py" "$BOOP" "$WORK/edit-piano" || rc=1
python3 "$ROOT/scripts/edit-polymeter-tests.py" "$BOOP" "$WORK/edit-polymeter" || rc=1
python3 "$ROOT/scripts/edit-musician-test.py" "$BOOP" "$WORK/edit-musician" || rc=1
exit $rc
