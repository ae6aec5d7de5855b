#!/usr/bin/env python3
"""`boop edit` and the names it is given, in a pseudo-terminal read through pyte
(scripts/edit_driver.py):

- terminal escapes in a file name or a pattern name (OSC 0 title change, ESC [ 2 J, the C1 CSI
  U+009B) are shown escaped on every part of the screen and never reach the terminal;
- a file name that is not UTF-8 (byte 0xFF) in a folder whose name is not UTF-8 (byte 0xFE) is
  opened, saved and kept on a hang-up as exactly the file named, never another.

    scripts/edit-names-tests.py BOOP WORKDIR       PASS/FAIL lines, exits 1 on a failure
"""
import json
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from edit_driver import Checks, Editor, notes  # noqa: E402

BOOP, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)
check = Checks()

# 1. Escapes in names: the file's name and the pattern's carry a title change (ESC ] 0 ; ... BEL),
# a clear screen (ESC [ 2 J) and U+009B (C1 CSI, which some terminals obey as ESC [).
HOSTILE = "x\x1b]0;pwned\x07\x1b[2J\u009b"
path = os.path.join(WORK, HOSTILE + ".json")
song = {"version": 2, "name": "song", "bpm": 120,
        "patterns": {HOSTILE: {"length": 16, "tracks": {"melody": [{"step": 0, "pitch": 60}]}},
                     "B": {"length": 16}},
        "song": [{"pattern": HOSTILE, "repeat": 1}, {"pattern": "B", "repeat": 1}]}
with open(path, "w") as f:
    json.dump(song, f)
SHOWN = "x\\e]0;pwned\\u{7}\\e[2J\\u{9B}"
with Editor(BOOP, path, 160, 30, args=("-D", "null")) as ed:
    check(ed.wait_for("step 1/16"), "escapes: the song opens", (ed.status, ed.shown()))
    check(SHOWN + ".json" in ed.text(), "escapes: the file name shown escaped", ed.shown()[:2])
    check(f"pattern {SHOWN}" in ed.text(), "escapes: the pattern name shown escaped", ed.status_line())
    ed.keys("g")
    check(ed.wait_for("chain") and ed.text().count(SHOWN) >= 2, "escapes: the chain panel shows the name escaped",
          ed.shown())
    ed.keys("esc", " ", "s")  # a note placed, so that there is something to save
    check(ed.wait_for("saved " + SHOWN), "escapes: the save message shows the name escaped", ed.text()[-300:])
    check(ed.screen.title == "", "escapes: the terminal's title is unchanged", repr(ed.screen.title))
    check(b"\x1b]" not in ed.raw and b"\xc2\x9b" not in ed.raw and b"\x07" not in ed.raw,
          "escapes: no OSC, no C1 CSI in what boop wrote", ed.raw[:100])
    check(ed.finish() == 0, "escapes: q exits 0")
check(json.load(open(path))["patterns"].get(HOSTILE) is not None, "escapes: the name saved as it was")

# 2. Names that are not UTF-8: a file named with byte 0xFF in a folder named with byte 0xFE.
def saved(path, track="melody"):
    return notes(path, track) if os.path.exists(path) else None


def songs(folder):
    return sorted(n for n in os.listdir(folder) if n.startswith(b"song"))


# In a folder named in UTF-8 (the save went to another file, the byte turned into U+10FEFF) and in
# one that is not (every save failed).
folder = os.path.join(os.fsencode(WORK), b"dir\xfe")
os.makedirs(folder, exist_ok=True)
for where, place in (("a UTF-8 folder", os.fsencode(WORK)), ("a folder with 0xFE", folder)):
    existing = os.path.join(place, b"song\xff.json")
    with open(existing, "w") as f:
        json.dump({"version": 1, "name": "bytes", "bpm": 120, "length": 16,
                   "tracks": {"melody": [{"step": 0, "pitch": 60}]}}, f)
    with Editor(BOOP, os.fsdecode(existing), 120, 30, args=("-D", "null")) as ed:
        check(ed.wait_for("step 1/16"), f"bytes: a file named with 0xFF in {where} opens", ed.shown())
        check("song\\xFF.json" in ed.text(), "bytes: its name shown with the byte escaped", ed.shown()[:2])
        ed.keys("l", " ", "s")
        check(ed.wait_for("saved song\\xFF.json"), "bytes: s saves", ed.text()[-300:])
        check(ed.finish() == 0, "bytes: q exits 0")
    check(songs(place) == [b"song\xff.json"], f"bytes: no other file made in {where}", songs(place))
    check(saved(existing) == [(0, 60, "normal", 1), (1, 60, "normal", 1)], "bytes: the very file named saved",
          saved(existing))

new = os.path.join(folder, b"new\xff.json")
for stale in (new, new + b".save"):
    if os.path.exists(stale):
        os.remove(stale)
with Editor(BOOP, os.fsdecode(new), 120, 30, args=("-D", "null")) as ed:
    check(ed.wait_for("step 1/16"), "bytes: a new file there opens", ed.shown())
    ed.keys(" ", "ctrl-s")
    check(ed.wait_for("saved new\\xFF.json"), "bytes: the new file saves", ed.text()[-300:])
    ed.keys("l", " ")
    ed.pump(0.3)
    os.kill(ed.pid, signal.SIGHUP)
    check(ed.wait_exit(15) == 0, "bytes: SIGHUP with unsaved work exits 0", ed.status)
check(saved(new) == [(0, 60, "normal", 1)], "bytes: the new file named saved", sorted(os.listdir(folder)))
kept = new + b".save"
check(len(saved(kept) or []) == 2, "bytes: SIGHUP keeps the work beside it",
      sorted(os.listdir(folder)))
check(sorted(os.listdir(folder)) == [b"new\xff.json", b"new\xff.json.save", b"song\xff.json"],
      "bytes: only the files named", sorted(os.listdir(folder)))

print(f"edit names tests: {check.failures} failed")
sys.exit(1 if check.failures else 0)
