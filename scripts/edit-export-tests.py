#!/usr/bin/env python3
"""`E` (export) in `boop edit` runs beside the editor, as a user meets it with a song at the
limits (1,024 chain entries x 256 repeats: hours of audio, millions of MIDI notes): the status
line shows its progress, the grid takes keys meanwhile, Esc cancels it (no file, no temporary),
and quitting, SIGTERM and SIGHUP during it end the editor at once with the unsaved work in its
`.save` file and no temporary left. A small export still completes and matches `boop render`.

    scripts/edit-export-tests.py BOOP WORK
"""

import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from edit_driver import Checks, Editor  # noqa: E402

BOOP, WORK = sys.argv[1], sys.argv[2]
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
os.chdir(WORK)
check = Checks()
ENV = {"XDG_STATE_HOME": os.path.join(WORK, "state")}

pattern = {"length": 64, "tracks": {"melody": [{"step": s, "pitch": 60 + s % 12} for s in range(0, 64, 2)]}}
song = {"version": 2, "name": "Huge", "bpm": 120, "patterns": {"a": pattern},
        "song": [{"pattern": "a", "repeat": 256}] * 1024}
json.dump(song, open("huge.json", "w"))


def temporaries():
    return glob.glob(os.path.join(WORK, ".boop-*"))


def progress(ed):
    m = re.search(r"exporting \S+: (\d+\.\d)%", ed.text())
    return float(m.group(1)) if m else None


# Esc cancels; the grid answers keys while the export runs.
for name in ("huge.wav", "huge.mid"):
    with Editor(BOOP, "huge.json", env=ENV) as ed:
        check(ed.wait_for("huge.json"), f"{name}: the editor shows the song", ed.text())
        ed.keys("E", "ctrl-u", *name, "enter")
        check(ed.wait_for("exporting"), f"{name}: the status line says it is exporting", ed.text())
        check(ed.wait_for("(Esc cancels)"), f"{name}: and how to cancel", ed.text())
        ed.keys("?")  # the help opens while the export runs
        check(ed.wait_for("Esc"), f"{name}: the editor takes keys meanwhile", ed.text())
        ed.keys("esc")  # closes the help, and only that
        check(ed.wait_for("(Esc cancels)"), f"{name}: Esc with the help open closes the help", ed.text())
        if name.endswith(".wav"):
            seen = progress(ed)
            ed.pump_until(lambda e: (progress(e) or 0) > (seen or 0), 60)
            later = progress(ed)
            check(seen is not None and later is not None and later > seen,
                  f"{name}: the percentage moves on ({seen} -> {later} %)", ed.text())
        ed.keys("esc")
        check(ed.wait_for("export cancelled", timeout=30), f"{name}: Esc cancels it", ed.text())
        check(not os.path.exists(name) and not temporaries(), f"{name}: no file and no temporary",
              os.listdir(WORK))
        check(ed.finish(b"q") == 0, f"{name}: q quits afterwards", ed.text())

# Quitting, SIGTERM and SIGHUP during an export: the editor ends at once, the unsaved work kept.
for how in ("q", "TERM", "HUP"):
    with Editor(BOOP, "huge.json", env=ENV) as ed:
        ed.wait_for("huge.json")
        if how != "q":
            ed.keys(" ")  # an unsaved note: the .save must hold it
        ed.keys("E", "ctrl-u", *"big.wav", "enter")
        ed.wait_for("exporting")
        started = time.time()
        if how == "q":
            status = ed.finish(b"q", limit=30)
        else:
            os.kill(ed.pid, getattr(signal, "SIG" + how))
            status = ed.wait_exit(30)
        took = time.time() - started
        check(status == 0 and took < 10, f"{how} during an export: exit {status} after {took:.1f} s", ed.text())
        check(not os.path.exists("big.wav") and not temporaries(), f"{how}: no file and no temporary",
              os.listdir(WORK))
        if how != "q":
            check(b"unsaved changes written to" in ed.raw, f"{how}: the unsaved note went to the .save file")
    for leftover in glob.glob(os.path.join(WORK, "state", "**", "*.save"), recursive=True) + glob.glob("*.save"):
        os.remove(leftover)

# A small export completes and is what `boop render` writes.
shutil.copy(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "song.json"), "small.json")
with Editor(BOOP, "small.json", env=ENV) as ed:
    ed.wait_for("small.json")
    ed.keys("E", "ctrl-u", *"small.wav", "enter")
    check(ed.wait_for("exported small.wav", timeout=60), "a small export completes", ed.text())
    ed.finish(b"q")
subprocess.run([BOOP, "render", "small.json", "-o", "render.wav", "--sample-format", "s16"], check=True)
subprocess.run([BOOP, "render", "small.json", "-o", "render-f32.wav"], check=True)
exported = open("small.wav", "rb").read()
check(exported in (open("render.wav", "rb").read(), open("render-f32.wav", "rb").read()),
      "the export is the bytes `boop render` writes")

print(f"edit export checks: {check.failures} failure(s)")
sys.exit(1 if check.failures else 0)
