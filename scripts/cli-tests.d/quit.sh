#!/usr/bin/env bash
# q and Ctrl-C end every command that plays or listens within a second, exit 0, the terminal
# restored; without a terminal SIGINT and SIGTERM still do (scripts/quit-keys-test.py).
# Run by scripts/cli-tests.sh with BOOP, ROOT and WORK set.
set -uo pipefail
python3 "$ROOT/scripts/quit-keys-test.py" "$BOOP"
