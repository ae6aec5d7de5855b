#!/usr/bin/env bash
# Renders every example and a set of version-1 patterns and version-2 songs with a few option
# variants and prints one "file variant sha256" line per output, so two builds of boop can be
# compared byte for byte: scripts/render-identity.sh BOOP > a.txt; (other build) > b.txt; diff.
set -euo pipefail
boop=${1:?usage: render-identity.sh /abs/path/to/boop}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/in" "$work/out"
cp "$root"/examples/*.json "$work/in/"
python3 - "$work/in" <<'PY'
import json, sys
d = sys.argv[1]
def w(name, obj): json.dump(obj, open(f"{d}/{name}.json", "w"), indent=1)
w("v1-empty-tracks", {"name": "empty tracks", "bpm": 97.3, "length": 24,
    "tracks": {"melody": [{"step": 0, "pitch": 64, "length": 3}], "bass": [], "chords": [],
               "rhythm": [{"step": 4, "pitch": 36}, {"step": 12, "pitch": 38, "velocity": "accent"}]}})
w("v1-133", {"version": 1, "name": "odd tempo", "bpm": 133, "length": 16,
    "tracks": {"melody": [{"step": s, "pitch": 60 + s, "velocity": v} for s, v in
                          [(0, "accent"), (3, "normal"), (5, "sustain"), (11, "normal")]],
               "rhythm": [{"step": s, "pitch": 36 if s % 8 == 0 else 42} for s in range(0, 16, 2)]}})
w("v1-legato", {"name": "legato", "bpm": 88.8, "length": 8,
    "tracks": {"melody": [{"step": 0, "pitch": 60, "length": 4, "velocity": "sustain"},
                          {"step": 2, "pitch": 60, "length": 2}, {"step": 4, "pitch": 62, "length": 4, "velocity": "sustain"}],
               "chords": [{"step": 0, "pitch": p, "length": 8, "velocity": "sustain"} for p in (48, 52, 55, 59)],
               "bass": [{"step": 0, "pitch": 36, "length": 7}, {"step": 7, "pitch": 36}]}})
w("v1-high", {"name": "high", "bpm": 140, "length": 16,
    "tracks": {"melody": [{"step": 0, "pitch": 127}, {"step": 1, "pitch": 120}, {"step": 2, "pitch": 100}],
               "bass": [{"step": 4, "pitch": 0}]}})
w("v1-dense", {"name": "dense", "bpm": 174, "length": 32,
    "tracks": {k: [{"step": s, "pitch": b + i} for s in range(0, 32, 3) for i in range(0, 12, 4)]
               for k, b in (("melody", 72), ("chords", 60), ("bass", 36))}
    | {"rhythm": [{"step": s, "pitch": 35 + s % 47} for s in range(32)]}})
w("v1-minimal", {"name": "nothing"})
w("v2-one", {"version": 2, "name": "one", "bpm": 133, "patterns": {"A": {"length": 16, "tracks": {
    "melody": [{"step": 0, "pitch": 72}, {"step": 5, "pitch": 74, "length": 3}],
    "rhythm": [{"step": 0, "pitch": 36}, {"step": 8, "pitch": 38}]}}}})
PY
# The songs of the CLI's song test (its chain, groove, mix, solos and mutes), written by its own script.
mkdir -p "$work/song"
sed -n "/^python3 - \"\$work\" <<'PY'/,/^PY\$/p" "$root/scripts/cli-tests.d/song.sh" | sed '1d;$d' | python3 - "$work/song"
for f in "$work"/song/*.json; do cp "$f" "$work/in/v2-$(basename "$f")"; done
render() {   # file tag args...
    local f=$1 tag=$2 ext=$3
    shift 3
    local out="$work/out/$(basename "$f" .json)-$tag.$ext"
    local status=0
    "$boop" render "$f" -o "$out" -q "$@" 2>"$work/err" || status=$?
    if [ "$status" = 0 ]; then
        printf '%s %s %s\n' "$(basename "$f")" "$tag.$ext" "$(sha256sum <"$out" | cut -c1-64)"
    else   # a refused file: its exit status and its one line on stderr (with the path made relative)
        printf '%s %s exit=%s %s\n' "$(basename "$f")" "$tag.$ext" "$status" "$(sed "s|$work/||g" "$work/err")"
    fi
    rm -f "$out"
}
for f in "$work"/in/*.json; do
    render "$f" plain wav
    render "$f" loops3 wav --loops 3
    render "$f" gain-6 wav --gain -6
    render "$f" r22050-loops2 wav -r 22050 --loops 2
    render "$f" s16 wav --sample-format s16 --loops 2
    render "$f" bpm141-voices2 wav --bpm 141.5 --voices 2
    render "$f" loops37-48k wav -r 48000 --loops 37
    render "$f" flac flac --loops 2
    render "$f" plain mid
    render "$f" loops3 mid --loops 3
    render "$f" bpm141 mid --bpm 141.5 --loops 2
done
# The loader's refusals: every bad fixture of the Swift tests, one line each.
for f in "$root"/Tests/PixelBoopCoreTests/Fixtures/bad/*.json; do
    cp "$f" "$work/in-bad.json"
    render "$work/in-bad.json" "$(basename "$f" .json)" wav
done
