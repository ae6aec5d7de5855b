#!/usr/bin/env python3
"""`boop train identify` answered with single keys in a pseudo-terminal: each trial's line fits
80 columns and names the keys, a key answers (no Enter) with right or wrong and the right
answer, r replays, and q ends the session with only the answered trials stored.

Usage: ear-keys.py BOOP WORKDIR. Exit 0 when every check passed; one line per check.
"""
import math
import os
import shutil
import re
import sqlite3
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from importlib import import_module

keys_module = import_module("train-keys")
Session = keys_module.Session

INTERVALS = ["m2", "M2", "m3", "M3", "P4", "TT", "P5", "m6", "M6", "m7", "M7", "P8"]
KEYS = "1234567890-="


def main():
    boop, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)  # a fresh history: the figures depend on it
    os.makedirs(work)
    db = os.path.join(work, "keys.sqlite")
    s = Session([boop, "train", "identify", "--trials", "10", "--seed", "5", "--duration", "0.1", "--db", db,
                 "-o", os.path.join(work, "keys.wav")])
    ok = True
    s.wait_for("1/10 ", 1)
    s.wait_for(":P8", 1)
    s.press("1")  # m2: right or wrong, the feedback names the interval played
    s.wait_for("2/10 ", 1)
    s.wait_for(":P8", 2)
    s.press("r")  # replay: the trial line again
    s.wait_for(":P8", 3)
    s.press("=")
    s.wait_for("3/10 ", 1)
    s.wait_for(":P8", 4)
    s.press("q")
    s.finish()
    lines = [l for l in s.text.replace("\r", "").split("\n") if l.strip()]
    trial_lines = [l for l in lines if re.match(r"\d+/10 ", l)]
    wide = [l for l in lines if len(l) > 80]
    feedback = [l for l in lines if l.strip().startswith(("right:", "wrong:"))]
    rows = sqlite3.connect(db).execute("SELECT trial, item, answer FROM ear_trials ORDER BY trial").fetchall()
    answers = [r[2] for r in rows]
    checks = [
        ("trial lines name the twelve keys within 80 columns", len(trial_lines) == 4 and not wide,
         f"{len(trial_lines)} trial lines, widest {max(len(l) for l in lines)} columns"),
        ("each answer is said right or wrong with the right answer", len(feedback) == 2
         and all(("wrong: it was" in f) or ("right:" in f) for f in feedback), " / ".join(f.strip() for f in feedback)),
        ("q ends: the two answered trials stored, the third not", answers == ["m2", "P8"] and s.proc.returncode == 0,
         f"stored {rows}, status {s.proc.returncode}"),
    ]
    # Degrees in solfège over a drone, and chords: the lines name their keys; one answer, then q.
    for args, needle, key, item in [(["degrees", "--solfege", "--drone", "--key", "F#"], "7:ti", "3", "3"),
                                    (["identify", "--chords"], "7:min7", "5", "dom7")]:
        path = os.path.join(work, args[0] + ".sqlite")
        d = Session([boop, "train"] + args + ["--trials", "5", "--seed", "2", "--duration", "0.1", "--db", path,
                                              "-o", os.path.join(work, args[0] + ".wav")])
        d.wait_for(needle, 1)
        d.press(key)
        d.wait_for(needle, 2)
        d.press("q")
        d.finish()
        lines = [l for l in d.text.replace("\r", "").split("\n") if l.strip()]
        rows = sqlite3.connect(path).execute("SELECT answer FROM ear_trials").fetchall()
        checks.append((f"{' '.join(args)}: keys named, one answer stored, q ends",
                       rows == [(item,)] and max(map(len, lines)) <= 80 and d.proc.returncode == 0,
                       f"{[l for l in lines if needle in l][0].strip()!r}; stored {rows}"))
    for name, good, figures in checks:
        print(("PASS  " if good else "FAIL  ") + "train identify keys: " + name + ": " + figures)
        ok &= good
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
