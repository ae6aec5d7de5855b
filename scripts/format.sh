#!/usr/bin/env bash
# Formats every C/C++ and Swift source in place with the project's configurations (.clang-format,
# .swift-format). scripts/check-format.sh (part of the test command) fails when this would change
# anything.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
git ls-files -z --cached --others --exclude-standard -- '*.c' '*.h' '*.cpp' '*.hpp' | xargs -0 -r clang-format -i
git ls-files -z --cached --others --exclude-standard -- '*.swift' ':!Package.swift' ':!Sources/PixelBoopCore/Ambient/BundledPresets.swift' ':!Vendor' |
    xargs -0 -r swift format format -i --configuration .swift-format
