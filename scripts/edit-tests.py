#!/usr/bin/env python3
"""`boop edit` as a user meets it: driven in a pseudo-terminal through a terminal emulator (pyte).

    scripts/edit-tests.py BOOP WORKDIR

Notes typed on several tracks with velocities and lengths, saved and compared note by note;
undo/redo; mouse clicks, a drag (one undo step) and a right click; quit with and without saving;
Ctrl-C; SIGTERM leaving FILE.save and a restored terminal, offered back on the next start; a
trap (SIGILL, what a Swift runtime trap raises) restoring the terminal; resize to too small and
back; NO_COLOR; an invalid file giving 65 without touching the terminal. Runs without a sound
device (-D null is ALSA's null PCM; a missing device edits silently).
"""

import json
import os
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from edit_driver import Editor  # noqa: E402

BOOP, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)
failures = 0


def check(ok, what, detail=""):
    global failures
    print(("PASS  " if ok else "FAIL  ") + what + ("" if ok else f": {detail}"))
    if not ok:
        failures += 1


def notes(path, track):
    data = json.load(open(path))
    return sorted((n["step"], n["pitch"], n.get("velocity", "normal"), n.get("length", 1))
                  for n in data.get("tracks", {}).get(track, []))


def row_of(ed, label):
    """1-based screen row of the grid row labelled `label` (C4, kick, ...)."""
    for i, line in enumerate(ed.screen.display):
        if line.startswith(label + " "):
            return i + 1
    return None


def column_of(step):
    return 11 + 2 * step + 1  # 1-based column of a step's cell


def fresh(name):
    path = os.path.join(WORK, name)
    for p in (path, path + ".save"):
        if os.path.exists(p):
            os.remove(p)
    return path


# 1. Keys on several tracks, velocities, lengths, save; the JSON note by note.
path = fresh("keys.json")
with Editor(BOOP, path, args=["-D", "null"]) as ed:
    check(ed.wait_for("step 1/16"), "opens a new pattern at step 1/16 on C4", ed.text())
    check("melody" in ed.status_line() and "C4" in ed.status_line(), "status: track and pitch", ed.status_line())
    ed.keys(" ")                                  # melody C4 step 1, normal
    ed.keys("l", "l", "k", "k", "2", " ", "]", "]")  # melody D4 step 3, accent, length 3
    ed.keys("L", "3", "enter")                    # melody D4 step 7, sustain
    ed.keys("tab", "j", " ")                      # chords C#4 step 7 (the cursor row per track), sustain
    ed.keys("tab", "tab", "h", "h", "h", "h", "h", "h", "1", " ", "down", "down", "down", " ")  # rhythm
    check("*" in ed.status_line(), "status marks unsaved changes with *", ed.status_line())
    ed.keys("s")
    check(ed.wait_for("saved keys.json"), "s saves", ed.text())
    check("*" not in ed.status_line(), "saved: no *", ed.status_line())
    ed.keys("q")
    check(ed.wait_exit() == 0, "q quits with 0 when saved", ed.status)
    ok, modes = ed.restored()
    check(ok, "terminal restored after q", modes)
check(notes(path, "melody") == [(0, 60, "normal", 1), (2, 62, "accent", 3), (6, 62, "sustain", 1)],
      "melody notes, velocities and lengths", notes(path, "melody"))
check(notes(path, "chords") == [(6, 59, "sustain", 1)], "chords note", notes(path, "chords"))
check(notes(path, "rhythm") == [(0, 36, "normal", 1), (0, 42, "normal", 1)], "rhythm: kick and closed hat",
      notes(path, "rhythm"))
check(subprocess.run([BOOP, "render", path, "-o", os.path.join(WORK, "keys.wav"), "-q"]).returncode == 0,
      "the saved file renders")

# 2. Undo / redo, BPM, length with the shorten question; Ctrl-C asks like q.
path = fresh("undo.json")
with Editor(BOOP, path, args=["-D", "null"]) as ed:
    ed.wait_for("step 1/16")
    ed.keys(" ", "l", " ", "l", " ")           # three notes
    ed.keys("u", "u")                           # two undone
    ed.keys("ctrl-r")                           # one redone
    ed.keys("+", "+", "-")                      # 125 BPM
    ed.keys(">", "H", "H", "H", "H", "H", "H", "H", "H", " ")  # 24 steps; from step 3 back 32: step 19
    check("step 19/24" in ed.status_line(), "length 24, the cursor wraps", ed.status_line())
    ed.keys("<")
    check(ed.wait_for("shorten to 16 steps?"), "shortening asks first", ed.text())
    ed.keys("n")
    check("step 19/24" in ed.status_line(), "n keeps the length", ed.status_line())
    ed.keys("ctrl-s", "ctrl-c")
    check(ed.wait_exit() == 0, "Ctrl-C quits when saved", ed.status)
data = json.load(open(path))
check(data["bpm"] == 125 and data["length"] == 24, "BPM and length saved", (data["bpm"], data["length"]))
check(notes(path, "melody") == [(0, 60, "normal", 1), (1, 60, "normal", 1), (18, 60, "normal", 1)],
      "undo/redo: two of three, then the new one", notes(path, "melody"))

# 3. Mouse: click places (and moves the cursor), a drag paints (one undo step), right click removes.
path = fresh("mouse.json")
with Editor(BOOP, path, args=["-D", "null"], cols=100, rows=30) as ed:
    ed.wait_for("step 1/16")
    e4 = row_of(ed, "E4")
    ed.click(column_of(4), e4)
    check("step 5/16" in ed.status_line() and "E4" in ed.status_line(), "a click moves the cursor", ed.status_line())
    g4 = row_of(ed, "G4")
    ed.drag([(column_of(8), g4), (column_of(9), g4), (column_of(10), g4), (column_of(11), g4)])
    ed.keys("s")
    ed.wait_for("saved")
    saved = notes(path, "melody")
    check(saved == [(4, 64, "normal", 1)] + [(s, 67, "normal", 1) for s in range(8, 12)],
          "click and drag place notes", saved)
    ed.keys("u", "s")
    ed.wait_for("saved")
    check(notes(path, "melody") == [(4, 64, "normal", 1)], "one undo removes the whole drag", notes(path, "melody"))
    ed.click(column_of(4), e4, button=2)
    ed.keys("s")
    ed.wait_for("saved")
    check(notes(path, "melody") == [], "right click removes", notes(path, "melody"))
    ed.send(b"\x1b[<65;20;10M")  # the wheel scrolls without moving the cursor
    check("step 5/16" in ed.status_line(), "wheel keeps the cursor", ed.status_line())
    ed.keys("q")
    ed.wait_exit()

# 4. Quit with unsaved changes: c stays, n leaves the file as it was, y saves.
path = fresh("quit.json")
json.dump({"name": "quit", "bpm": 100, "length": 8, "tracks": {"bass": [{"step": 0, "pitch": 36}]}}, open(path, "w"))
before = open(path).read()
with Editor(BOOP, path, args=["-D", "null"]) as ed:
    ed.wait_for("step 1/8")
    ed.keys(" ", "q")
    check(ed.wait_for("save changes? (y/n/c)"), "q with changes asks", ed.text())
    ed.keys("c")
    check(ed.pump(0.3) and "step 1/8" in ed.status_line(), "c goes back to editing")
    ed.keys("q", "n")
    check(ed.wait_exit() == 0, "n quits with 0", ed.status)
check(open(path).read() == before, "n leaves the file untouched")
with Editor(BOOP, path, args=["-D", "null"]) as ed:
    ed.wait_for("step 1/8")
    ed.keys(" ", "q", "y")
    check(ed.wait_exit() == 0, "y saves and quits", ed.status)
check(notes(path, "melody") == [(0, 60, "normal", 1)] and notes(path, "bass") == [(0, 36, "normal", 1)],
      "y saved the change and kept the rest", open(path).read())

# 5. SIGTERM with unsaved changes: FILE.save, a line on stderr, the terminal restored; offered back.
path = fresh("term.json")
with Editor(BOOP, path, args=["-D", "null"]) as ed:
    ed.wait_for("step 1/16")
    ed.keys(" ", "l", " ")
    os.kill(ed.pid, signal.SIGTERM)
    status = ed.wait_exit()
    ok, modes = ed.restored()
    check(status == 0 and ok, "SIGTERM: exit 0, terminal restored", (status, modes))
    check(b"unsaved changes written to" in ed.raw, "SIGTERM: says where the work went")
check(os.path.exists(path + ".save") and not os.path.exists(path), "SIGTERM wrote FILE.save (and not FILE)")
with Editor(BOOP, path, args=["-D", "null"]) as ed:
    check(ed.wait_for("restore them? (y/n)"), "the next start offers the .save file", ed.text())
    ed.keys("y")
    check(ed.wait_for("restored unsaved changes"), "y restores", ed.text())
    ed.keys("s", "q")
    check(ed.wait_exit() == 0, "saved and quit after restoring", ed.status)
check(notes(path, "melody") == [(0, 60, "normal", 1), (1, 60, "normal", 1)], "the restored work was saved",
      notes(path, "melody"))
check(not os.path.exists(path + ".save"), "saving removes the .save file")

# 6. SIGHUP (the terminal closed) keeps the work too; SIGILL (a Swift runtime trap) restores.
path = fresh("hup.json")
with Editor(BOOP, path, args=["-D", "null"]) as ed:
    ed.wait_for("step 1/16")
    ed.keys(" ")
    os.kill(ed.pid, signal.SIGHUP)
    ed.wait_exit()
    check(ed.restored()[0], "SIGHUP: terminal restored", ed.restored()[1])
check(os.path.exists(path + ".save"), "SIGHUP wrote FILE.save")
path = fresh("trap.json")
with Editor(BOOP, path, args=["-D", "null"]) as ed:
    ed.wait_for("step 1/16")
    os.kill(ed.pid, signal.SIGILL)
    status = ed.wait_exit()
    ok, modes = ed.restored()
    check(status == -signal.SIGILL and ok, "a trap (SIGILL) still restores the terminal", (status, modes))

# 7. Resize: too small gets one line, back to size redraws; help; NO_COLOR draws ASCII.
path = fresh("size.json")
with Editor(BOOP, path, args=["-D", "null"], env={"NO_COLOR": "1"}) as ed:
    ed.wait_for("step 1/16")
    ed.keys(" ")
    c4 = ed.line(row_of(ed, "C4") - 1)
    check(c4.startswith("C4         o"), "NO_COLOR: ASCII glyphs", c4)
    check(b"\x1b[38;" not in ed.raw, "NO_COLOR: no colour sequences")
    ed.resize(60, 20)
    check(ed.wait_for("terminal too small (need 80×24)"), "too small: one line", ed.text())
    ed.resize(120, 40)
    check(ed.wait_for("step 1/16") and row_of(ed, "C4") is not None, "resized back: the grid again", ed.text())
    ed.keys("?")
    check(ed.wait_for("undo / redo"), "? shows the keys", ed.text())
    ed.keys("esc", "q", "n")
    ed.wait_exit()

# 8. An invalid file: 65, one line, the terminal untouched.
path = fresh("bad.json")
open(path, "w").write('{"bpm": 1000}')
with Editor(BOOP, path, args=["-D", "null"]) as ed:
    status = ed.wait_exit()
    out = ed.raw.decode(errors="replace").strip().splitlines()
    check(status == 65 and len(out) == 1 and "bpm" in out[0] and b"\x1b[?1049h" not in ed.raw,
          "invalid file: 65, one line, no screen switch", (status, out))

print(f"edit tests: {failures} failed")
sys.exit(1 if failures else 0)
