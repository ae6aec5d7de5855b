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
from edit_driver import Checks, Editor, notes, row_of  # noqa: E402

BOOP, WORK = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
os.makedirs(WORK, exist_ok=True)
os.chdir(WORK)
check = Checks()


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
    check(ed.pump_until(lambda e: "*" in e.status_line(), 10), "status marks unsaved changes with *", ed.status_line())
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
    ed.keys(">", "H")                           # 24 steps; H from step 3 stops at step 1
    check(ed.pump_until(lambda e: "step 1/24" in e.status_line(), 10), "length 24; H stops at the first step", ed.status_line())
    ed.keys("h")
    check(ed.pump_until(lambda e: "step 24/24" in e.status_line(), 10), "h wraps to the last step", ed.status_line())
    ed.keys("H", "H", "H", "l", "L", "L")       # 24 -> 12 -> 13 -> 17 -> 21
    ed.keys("L", "L")                           # stops at 24, never wraps to 1
    check(ed.pump_until(lambda e: "step 24/24" in e.status_line(), 10), "L stops at the last step", ed.status_line())
    ed.keys("H", "H", "H", "L", " ")            # 24 -> 12 -> 16 ... placed at step 16
    ed.keys("L", "L", " ")                      # and at step 24
    ed.keys("<")
    check(ed.wait_for("shorten to 16 steps?"), "shortening asks first", ed.text())
    ed.keys("n")
    check(ed.pump_until(lambda e: "step 24/24" in e.status_line(), 10), "n keeps the length", ed.status_line())
    ed.keys("ctrl-s", "ctrl-c")
    check(ed.wait_exit() == 0, "Ctrl-C quits when saved", ed.status)
data = json.load(open(path))
check(data["bpm"] == 125 and data["length"] == 24, "BPM and length saved", (data["bpm"], data["length"]))
check(notes(path, "melody") == [(0, 60, "normal", 1), (1, 60, "normal", 1), (15, 60, "normal", 1),
                                (23, 60, "normal", 1)],
      "undo/redo: two of three, then the new ones", notes(path, "melody"))

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
    check(ed.pump_until(lambda e: "step 5/16" in e.status_line(), 10), "wheel keeps the cursor", ed.status_line())
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
# A loop of symbolic links is not a new file (its save replaced the link): 66 as render says it.
loop = fresh("loop-a.json")
if os.path.islink(loop):
    os.remove(loop)
os.symlink("loop-a.json", loop)
with Editor(BOOP, loop, args=["-D", "null"]) as ed:
    status = ed.wait_exit()
    out = ed.raw.decode(errors="replace").strip().splitlines()
    check(status == 66 and len(out) == 1 and os.path.islink(loop), "a symlink loop: 66, one line, the link kept",
          (status, out))

# 9. The help overlay: q quits from it as from anywhere (asking first when there are changes).
path = fresh("help.json")
with Editor(BOOP, path, args=["-D", "null"]) as ed:
    ed.wait_for("step 1/16")
    ed.keys("?")
    ed.wait_for("undo / redo")
    ed.keys("q")
    check(ed.wait_exit() == 0, "q in the help quits", ed.status)
with Editor(BOOP, path, args=["-D", "null"]) as ed:
    ed.wait_for("step 1/16")
    ed.keys(" ", "?")
    ed.wait_for("undo / redo")
    ed.keys("q")
    check(ed.wait_for("save changes? (y/n/c)") and "undo / redo" not in ed.text(),
          "q in the help with changes closes it and asks to save", ed.text())
    ed.keys("n")
    check(ed.wait_exit() == 0, "then n quits", ed.status)

# 10. Reopening a file shows its notes where they lie (C7..E7 melody, far from C4).
path = fresh("high.json")
json.dump({"name": "high", "bpm": 120, "length": 16,
           "tracks": {"melody": [{"step": 2, "pitch": 96}, {"step": 5, "pitch": 100}],
                      "bass": [{"step": 0, "pitch": 28}]}}, open(path, "w"))
with Editor(BOOP, path, args=["-D", "null"]) as ed:
    ed.wait_for("step 1/16")
    c7, e7 = row_of(ed, "C7"), row_of(ed, "E7")
    check(c7 is not None and e7 is not None and ed.line(c7 - 1)[column_of(2) - 1] == "●"
          and ed.line(e7 - 1)[column_of(5) - 1] == "●", "melody notes at C7 and E7 are on screen", ed.text())
    check("C7" in ed.status_line(), "the cursor starts on the first note", ed.status_line())
    ed.keys("tab", "tab")
    e1 = row_of(ed, "E1")
    check(e1 is not None and ed.line(e1 - 1)[column_of(0) - 1] == "●", "bass note at E1 on screen", ed.text())
    ed.keys("q")
    ed.wait_exit()

# 11. Pitches outside the useful range are placed with a hint (G9 is far above the melody's
# lowpass, C-1 below hearing); inside the range there is none.
path = fresh("range.json")
with Editor(BOOP, path, args=["-D", "null"]) as ed:
    ed.wait_for("step 1/16")
    check("far above" not in ed.text() and "too" not in ed.status_line(), "C4: no hint", ed.text())
    ed.paste(b"k" * 67)
    check(ed.wait_for("G9 too high") and ed.wait_for("far above the melody's 2 kHz lowpass"),
          "G9: a hint on the message and status lines", ed.text())
    ed.keys(" ")
    check("far above" in ed.text() or "G9" in ed.status_line(), "G9 can still be placed", ed.text())
    ed.paste(b"j" * 127)
    check(ed.wait_for("C-1 too low") and ed.wait_for("below hearing"), "C-1: below hearing", ed.text())
    ed.keys("q", "n")
    ed.wait_exit()

# 12. The status line fits 80 columns and keeps a long file name whole.
path = fresh("a-rather-long-pattern-file-name-for-the-status-line.json")
with Editor(BOOP, path, args=["-D", "null"]) as ed:
    ed.wait_for("step 1/16")
    ed.keys(" ")
    # The placed note marks the song changed (*) on the next frame: waited for, not assumed drawn.
    ed.pump_until(lambda e: "status-line.json*" in e.status_line(), 10)
    line = ed.status_line()
    check("a-rather-long-pattern-file-name-for-the-status-line.json*" in line and "1/16" in line,
          "status: the whole name, then the shortened fields", line)
    check(len(line.rstrip()) <= 80 and b"\x1b[?7l" in ed.raw, "status: within 80 columns, autowrap off", line)
    ed.keys("q", "n")
    ed.wait_exit()

# 13. Files are never lost or silently replaced.
def read_only_folder(folder):
    """A folder nobody may create files in, root included (chattr +i where root; else mode 0555)."""
    os.makedirs(folder, exist_ok=True)
    if os.geteuid() == 0:
        return subprocess.run(["chattr", "+i", folder], capture_output=True).returncode == 0
    os.chmod(folder, 0o555)
    return True


def writable_again(folder):
    if os.geteuid() == 0:
        subprocess.run(["chattr", "-i", folder], capture_output=True)
    os.chmod(folder, 0o755)


state = os.path.join(WORK, "state")
env = {"XDG_STATE_HOME": state}
# 14a. A read-only folder: saving fails with the reason and asks for another path; Esc gives up,
# W asks again; SIGTERM puts the work in $XDG_STATE_HOME/pixelboop/, offered back next time.
folder = os.path.join(WORK, "ro")
if os.path.isdir(folder):
    writable_again(folder)
path = os.path.join(folder, "song.json")
os.makedirs(folder, exist_ok=True)
json.dump({"name": "song", "bpm": 120, "length": 16, "tracks": {"bass": [{"step": 0, "pitch": 36}]}},
          open(path, "w"))
other = fresh("elsewhere.json")
if os.path.isdir(state):
    subprocess.run(["rm", "-rf", state])
if not read_only_folder(folder):
    print("SKIP  read-only folder (chattr +i refused)")
else:
    try:
        with Editor(BOOP, path, args=["-D", "null"], env=env) as ed:
            ed.wait_for("step 1/16")
            ed.keys(" ", "s")
            check(ed.wait_for("not saved (") and ed.wait_for("save to: "), "save fails: the reason and a path prompt",
                  ed.line(ed.rows - 2))
            ed.keys("esc")
            check(ed.wait_for("not saved") and "*" in ed.status_line(), "Esc gives up; still unsaved", ed.text())
            ed.keys("W")
            check(ed.wait_for("save as: "), "W asks for a path", ed.line(ed.rows - 2))
            ed.keys("ctrl-u")
            ed.send(other.encode())
            ed.keys("enter")
            # The whole frame, message (the full path, as much as the row holds) and status line.
            said = ("saved " + other)[:ed.cols - 1]
            check(ed.pump_until(lambda e: said in e.text() and "elsewhere.json" in e.status_line()
                                and "*" not in e.status_line(), 30), "saved to the typed path; the editor now edits it",
                  ed.text())
            ed.keys("l", " ")
            os.kill(ed.pid, signal.SIGTERM)
            ed.wait_exit()
        check(notes(other, "melody") == [(0, 60, "normal", 1)] and notes(other, "bass") == [(0, 36, "normal", 1)],
              "the typed path holds the work", open(other).read() if os.path.exists(other) else "missing")
        check(notes(path, "melody") == [], "the read-only folder's file is untouched", open(path).read())
        # Now a SIGTERM in the read-only folder itself.
        with Editor(BOOP, path, args=["-D", "null"], env=env) as ed:
            ed.wait_for("step 1/16")
            ed.keys("l", "l", " ")
            os.kill(ed.pid, signal.SIGTERM)
            status = ed.wait_exit()
            said = ed.raw.decode(errors="replace")
        # The editors' locks live beside the copies when there is no XDG_RUNTIME_DIR (EditLock).
        # (Not `folder`: the finally below makes that one writable again; it must stay the read-only one.)
        kept = os.path.join(state, "pixelboop")
        saves = [f for f in os.listdir(kept) if f != "locks"] if os.path.isdir(kept) else []
        check(status == 0 and len(saves) == 1 and saves[0].endswith("song.json.save") and "%2F" in saves[0]
              and os.path.join(state, "pixelboop", saves[0]) in said,
              "SIGTERM: the work goes to $XDG_STATE_HOME/pixelboop/, and it says where", (status, saves, said[-300:]))
        with Editor(BOOP, path, args=["-D", "null"], env=env) as ed:
            check(ed.wait_for("restore unsaved changes of song.json? (y/n)"), "the next start finds it there", ed.text())
            ed.keys("y")
            check(ed.wait_for("restored unsaved changes"), "y restores it", ed.text())
            ed.keys("W", "ctrl-u")
            ed.send(other.encode())
            ed.keys("enter")
            check(ed.wait_for("exists: replace it? (y/n)"), "save as over another existing file asks", ed.text())
            ed.keys("y")
            check(ed.wait_for("saved"), "y replaces it", ed.text())
            ed.keys("q")
            ed.wait_exit()
        check(notes(other, "melody") == [(2, 60, "normal", 1)], "the restored work was saved", open(other).read())
        check(not [f for f in os.listdir(os.path.join(state, "pixelboop")) if f != "locks"],
              "saving removed the state copy")
    finally:
        writable_again(folder)

# 14b. A read-only file (0444 in a writable folder; root too) is replaced only when confirmed.
path = fresh("readonly.json")
json.dump({"name": "readonly", "bpm": 120, "length": 16, "tracks": {}}, open(path, "w"))
os.chmod(path, 0o444)
before = open(path).read()
with Editor(BOOP, path, args=["-D", "null"]) as ed:
    ed.wait_for("step 1/16")
    ed.keys(" ", "s")
    check(ed.wait_for("overwrite read-only file readonly.json? (y/n"), "saving a read-only file asks", ed.text())
    ed.keys("n")
    check(ed.wait_for("not saved") and open(path).read() == before, "n leaves it untouched", ed.text())
    ed.keys("q", "y")
    check(ed.wait_for("overwrite read-only file"), "quit, y: asks again", ed.text())
    ed.keys("y")
    check(ed.wait_exit() == 0, "y replaces it and quits", ed.status)
check(notes(path, "melody") == [(0, 60, "normal", 1)] and os.stat(path).st_mode & 0o777 == 0o444,
      "the read-only file has the work and keeps mode 0444", (open(path).read(), oct(os.stat(path).st_mode)))

# 14c. A symbolic link is saved through: the link stays, its target gets the edits.
target_dir = os.path.join(WORK, "real")
os.makedirs(target_dir, exist_ok=True)
target = os.path.join(target_dir, "target.json")
json.dump({"name": "target", "bpm": 120, "length": 16, "tracks": {}}, open(target, "w"))
link = fresh("link.json")
os.symlink("real/target.json", link)
with Editor(BOOP, link, args=["-D", "null"]) as ed:
    ed.wait_for("step 1/16")
    ed.keys(" ", "s")
    ed.wait_for("saved")
    ed.keys("q")
    ed.wait_exit()
check(os.path.islink(link) and os.readlink(link) == "real/target.json", "the link is still a link",
      os.path.islink(link))
check(notes(target, "melody") == [(0, 60, "normal", 1)], "the target has the edits", open(target).read())
check(not [f for f in os.listdir(WORK) + os.listdir(target_dir) if f.startswith(".boop-")], "no temporary file left")

# 14. `i`: MIDI step entry on and off, shown in the status line and listed by `?`; no key changes meaning.
path = fresh("midi.json")
with Editor(BOOP, path, args=["-D", "null"]) as ed:
    ed.wait_for("step 1/16")
    ed.keys("i")
    check(ed.wait_for("step entry") and "entry" in ed.status_line(), "i: step entry in the status line",
          ed.status_line())
    ed.keys("?")
    check(ed.wait_for("i  K             MIDI entry / piano"), "? lists i (and K)", ed.text())
    ed.keys("esc")
    ed.keys("i")
    check(ed.wait_for("step entry off"), "i again: off", ed.text())
    check("entry" not in ed.status_line(), "off: gone from the status line", ed.status_line())
    ed.keys(" ", "q", "n")
    check(ed.wait_exit() == 0, "quits", ed.status)

print(f"edit tests: {check.failures} failed")
sys.exit(1 if check.failures else 0)
