#!/usr/bin/env python3
"""A track of its own length and a chain entry's transpose in `boop edit`, in a pseudo-terminal:
`C` types the current track's length (the status line shows `step 3/16 (12)`, steps past it are
blank and take no note), notes past a shorter length are cut in one undo step, `t` in the chain
panel types the entry's transpose (shown there) and `f` marks it a fill, `Y` types a note's
condition (`!pre`), `V` a velocity (97), and the saved song holds `track_lengths`, `transpose`,
`fill`, the condition and the velocity, which `boop render` plays as the file says.

    scripts/edit-polymeter-tests.py BOOP WORK
"""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from edit_driver import Editor, fresh_work  # noqa: E402

BOOP, WORK, check, ENV = fresh_work(sys.argv)

with Editor(BOOP, "poly.json", env=ENV) as ed:
    check(ed.wait_for("poly.json"), "the editor opens a new file", ed.text())
    # Melody notes on steps 1 and 11 (0 and 10), then the melody's own length 8 cuts the second.
    ed.keys(" ", "l", "l", "l", "l", "l", "l", "l", "l", "l", "l", " ")
    ed.keys("C", "8", "enter")
    check(ed.wait_for("loops its own 8 steps; 1 note past its end cut"), "C 8: the melody loops 8, one note cut", ed.text())
    check(ed.wait_for("step 11/16 (8)"), "the status line shows the track's own length", ed.status_line())
    ed.keys(" ")
    check(ed.wait_for("step 11 is past its end"), "no note past the track's end", ed.text())
    ed.keys("u")
    check(ed.wait_for("step 11/16│") and "n1" in ed.status_line(), "u brings the 16 steps and the cut note back", ed.status_line())
    ed.keys("C", "8", "enter")
    ed.keys("tab", "tab", "C", "1", "2", "enter")  # bass: 12 steps
    check(ed.wait_for("the bass loops its own 12 steps"), "C 12 on the bass", ed.text())
    ed.keys("g", "t", "-", "5", "enter")
    check(ed.wait_for("-5 st"), "t in the chain: the entry's transpose shown", ed.text())
    ed.keys("t", "3", "0", "enter")
    check(ed.wait_for("transpose: expected whole semitones, -24...24"), "a transpose past 24 is refused", ed.text())
    ed.keys("f")
    check(ed.wait_for("-5 st fill"), "f in the chain: the entry is a fill", ed.text())
    ed.keys("esc", "tab", "tab", "h", "h", "h", "h", "h", "h", "h", "h", "h", "h", "Y", "!", "p", "r", "e", "enter")
    check(ed.wait_for("condition: 100% !PRE"), "Y types a condition", ed.text())
    ed.keys("Y", "6", "5", ":", "6", "5", "enter")
    check(ed.wait_for("condition: expected a:b"), "Y refuses 65:65", ed.text())
    ed.keys("esc", "Q")
    check(ed.wait_for("fill mode: FILL notes play") and "FILL" in ed.status_line(), "Q: fill mode on, shown", ed.status_line())
    ed.keys("Q")
    check(ed.wait_for("fill mode off") and "FILL" not in ed.status_line(), "Q again: off", ed.status_line())
    ed.keys("V", "9", "7", "enter")
    check(ed.wait_for("v97 1"), "V types a velocity of 97 (the status line's short form at 80 columns)", ed.status_line())
    ed.keys("V", "1", "2", "8", "enter")
    check(ed.wait_for("velocity: expected 1...127"), "V refuses 128", ed.text())
    ed.keys("esc", "s")
    check(ed.wait_for("saved poly.json"), "saved", ed.text())
    ed.finish()

song = json.load(open("poly.json"))
pattern = next(iter(song["patterns"].values()))
check(pattern.get("track_lengths") == {"melody": 8, "bass": 12}, "track_lengths saved", pattern.get("track_lengths"))
check(song["song"][0].get("transpose") == -5 and song["song"][0].get("fill") is True, "transpose and fill saved", song["song"])
check(pattern["tracks"]["melody"][0].get("condition") == "!PRE", "the typed condition saved", pattern["tracks"])
check(pattern["tracks"]["melody"][0].get("velocity") == 97, "the typed velocity saved", pattern["tracks"])
check([n["step"] for n in pattern["tracks"]["melody"]] == [0], "the melody keeps its one note", pattern["tracks"])
r = subprocess.run([BOOP, "render", "poly.json", "-o", "poly.mid"], capture_output=True, text=True)
check(r.returncode == 0, "the saved song renders", r.stderr)

print(f"{check.failures} failure(s)")
sys.exit(1 if check.failures else 0)
