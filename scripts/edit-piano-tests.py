#!/usr/bin/env python3
"""Piano mode in `boop edit` (`K`), in a pseudo-terminal as a tracker user types: the two rows
(`z s x d c v g b h n j m ,` and `q 2 w 3 e r 5 t 6 y 7 u i`) place notes at the cursor, which
moves on by the step set (`9` `0`); `[` `]` set the length placed, `-` `=` the octave, `/` holds
the cursor for a chord; the status line shows the mode; Esc leaves it and the grid's keys are
back; on the rhythm track the keys walk the drum lanes.

    scripts/edit-piano-tests.py BOOP WORK
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from edit_driver import Editor, fresh_work  # noqa: E402

BOOP, WORK, check, ENV = fresh_work(sys.argv)


def notes(path, track):
    data = json.load(open(path))
    tracks = data["tracks"] if "tracks" in data else next(iter(data["patterns"].values()))["tracks"]
    return sorted((n["step"], n["pitch"], n.get("length", 1)) for n in tracks.get(track, []))


with Editor(BOOP, "piano.json", env=ENV) as ed:
    check(ed.wait_for("piano.json"), "the editor opens a new file", ed.text())
    ed.keys("K")
    check(ed.wait_for("piano C4 len 1 +1"), "K: piano mode, shown on the status line", ed.status_line())
    ed.keys("z", "x", "c")  # C4 D4 E4 on steps 1, 2, 3
    check(ed.wait_for("step 4/16"), "three typed notes moved the cursor three steps", ed.status_line())
    ed.keys("]", "0")  # length 2, step 2
    check(ed.wait_for("piano C4 len 2 +2"), "] and 0: length 2, step +2", ed.status_line())
    ed.keys("v")  # F4 on step 4, length 2; cursor to step 6
    ed.keys("/", "z", "c", "v", "/")  # a chord C4 E4 F4 on step 6, then on to step 8
    check(ed.wait_for("step 8/16"), "/ held the chord on one step, / again moved on", ed.status_line())
    ed.keys("=", "q")  # an octave up: q is C6 (the upper row of octave 5)
    check(ed.wait_for("step 10/16"), "= then q: placed and moved on", ed.status_line())
    ed.keys("esc")
    check(ed.wait_for("piano mode off"), "Esc leaves piano mode", ed.text())
    ed.keys("tab", "tab", "tab", "K", "z", "s")  # rhythm: the first two lanes, kick and snare
    ed.keys("esc", "s")
    check(ed.wait_for("saved piano.json"), "s saves once piano mode is off", ed.text())
    ed.finish()

want = [(0, 60, 1), (1, 62, 1), (2, 64, 1), (3, 65, 2), (5, 60, 2), (5, 64, 2), (5, 65, 2), (7, 84, 2)]
check(notes("piano.json", "melody") == want, "the melody typed: notes, steps and lengths", notes("piano.json", "melody"))
drums = notes("piano.json", "rhythm")
check([(s, p) for s, p, _ in drums] == [(9, 36), (10, 38)], "rhythm: z and s are the kick and snare lanes", drums)

print(f"{check.failures} failure(s)")
sys.exit(1 if check.failures else 0)
