#!/usr/bin/env bash
# The main job for a newcomer: set up, build, and play the demo pattern on the default sound
# device — or, when no device opens (a server, CI, a container), render it to a WAV file.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"

swift build -c release --product boop >&2
boop="$(swift build -c release --show-bin-path)/boop"

set +e
"$boop" play examples/demo.json --loops 2 "$@"
status=$?
set -e
if [ "$status" -eq 69 ]; then
  mkdir -p out
  "$boop" render examples/demo.json --loops 2 -o out/demo.wav
  echo "No sound device could be opened, so the demo was rendered instead: $(pwd)/out/demo.wav"
  exit 0
fi
exit "$status"
