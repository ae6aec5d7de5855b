#!/usr/bin/env python3
"""Two editors on one file, and an export over an existing file, as a user meets them in two
terminals: the second editor is told the file is open in the first (naming its process); a save
beside another editor asks first; a save over a file changed on disk since it was read offers
overwrite, reload (an undo step) and save elsewhere, so neither editor's work is lost unasked;
an export to a name that exists asks before replacing it, and Esc at the export line says "not
exported". A version-1 file saved unchanged is not rewritten; one that needs version 2 (a mute) is
saved as a song with the status line saying why, and as a pattern again once it no longer does.
A line that asks for text opens with the current value selected: typing replaces it. Every
General MIDI drum key has a lane: a rim shot (37) or a triangle (81) from a file is seen and deleted.

    scripts/edit-files-tests.py BOOP WORK
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from edit_driver import Editor, fresh_work  # noqa: E402

BOOP, WORK, check, ENV = fresh_work(sys.argv)
ENV["XDG_RUNTIME_DIR"] = ""  # the locks in WORK's state folder, not the user's runtime folder


def melody(path):
    data = json.load(open(path))
    tracks = data["tracks"] if "tracks" in data else next(iter(data["patterns"].values()))["tracks"]
    return sorted((n["step"], n["pitch"]) for n in tracks.get("melody", []))


json.dump({"name": "Two", "bpm": 120, "length": 16, "tracks": {"melody": [{"step": 0, "pitch": 60}]}},
          open("two.json", "w"))

with Editor(BOOP, "two.json", env=ENV) as a:
    check(a.wait_for("two.json"), "A: the editor opens the file", a.text())
    with Editor(BOOP, "two.json", env=ENV) as b:
        check(b.wait_for("is open in process"), "B: told the file is open in another editor", b.text())
        comm = os.path.basename(BOOP)[:15]  # the kernel's name for the process (/proc/PID/comm)
        check(f"({comm}) too" in b.text(), "B: the other editor's process is named", b.text())
        b.keys("right", "right", " ", "s")
        check(b.wait_for("save anyway? (y/n"), "B: a save beside another editor asks first", b.text())
        b.keys("y")
        check(b.wait_for("saved"), "B: y saves", b.text())
        check(melody("two.json") == [(0, 60), (2, 60)], "B: its note is in the file", melody("two.json"))
        b.finish()
    a.keys("right", "right", "right", "right", " ", "s")
    check(a.wait_for("changed on disk"), "A: a save over B's save asks (changed on disk)", a.text())
    check(melody("two.json") == [(0, 60), (2, 60)], "A: nothing was written before the answer",
          melody("two.json"))
    a.keys("r")
    check(a.wait_for("reloaded two.json"), "A: r reloads the file", a.text())
    a.keys("u")
    a.pump(0.3)
    a.keys("s")
    check(a.wait_for("saved"), "A: after u (A's version back) a save writes without asking again", a.text())
    check(melody("two.json") == [(0, 60), (4, 60)], "A: u brought A's own version back", melody("two.json"))
    a.finish()

# The lock ends with its editor: a later editor is told nothing and saves without a question.
with Editor(BOOP, "two.json", env=ENV) as c:
    check(c.wait_for("two.json"), "C: opens the file", c.text())
    check("is open in" not in c.text(), "C: no other editor named once the first has quit", c.text())
    c.keys("right", " ", "s")
    check(c.wait_for("saved"), "C: saves without a question", c.text())
    c.finish()

# Another program rewrites the file while it is open: o overwrites, W offers another name.
with Editor(BOOP, "two.json", env=ENV) as d:
    check(d.wait_for("two.json"), "D: opens the file", d.text())
    data = json.load(open("two.json"))
    json.dump(data, open("two.json", "w"), indent=1)
    d.keys("right", "right", "right", "right", "right", "right", " ", "s")
    check(d.wait_for("changed on disk"), "D: an edit in place by another program is seen", d.text())
    d.keys("W")
    check(d.wait_for("save as"), "D: W opens the save-as line", d.text())
    d.keys("ctrl-u", *"other.json", "enter")
    check(d.wait_for("saved other.json"), "D: saved elsewhere", d.text())
    check(os.path.exists("other.json"), "D: other.json written")
    d.finish()

# Export onto an existing file asks, as Save As does; n leaves the file as it was.
open("take.wav", "wb").write(b"not yet a wav")
with Editor(BOOP, "two.json", env=ENV) as e:
    check(e.wait_for("two.json"), "E: opens the file", e.text())
    e.keys("E", "ctrl-u", *"take.wav", "enter")
    check(e.wait_for("take.wav exists: replace it with the export? (y/n)"), "E: export over a file asks", e.text())
    e.keys("n")
    check(e.wait_for("not exported"), "E: n says not exported", e.text())
    check(open("take.wav", "rb").read() == b"not yet a wav", "E: n leaves the file as it was")
    e.keys("E", "esc")
    check(e.wait_for("not exported"), "E: Esc at the export line says not exported", e.text())
    e.keys("E", "ctrl-u", *"take.wav", "enter")
    check(e.wait_for("replace it with the export"), "E: asked again", e.text())
    e.keys("y")
    check(e.wait_for("exported take.wav"), "E: y exports", e.text())
    check(open("take.wav", "rb").read(4) == b"RIFF", "E: take.wav is now the export")
    e.finish()

# An unchanged version-1 file is left byte for byte; a mute makes it a song, and says so.
original = '{"version": 1, "bpm": 100, "name": "V1",\n  "length": 16, "tracks": {"melody": [{"pitch": 62, "step": 1}]}}\n'
open("v1.json", "w").write(original)
with Editor(BOOP, "v1.json", env=ENV) as f:
    check(f.wait_for("v1.json"), "F: opens a version-1 file", f.text())
    f.keys("s")
    check(f.wait_for("no changes to save"), "F: s on an unchanged file says so", f.text())
    check(open("v1.json").read() == original, "F: and leaves the file byte for byte")
    f.keys("m", "s")
    check(f.wait_for("saved v1.json as a version-2 song (a mute, solo or instrument setting needs it)"),
          "F: a mute saves a version-2 song and says why", f.text())
    check(json.load(open("v1.json")).get("version") == 2, "F: the file is a version-2 song")
    f.keys("m", "s")
    check(f.wait_for("saved v1.json as a version-1 pattern again"), "F: unmuted, it is a pattern again, said",
          f.text())
    check("patterns" not in json.load(open("v1.json")), "F: the file is a version-1 pattern again")
    # S opens with the scale lock's value selected: typing replaces it.
    f.keys("S", *"C major", "enter")
    check(f.wait_for("scale lock: C major"), "F: S sets a scale", f.text())
    f.keys("S")
    check(f.wait_for("typing replaces it"), "F: S opens with the current scale selected", f.text())
    f.keys(*"A minor", "enter")
    check(f.wait_for("scale lock: A minor"), "F: typing replaced it (not \"C majorA minor\")", f.text())
    # N types any length: a 12-step pattern (a bar of 3/4 in sixteenths).
    f.keys("N", *"12", "enter")
    check(f.wait_for("/12 "), "F: N 12 makes a 12-step pattern", f.status_line())
    f.keys("N", *"65", "enter")
    check(f.wait_for("length: expected a whole number of steps, 1...64"), "F: N 65 is refused", f.text())
    f.finish()

# Drum notes on keys beyond the ten main lanes are shown and can be edited (deleted here).
json.dump({"name": "Drums", "bpm": 120, "length": 16,
           "tracks": {"rhythm": [{"step": 0, "pitch": 36}, {"step": 2, "pitch": 37}, {"step": 4, "pitch": 81}]}},
          open("drums.json", "w"))
with Editor(BOOP, "drums.json", env=ENV) as g:
    check(g.wait_for("drums.json"), "G: opens a rhythm with a rim shot and a triangle", g.text())
    g.keys("tab", "tab", "tab")
    check(g.wait_for("[rhythm]"), "G: the rhythm track", g.text())
    check(any(line.startswith("rim ") and "●" in line for line in g.screen.display), "G: the rim shot's lane shows it",
          g.text())
    g.keys(*(["down"] * 46))
    g.pump(0.5)
    check(any(line.startswith("triangle ") for line in g.screen.display), "G: the lanes scroll down to key 81",
          g.text())
    g.keys("right", "right", "right", "right", " ", "s")
    check(g.wait_for("saved drums.json"), "G: saved", g.text())
    kept = sorted((n["step"], n["pitch"]) for n in json.load(open("drums.json"))["tracks"]["rhythm"])
    check(kept == [(0, 36), (2, 37)], "G: the triangle was deleted, the rest kept", kept)
    g.finish()

print(f"{check.failures} failure(s)")
sys.exit(1 if check.failures else 0)
