#!/usr/bin/env bash
# `boop edit` in a pseudo-terminal driven by a terminal emulator (scripts/edit-tests.py, pyte):
# keys, mouse, undo, saving, quitting, signals, resizing, colour modes, invalid files.
# Run by scripts/cli-tests.sh with BOOP, ROOT and WORK set.
set -uo pipefail
python3 "$ROOT/scripts/edit-tests.py" "$BOOP" "$WORK/edit"
