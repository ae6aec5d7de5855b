#!/usr/bin/env python3
"""`boop edit` building a song as a new user would, in a pseudo-terminal (scripts/edit_driver.py):
a new untitled.json, a two-pattern song made with block copy, paste and transpose, a chain entry's
repeats, an instrument change, mute and solo, a tempo change; every step undone one by one back to
the empty file and redone; saved and exported. Then `boop render` of the saved file gives the very
notes that were entered (an independent model, scripts/song_model.py, of what the keys typed) and
the same .mid as the editor's export. Also: untitled-2.json, horizontal scrolling to 64 steps, the
scale lock. Usage: edit-song-tests.py BOOP WORKDIR"""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from edit_driver import Checks, Editor  # noqa: E402
import song_model  # noqa: E402

BOOP, WORK = sys.argv[1], sys.argv[2]
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
os.chdir(WORK)
check = Checks()

# Each edit of the song, as keys; every one is exactly one undo step.
STEPS = [
    ("C4 at step 1", [" "]),
    ("E4 at step 2", ["l", "k", "k", "k", "k", " "]),
    ("G4 at step 3", ["l", "k", "k", "k", " "]),
    # v ... v marks steps 1-3, G4 down to C4; y copies; P pastes with its top-left at step 5, G4.
    ("block copied and pasted at step 5",
     ["v", "h", "h"] + ["j"] * 7 + ["v", "y"] + ["l"] * 4 + ["k"] * 7 + ["P"]),
    # Shift+arrows mark the pasted notes; t transposes them a semitone up (twice).
    ("pasted block transposed +1", ["esc", "shift-right", "shift-right"] + ["shift-down"] * 7 + ["t"]),
    ("pasted block transposed +1 again", ["t"]),
    ("kick at step 1", ["tab", "tab", "tab", "H", "H", " "]),
    ("kick at step 5", ["L", " "]),
    ("rhythm muted", ["m"]),
    ("melody soloed", ["tab", "M"]),
    ("a chords note (silenced by the solo)", ["tab", " "]),
    ("melody voice: sine", ["shift-tab", "I", "l"]),
    ("melody cutoff down a notch", ["j"] * 6 + ["h"]),
    ("pattern A cloned into B", ["esc", "esc", "c"]),
    # In B: the whole melody (steps 1-7, A4 down to C4) an octave down.
    ("B's melody an octave down", ["H", "H"] + ["k"] * 7 + ["v"] + ["l"] * 6 + ["j"] * 9 + ["v", "O"]),
    ("B repeats twice in the chain", ["esc", "g", "+"]),
    ("B at 140 BPM in the chain", ["b", "ctrl-u", "1", "4", "0", "enter"]),
    ("tempo +1 BPM", ["esc", "="]),
]

A_MELODY = [(0, 60), (1, 64), (2, 67), (4, 62), (5, 66), (6, 69)]
EXPECTED = {
    "version": 2, "name": "untitled", "bpm": 121,
    "instruments": {"melody": {"voice": "sine", "solo": True}, "rhythm": {"mute": True}},
    "patterns": {
        "A": {"length": 16, "tracks": {
            "melody": [{"step": s, "pitch": p} for s, p in A_MELODY],
            "chords": [{"step": 4, "pitch": 60}],
            "rhythm": [{"step": 0, "pitch": 36}, {"step": 4, "pitch": 36}]}},
        "B": {"length": 16, "tracks": {
            "melody": [{"step": s, "pitch": p - 12} for s, p in A_MELODY],
            "chords": [{"step": 4, "pitch": 60}],
            "rhythm": [{"step": 0, "pitch": 36}, {"step": 4, "pitch": 36}]}},
    },
    "song": [{"pattern": "A", "repeat": 1}, {"pattern": "B", "repeat": 2, "bpm": 140}],
}


def grid_notes(ed):
    """The note heads on screen: (step, row label)."""
    found = set()
    for line in ed.screen.display[2:ed.rows - 2]:
        label = line[:11].strip()
        for s in range((len(line) - 11) // 2):
            if line[11 + 2 * s] in "●o":
                found.add((s, label))
    return found


def track_notes(data, pattern, track):
    return sorted((n["step"], n["pitch"]) for n in data["patterns"][pattern]["tracks"].get(track, []))


# 1. No argument: a new untitled.json; the song built, undone to the empty file, redone, saved.
with Editor(BOOP, None, cols=120, argv=[BOOP, "edit", "-D", "null"]) as ed:
    check(ed.wait_for("untitled.json"), "no argument: untitled.json", ed.status_line())
    screens = []
    for what, keys in STEPS:
        ed.keys(*keys)
        screens.append(ed.text())
    ed.keys("{", *["k"] * 21)   # pattern A, the melody's cursor up to A4
    check(ed.wait_for("pattern A 1/2") and grid_notes(ed) == {(s, f"{n}") for s, n in
          [(0, "C4"), (1, "E4"), (2, "G4"), (4, "D4"), (5, "F#4"), (6, "A4")]},
          "pattern A's melody on screen as entered", sorted(grid_notes(ed)))
    check("121 BPM" in ed.status_line() and "[melody(s)]" in ed.text() and "rhythm(m)" in ed.text(),
          "tempo, solo and mute shown", ed.line(0) + " / " + ed.status_line())
    undone = 0
    for i in range(len(STEPS) + 3):
        ed.keys("u")
        if "nothing to undo" in ed.text():
            break
        undone += 1
    check(undone == len(STEPS), f"every step one undo step ({len(STEPS)})", undone)
    # No `*`: the song is the empty one it started as, field for field.
    check(not grid_notes(ed) and "pattern" not in ed.status_line() and "(m)" not in ed.line(0)
          and "120 BPM" in ed.status_line() and "untitled.json │" in ed.status_line(),
          "undone back to the empty file", ed.text())
    ed.keys("tab", "tab", "tab")
    check(not grid_notes(ed), "undone: no drums either", ed.text())
    ed.keys("tab")
    redone = 0
    for i in range(len(STEPS) + 3):
        ed.keys("ctrl-r")
        if "nothing to redo" in ed.text():
            break
        redone += 1
    check(redone == len(STEPS), "every step redone", redone)
    ed.keys("s")
    check(ed.wait_for("saved untitled.json"), "saved", ed.text())
    ed.keys("E", "ctrl-u", *"export.mid", "enter")
    check(ed.wait_for("exported export.mid"), "E exports a .mid", ed.text())
    ed.keys("E", "ctrl-u", *"export.wav", "enter")
    check(ed.wait_for("exported export.wav"), "E exports a .wav", ed.text())
    ed.keys("q")
    check(ed.wait_exit() == 0, "quits after saving", ed.status)

data = json.load(open("untitled.json"))
check(data.get("version") == 2 and list(data["patterns"]) == ["A", "B"], "saved as a version-2 song, A then B",
      data.get("version"))
for pattern in ("A", "B"):
    for track in ("melody", "chords", "rhythm"):
        got, want = track_notes(data, pattern, track), track_notes(EXPECTED, pattern, track)
        check(got == want, f"saved {pattern}.{track} as entered", f"{got} != {want}")
check(data.get("song") == EXPECTED["song"], "saved chain: A, B twice at 140 BPM", data.get("song"))
inst = data.get("instruments", {})
check(inst.get("melody", {}).get("voice") == "sine" and inst["melody"].get("solo") is True
      and inst["melody"].get("cutoff", 20000) < 20000 and inst.get("rhythm", {}).get("mute") is True,
      "saved instruments: sine, cutoff lowered, solo, mute", inst)
check(data.get("bpm") == 121, "saved tempo 121", data.get("bpm"))

# `boop render` of the saved file: the notes entered (an independent model), the editor's export.
r = subprocess.run([BOOP, "render", "untitled.json", "--output", "render.mid"], capture_output=True, text=True)
check(r.returncode == 0, "boop render of the saved song", r.stderr)
if r.returncode == 0:
    got, tempos = song_model.read_midi("render.mid")
    want_notes, want_tempos = song_model.model(EXPECTED)
    check(sorted((p, t) for _, p, t in got) == sorted((p, t) for _, p, _, t, _, _ in want_notes),
          "render's notes are the ones entered (melody only: solo; drums muted)",
          (len(got), len(want_notes)))
    check(sorted(set(tempos)) == sorted(set(want_tempos)), "render's tempo changes are the ones entered",
          (tempos, want_tempos))
    check(open("render.mid", "rb").read() == open("export.mid", "rb").read(), "render's .mid == the editor's export")
    subprocess.run([BOOP, "render", "untitled.json", "--output", "render.wav"], check=True)
    check(open("render.wav", "rb").read() == open("export.wav", "rb").read(), "render's .wav == the editor's export")

# 2. untitled.json exists: a new untitled-2.json, the existing file untouched.
before = open("untitled.json", "rb").read()
with Editor(BOOP, None, cols=120, argv=[BOOP, "edit", "-D", "null"]) as ed:
    check(ed.wait_for("untitled-2.json"), "untitled.json exists: untitled-2.json", ed.status_line())
    ed.keys("q")
    ed.wait_exit()
check(open("untitled.json", "rb").read() == before and not os.path.exists("untitled-2.json"),
      "the existing untitled.json untouched (nothing saved without a change)")

# 3. The saved song reopens; } goes to B; 64 steps scroll; a version-1 file stays version 1.
with Editor(BOOP, "untitled.json", cols=120, args=["-D", "null"]) as ed:
    check(ed.wait_for("pattern A 1/2"), "a version-2 song opens on its first pattern", ed.status_line())
    ed.keys("}")
    check(ed.wait_for("pattern B 2/2"), "} shows pattern B", ed.status_line())
    # The loop and the auditions on the song's instruments (a sine melody, the muted drums left out).
    ed.keys("p", "I", "l", "esc", "l", " ", "p")
    check(ed.wait_for("│ stopped │") and "instrument:" not in ed.text() and "audition:" not in ed.text(),
          "played and stopped on the song's instruments, changed while playing", ed.text())
    ed.keys("u", "u")
    ed.keys(">", ">", ">", ">", *["L"] * 16)
    check(ed.wait_for("step 64/64") and " 61" in ed.line(1), "64 steps, scrolled to the end", ed.line(1))
    ed.keys("u", "u", "u", "u", "q")
    check(ed.wait_exit() == 0, "undone to unchanged: quits without asking", ed.status)

v1 = {"name": "v1", "bpm": 100, "length": 8, "tracks": {"melody": [{"step": 0, "pitch": 60}]}}
json.dump(v1, open("v1.json", "w"))
with Editor(BOOP, "v1.json", args=["-D", "null", "--scale", "C major"]) as ed:
    ed.wait_for("v1.json")
    ed.keys("k")
    check(ed.wait_for("D4"), "scale lock: up from C4 is D4", ed.status_line())
    ed.keys(" ", "s", "q")
    ed.wait_exit()
saved = json.load(open("v1.json"))
check("version" not in saved and sorted((n["step"], n["pitch"]) for n in saved["tracks"]["melody"]) == [(0, 60), (0, 62)],
      "a version-1 file edited stays version 1", saved)

# 4. A song written elsewhere (notes out of step order, groove, a tempo change) opened, edited,
# undone and saved: unchanged in music: render gives the same .mid (the seed draws by note order) before and after.
ISSUE = {"version": 2, "name": "song", "bpm": 120, "swing": 50, "seed": 1,
         "instruments": {"melody": {"voice": "pluck", "attack": 0.005, "cutoff": 2000, "level": 0.8},
                         "rhythm": {"kit": "808", "level": 0.9}},
         "patterns": {"B": {"length": 12, "tracks": {}},
                      "A": {"length": 16, "swing": 60, "tracks": {
                          "melody": [{"step": 3, "pitch": 64, "ratchet": 3, "probability": 70},
                                     {"step": 0, "pitch": 60, "velocity": "accent", "length": 2,
                                      "probability": 50, "condition": "1:2"}],
                          "rhythm": [{"step": 4, "pitch": 38}, {"step": 0, "pitch": 36, "probability": 40}]}}},
         "song": [{"pattern": "A", "repeat": 4}, {"pattern": "B", "repeat": 1, "bpm": 140}]}
json.dump(ISSUE, open("outside.json", "w"))
subprocess.run([BOOP, "render", "outside.json", "--output", "outside-before.mid"], check=True)
with Editor(BOOP, "outside.json", cols=130, args=["-D", "null"]) as ed:
    ed.wait_for("outside.json")
    check(ed.wait_for("swing 60% │") and ed.wait_for("pattern A 2/2 │ accent len 2 50% 1:2"),
          "opens on the chain's first pattern (A, written second), on its first note (its groove and A's swing shown)",
          ed.status_line())
    ed.keys("s")   # unchanged: not written again (the file's own order and spacing stay)
    check(ed.wait_for("no changes to save"), "an unchanged song is not rewritten", ed.text())
    ed.keys(" ", "s")   # the accented C4 removed and saved, then put back and saved
    check(ed.wait_for("saved outside.json"), "a song from elsewhere saved", ed.text())
    ed.keys("u", "s")
    ed.pump(0.5)
    ed.keys("q")
    ed.wait_exit()
subprocess.run([BOOP, "render", "outside.json", "--output", "outside-after.mid"], check=True)
check(open("outside-before.mid", "rb").read() == open("outside-after.mid", "rb").read(),
      "opened and saved, it renders the same .mid (notes, probabilities, conditions, ratchets, tempo)")

# 5. The groove from the keys (each one undo step, shown for the note under the cursor) and the
# loop playing the chain (G); saved, the file renders exactly as the same song written by hand.
GROOVE_STEPS = [
    ("C4 at step 1", [" "]),
    ("probability 90", ["A"]), ("probability 80", ["A"]), ("probability 70", ["A"]),
    ("condition 1:2", ["z"]),
    ("E4 at step 2", ["l", "k", "k", "k", "k", " "]),
    ("ratchet 2", ["r"]), ("ratchet 3", ["r"]),
    ("swing 55", ["f"]), ("swing 60", ["f"]),
    ("pattern cloned into B", ["c"]),
    ("B: swing 65", ["f"]),
]
with Editor(BOOP, "groove.json", cols=120, args=["-D", "null"]) as ed:
    check(ed.wait_for("groove.json"), "a new groove.json", ed.status_line())
    for what, keys in GROOVE_STEPS[:5]:
        ed.keys(*keys)
    check(ed.wait_for("normal len 1 70% 1:2"), "the note's probability and condition in the status line",
          ed.status_line())
    for what, keys in GROOVE_STEPS[5:10]:
        ed.keys(*keys)
    check(ed.wait_for("swing 60%") and ed.wait_for("normal len 1 x3"), "the swing and the ratchet in the status line",
          ed.status_line())
    for what, keys in GROOVE_STEPS[10:]:
        ed.keys(*keys)
    check(ed.wait_for("pattern B 2/2") and ed.wait_for("swing 65%"), "B's own swing", ed.status_line())
    ed.keys("r")   # E4 is ratcheted already: r again makes it 4 hits, then u takes it back
    check(ed.wait_for("x4"), "r: four hits", ed.status_line())
    ed.keys("u")
    check(ed.wait_for("x3"), "u: three again", ed.status_line())
    ed.keys("?")
    check(ed.wait_for("loop: pattern / chain") and "swing +5 / -5" in ed.text() and "condition" in ed.text(),
          "? lists G and the groove keys", ed.text())
    ed.keys("esc")
    ed.keys("G")
    check(ed.wait_for("plays the song chain") and ed.wait_for("stopped (chain)"), "G: the loop plays the chain",
          ed.text())
    ed.keys("p")
    check(ed.wait_for("playing chain"), "p plays the chain; the status line says which entry",
          ed.status_line())
    ed.keys("g")
    check(ed.wait_for("playing") and ("◀ playing" in ed.text()), "the chain panel marks the entry heard", ed.text())
    ed.keys("esc", "p")
    check(ed.wait_for("stopped (chain)"), "p stops the chain", ed.status_line())
    ed.keys("G")
    check(ed.wait_for("plays the pattern") and "chain" not in ed.status_line(), "G again: the pattern loop",
          ed.status_line())
    undone = 0
    for i in range(len(GROOVE_STEPS) + 3):
        ed.keys("u")
        if "nothing to undo" in ed.text():
            break
        undone += 1
    check(undone == len(GROOVE_STEPS), f"every groove step one undo step ({len(GROOVE_STEPS)})", undone)
    for i in range(len(GROOVE_STEPS)):
        ed.keys("ctrl-r")
    ed.keys("s")
    check(ed.wait_for("saved groove.json"), "saved", ed.text())
    ed.keys("q")
    check(ed.wait_exit() == 0, "quits after saving", ed.status)

saved = json.load(open("groove.json"))
A_GROOVE = {"length": 16, "swing": 60, "tracks": {"melody": [
    {"step": 0, "pitch": 60, "probability": 70, "condition": "1:2"}, {"step": 1, "pitch": 64, "ratchet": 3}]}}
BY_HAND = {"version": 2, "name": "groove", "bpm": 120,
           "patterns": {"A": A_GROOVE, "B": dict(A_GROOVE, swing=65)},
           "song": [{"pattern": "A", "repeat": 1}, {"pattern": "B", "repeat": 1}]}
check(saved.get("patterns") == BY_HAND["patterns"], "the groove saved as entered", saved.get("patterns"))
json.dump(BY_HAND, open("by-hand.json", "w"))
for ext in ("wav", "mid"):
    for name in ("groove", "by-hand"):
        subprocess.run([BOOP, "render", f"{name}.json", "--loops", "3", "--output", f"{name}.{ext}"], check=True)
    check(open("groove." + ext, "rb").read() == open("by-hand." + ext, "rb").read(),
          f"render of the saved file == render of the song written by hand (.{ext}, 3 loops: conditions)")

# 6. The mouse marks a block: a drag with the right button held, from the first note to the last;
# t then transposes the three notes (one undo step); a right click (no drag) still removes.
from edit_driver import row_of  # noqa: E402


def column_of(step):
    return 11 + 2 * step + 1


with Editor(BOOP, "mouse-block.json", cols=100, rows=30, args=["-D", "null"]) as ed:
    ed.wait_for("step 1/16")
    ed.keys(" ", "l", " ", "l", " ", "l", "l", " ")   # C4 on steps 1, 2, 3 and 5
    ed.wait_for("step 5/16")
    c4 = row_of(ed, "C4")
    ed.drag([(column_of(0), c4), (column_of(1), c4), (column_of(2), c4)], button=2)
    ed.keys("t")
    want = {(0, "C#4"), (1, "C#4"), (2, "C#4"), (4, "C4")}
    ed.pump_until(lambda e: grid_notes(e) == want, 30)
    check(grid_notes(ed) == want,
          "a right-button drag marks steps 1-3 as a block; t transposes just those", sorted(grid_notes(ed)))
    ed.keys("esc")
    ed.click(column_of(4), c4, button=2)
    ed.keys("s")
    check(ed.wait_for("saved"), "saved", ed.text())
    ed.keys("q")
    ed.wait_exit()
saved = sorted((n["step"], n["pitch"]) for n in json.load(open("mouse-block.json"))["tracks"]["melody"])
check(saved == [(0, 61), (1, 61), (2, 61)], "saved: the block transposed, the right-clicked note removed", saved)

print(f"edit song tests: {check.failures} failed")
sys.exit(1 if check.failures else 0)
