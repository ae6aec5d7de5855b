#!/usr/bin/env bash
# Fails (exit 1) when any tracked C/C++ or Swift source differs from what the formatters make of it,
# naming each file. Fix with scripts/format.sh. Vendor/ keeps its upstream's own style.
set -uo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
bad=0
while IFS= read -r -d '' f; do
    if ! clang-format "$f" | cmp -s - "$f"; then echo "check-format: $f is not clang-formatted"; bad=1; fi
done < <(git ls-files -z -- '*.c' '*.h' '*.cpp' '*.hpp')
while IFS= read -r -d '' f; do
    if ! swift format format --configuration .swift-format "$f" | cmp -s - "$f"; then
        echo "check-format: $f is not swift-formatted"; bad=1
    fi
done < <(git ls-files -z -- '*.swift' ':!Package.swift' ':!Sources/PixelBoopCore/Ambient/BundledPresets.swift' ':!Vendor')
[ "$bad" = 0 ] && echo "check-format: every C, C++ and Swift source is formatted"
exit "$bad"
