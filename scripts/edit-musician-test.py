#!/usr/bin/env python3
"""A scripted musician builds a three-part song in `boop edit` alone and counts the keys it took.

    scripts/edit-musician-test.py BOOP WORKDIR

The song: intro, verse and chorus (named so), a pad on the chords, a sub bass, a pluck lead and the
808 kit; an Am-F pad in every part, closed hats on the eighths with an open hat at 50 %, a kick on
the beats, a snare on 2 and 4 with a ghost snare on the second of every two passes (2:2) and a
ratcheted hat from the verse on, a bass line from the verse and a lead in the chorus, and the
chorus at 128 BPM against the song's 120. The musician types as a tracker user would: the
instrument panel once, piano mode (`K`) for pitched lines and chords (`/`), piano mode's drum
lanes on the rhythm track, `c` to clone a part into the next and `g` for names and the tempo.

Checked: the saved file holds exactly that song (every note, velocity, length, condition,
probability, ratchet, instrument, name, tempo), and the count of keys. The goal: under 265 keys
(half of the 530 a first trial took). Exit 1 on a difference or over the goal.
"""
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from edit_driver import Checks, Editor  # noqa: E402

BOOP, WORK = sys.argv[1], sys.argv[2]
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
path = os.path.join(WORK, "song.json")
check = Checks()
GOAL = 265

# What the musician types, part by part: (what, keys). Piano mode's lower row is C4 up (z s x d c
# v g b h n j m ,), its upper row C5 up (q 2 w 3 e r 5 t 6 y 7 u i); `-` an octave down.
PLAN = [
    ("instruments: pluck lead, pad chords, sub bass, 808 kit (the panel ends on the rhythm track)",
     ["I"] + ["l"] * 6 + ["tab", "h", "h", "tab", "h", "tab", "l", "esc"]),
    ("intro: closed hats on the eighths, an open hat on the last", ["K", "0"] + ["d"] * 7 + ["c", "esc"]),
    ("intro: the pad, Am then F, 8 steps each", ["shift-tab", "shift-tab", "K", "-"] + ["]"] * 7 + ["0"] * 7
     + ["/", "n", "q", "e", "/", "/", "v", "n", "q", "/", "esc"]),
    ("intro: the open hat at 50 %", ["tab", "tab", "h", "h"] + ["A"] * 5),
    ("verse: the intro cloned", ["c"]),
    ("verse: kick on the beats, snare on 2 and 4", ["l", "l", "K", "0", "0", "0"] + ["z"] * 4 + [" ", "s", " ", "s", "esc"]),
    ("verse: a ghost snare at step 11, 2:2", ["L", "L", "l", "l", " ", "z", "z"]),
    ("verse: the open hat ratcheted", ["l", "l", "l", "l", "j", "j", "j", "r"]),
    ("verse: the sub bass, A A F G", ["l", "l", "shift-tab", "K", "-", "-", "]", "]", "]", "0", "0", "0",
                                      "n", "n", "v", "b", "esc"]),
    ("chorus: the verse cloned", ["c"]),
    ("chorus: the lead", ["shift-tab", "shift-tab", "K", "q", "e", "w", "q", "n", "q", "w", "e", "esc"]),
    ("names, and the chorus at 128 BPM", ["g", "k", "k", "r", *"intro", "enter", "j", "r", *"verse", "enter", "j", "r",
                                          *"chorus", "enter", "b", *"128", "enter", "esc"]),
    ("save and quit", ["s", "q"]),
]

# The song it should make.
AM, F = [57, 60, 64], [53, 57, 60]
PAD = [{"step": 0, "pitch": p, "length": 8} for p in AM] + [{"step": 8, "pitch": p, "length": 8} for p in F]
HATS = [{"step": s, "pitch": 42} for s in range(0, 14, 2)] + [{"step": 14, "pitch": 46, "probability": 50}]
KICKS = [{"step": s, "pitch": 36} for s in (0, 4, 8, 12)]
SNARES = [{"step": 4, "pitch": 38}, {"step": 10, "pitch": 38, "condition": "2:2"}, {"step": 12, "pitch": 38}]
BASS = [{"step": s, "pitch": p, "length": 4} for s, p in ((0, 45), (4, 45), (8, 41), (12, 43))]
LEAD = [{"step": s, "pitch": p} for s, p in enumerate([72, 76, 74, 72, 69, 72, 74, 76])]


def sort(notes):
    return sorted(notes, key=lambda n: (n["step"], n["pitch"]))


def ratcheted(hats):
    return [dict(n, ratchet=2) if n["step"] == 14 else n for n in hats]


WANT = {
    "intro": {"chords": sort(PAD), "rhythm": sort(HATS)},
    "verse": {"chords": sort(PAD), "rhythm": sort(ratcheted(HATS) + KICKS + SNARES), "bass": sort(BASS)},
}
WANT["chorus"] = dict(WANT["verse"], melody=sort(LEAD))


def normal(notes):
    """A file's notes with the defaults left out, as the plan writes them."""
    out = []
    for n in notes:
        n = {k: v for k, v in n.items() if (k, v) not in (("velocity", "normal"), ("length", 1), ("probability", 100),
                                                        ("ratchet", 1))}
        out.append(n)
    return sort(out)


count = 0
with Editor(BOOP, path) as ed:
    check(ed.wait_for("step 1/16"), "a new song in the editor", ed.text())
    for what, keys in PLAN:
        ed.keys(*keys)
        count += len(keys)
        print(f"  {len(keys):3d} keys: {what}   [{ed.status_line().strip()[:60]}]")
    check(ed.wait_exit() == 0, "saved and quit with 0", ed.text())
song = json.load(open(path))
got = {name: {kind: normal(notes) for kind, notes in p["tracks"].items()} for name, p in song["patterns"].items()}
for name in WANT:
    for kind in set(WANT[name]) | set(got.get(name, {})):
        w, g = WANT[name].get(kind, []), got.get(name, {}).get(kind, [])
        check(w == g, f"{name} {kind}: {len(w)} notes as played", f"want {w}\n   got {g}")
chain = [(e["pattern"], e.get("bpm")) for e in song["song"]]
check(chain == [("intro", None), ("verse", None), ("chorus", 128)], "the chain: intro, verse, chorus at 128 BPM", chain)
inst = song.get("instruments", {})
voices = {k: inst.get(k, {}).get("voice") for k in ("melody", "chords", "bass")}
check(voices == {"melody": "pluck", "chords": "pad", "bass": "sub"} and inst.get("rhythm", {}).get("kit") == "808",
      "the instruments: pluck lead, pad, sub bass, 808 kit", inst)
check(count < GOAL, f"the song took {count} keys (goal: under {GOAL}, half of a first trial's 530)", count)
sys.exit(1 if check.failures else 0)
