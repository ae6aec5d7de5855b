#!/usr/bin/env bash
# Songs (version 2), checked against the formula by an independent model in Python: a song of
# three patterns of different lengths, a chain with repeats and a tempo change, swing,
# probabilities and conditions with a seed, ratchets, every track on an instrument other than its
# default, one track muted. Every onset of every track (rendered alone with solo) on the frame the
# formula gives; the same bytes on every run with the same seed; the .mid export holding the same
# notes; the muted track silent; each pitched instrument in tune (within 1 cent); example songs
# render; `edit` without a terminal leaves a song untouched. About 10 s.
# Run by scripts/cli-tests.sh with BOOP, ROOT and WORK set.
set -uo pipefail
boop="$BOOP" root="$ROOT" work="$WORK/song"
mkdir -p "$work"
failures=0
fail() { echo "FAIL $1"; failures=$((failures + 1)); }

python3 - "$work" <<'PY' || fail "writing the test songs"
import copy, json, sys
work = sys.argv[1]
# Notes spaced so each ends (gate, then a 10 ms release) before the next one starts.
song = {
    "version": 2, "name": "check", "bpm": 120, "swing": 50, "seed": 11,
    "instruments": {
        "melody": {"voice": "pulse", "width": 0.3, "attack": 0.003, "release": 0.01, "pan": -0.4},
        "chords": {"voice": "pluck", "release": 0.01, "mute": True},
        "bass": {"voice": "fm", "attack": 0.003, "decay": 2, "sustain": 0.5, "release": 0.01, "cutoff": 5000},
        "rhythm": {"kit": "chip", "level": 0.7},
    },
    "patterns": {
        "A": {"length": 16, "swing": 60, "tracks": {
            "melody": [{"step": 0, "pitch": 69, "length": 2}, {"step": 3, "pitch": 72, "probability": 50},
                       {"step": 6, "pitch": 74, "ratchet": 2}, {"step": 9, "pitch": 76, "condition": "1:2"},
                       {"step": 12, "pitch": 81, "length": 3, "velocity": "accent"}],
            "chords": [{"step": 0, "pitch": 57, "length": 2}, {"step": 8, "pitch": 60, "length": 2}],
            "bass": [{"step": 0, "pitch": 45, "length": 4}, {"step": 7, "pitch": 48, "probability": 60},
                     {"step": 10, "pitch": 43, "length": 4}],
            "rhythm": [{"step": 2, "pitch": 42}, {"step": 5, "pitch": 42, "probability": 40},
                       {"step": 8, "pitch": 42, "ratchet": 2}, {"step": 13, "pitch": 42, "condition": "2:3"}]}},
        "B": {"length": 12, "tracks": {
            "melody": [{"step": 0, "pitch": 67, "length": 8}, {"step": 9, "pitch": 64, "probability": 30}],
            "bass": [{"step": 1, "pitch": 40, "length": 5}, {"step": 8, "pitch": 38, "length": 3}],
            "rhythm": [{"step": 0, "pitch": 42}, {"step": 3, "pitch": 42}, {"step": 7, "pitch": 42}]}},
        "C": {"length": 7, "swing": 70, "tracks": {
            "melody": [{"step": 1, "pitch": 72}, {"step": 4, "pitch": 71, "condition": "2:2"}],
            "chords": [{"step": 0, "pitch": 64, "length": 7}],
            "bass": [{"step": 3, "pitch": 47, "length": 2}],
            "rhythm": [{"step": 0, "pitch": 42, "ratchet": 3}, {"step": 5, "pitch": 42}]}},
    },
    "song": [{"pattern": "A", "repeat": 3}, {"pattern": "B", "bpm": 150}, {"pattern": "C", "repeat": 2, "bpm": 100},
             {"pattern": "A"}],
}
json.dump(song, open(f"{work}/song.json", "w"), indent=1)
for kind in ("melody", "chords", "bass", "rhythm"):
    solo = copy.deepcopy(song)
    solo["instruments"][kind]["solo"] = True
    solo["instruments"][kind]["mute"] = False
    json.dump(solo, open(f"{work}/solo-{kind}.json", "w"))
only_muted = copy.deepcopy(song)
for kind in ("melody", "bass", "rhythm"):
    only_muted["instruments"][kind]["mute"] = True
json.dump(only_muted, open(f"{work}/only-muted.json", "w"))
PY

r() { "$boop" render "$@" -q || fail "render $*"; }
r "$work/song.json" -o "$work/a.wav"
r "$work/song.json" -o "$work/b.wav"
r "$work/song.json" -o "$work/seed5.wav" --seed 5
r "$work/song.json" -o "$work/seed5b.wav" --seed 5
r "$work/song.json" -o "$work/song.mid"
r "$work/only-muted.json" -o "$work/only-muted.wav"
for kind in melody chords bass rhythm; do r "$work/solo-$kind.json" -o "$work/solo-$kind.wav"; done
cmp -s "$work/a.wav" "$work/b.wav" || fail "the same seed gave different bytes"
cmp -s "$work/seed5.wav" "$work/seed5b.wav" || fail "--seed 5 gave different bytes"
cmp -s "$work/a.wav" "$work/seed5.wav" && fail "--seed 5 changed nothing"
r "$root/examples/song.json" -o "$work/example.wav"
r "$root/examples/song.json" -o "$work/example-verse.wav" --pattern verse --loops 2

python3 "$root/scripts/song_model.py" "$work" || failures=$((failures + 1))

# `edit` opens songs (scripts/edit-song-tests.py drives it); without a terminal it is a usage
# error with one line, and the song is untouched.
before=$(sha256sum <"$work/song.json")
out=$("$boop" edit "$work/song.json" 2>&1 </dev/null)
status=$?
[ "$status" = 64 ] || fail "edit of a song without a terminal: exit $status (expected 64)"
[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || fail "edit of a song without a terminal: not one line: $out"
[ "$(sha256sum <"$work/song.json")" = "$before" ] || fail "edit changed the song file"

exit $((failures > 0))
