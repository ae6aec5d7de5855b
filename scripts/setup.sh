#!/usr/bin/env bash
# Installs what PixelBoop needs on Debian/Ubuntu. Idempotent: installs only what is missing, and
# uses sudo only when not already root.
set -euo pipefail

packages=(
  cmake ninja-build pkg-config
  libasound2-dev libsndfile1-dev libjack-jackd2-dev libsqlite3-dev doctest-dev libstk-dev libsystemd-dev
  pulseaudio libasound2-plugins alsa-utils jackd2
  aubio-tools python3-numpy python3-scipy python3-mido
  dbus dbus-user-session playerctl
  make man-db groff-base hyperfine
  clang-format python3-pip
  lv2-dev liblilv-dev lilv-utils jalv lv2file
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Test tools from PyPI, for whichever python3 runs the tests: pyloudnorm, the independent BS.1770
# meter the loudness checks compare boop's output with, and pyte, the terminal emulator that
# drives `boop edit` in a pseudo-terminal, and JACK-Client (module jack), the test client that
# sends MIDI to `boop synth` and records its output on the server's frame clock. module:package.
for entry in pyloudnorm:pyloudnorm pyte:pyte jack:JACK-Client; do
  module=${entry%%:*} package=${entry#*:}
  if ! python3 -c "import $module" 2>/dev/null; then
    echo "setup: installing $package (PyPI)" >&2
    python3 -m pip install --quiet --break-system-packages "$package" 2>/dev/null ||
      python3 -m pip install --quiet "$package"
  fi
done

if ! command -v swift >/dev/null 2>&1; then
  for d in /opt/swift/usr/bin /usr/share/swift/usr/bin; do [ -x "$d/swift" ] && export PATH="$d:$PATH"; done
fi
command -v swift >/dev/null 2>&1 || {
  echo "setup: the Swift toolchain (6.x) is required: https://www.swift.org/install/linux/" >&2
  exit 69
}
