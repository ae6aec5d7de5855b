#!/usr/bin/env bash
# `boop transcribe` against simulated singers (scripts/transcribe-test.py): six four-bar melodies
# sung with vibrato, scoops and breath at 20 dB SNR; >= 95 % of notes on their step and pitch, no
# note where nothing was sung; bad input one line with its status.
# Run by scripts/cli-tests.sh with BOOP, ROOT and WORK set.
set -uo pipefail
python3 "$ROOT/scripts/transcribe-test.py" "$BOOP" "$WORK/transcribe"
