#!/usr/bin/env python3
"""`boop train identify` and `boop train degrees` answered by simulated listeners through --json:
a listener who confuses known pairs (M3 with P4 and m6 with M6; degrees 3 with 4 and 6 with 7)
must be asked those pairs more often than uniform drawing would (the spaced-repetition
scheduler), a perfect listener scores 100 % and a guessing one near chance. With --keys, the
same in a pseudo-terminal with single keys: q ends with the trial in progress not stored.

Usage: ear-sim.py BOOP WORKDIR [--keys]. Exit 0 when every check passed; one line per check
with its figures.
"""
import json
import math
import os
import shutil
import random
import sqlite3
import subprocess
import sys

INTERVALS = ["m2", "M2", "m3", "M3", "P4", "TT", "P5", "m6", "M6", "m7", "M7", "P8"]
CHORDS = {(0, 4, 7): "maj", (0, 3, 7): "min", (0, 3, 6): "dim", (0, 4, 8): "aug", (0, 4, 7, 10): "dom7",
          (0, 4, 7, 11): "maj7", (0, 3, 7, 10): "min7"}
MAJOR = [0, 2, 4, 5, 7, 9, 11]
SOLFEGE = ["do", "re", "mi", "fa", "sol", "la", "ti"]


def semis(a, b):
    return round(12 * math.log2(b / a))


def truth(trial):
    """What was played, heard from the frequencies alone."""
    phrases = trial["phrases_hz"]
    if trial["drill"] == "intervals":
        a, b = phrases[0]
        return INTERVALS[abs(semis(a, b)) - 1]
    if trial["drill"] == "chords":
        notes = phrases[0]
        return CHORDS[tuple(semis(notes[0], f) for f in notes)]
    tonic, note = phrases[0][0], phrases[-1][-1]
    if len(phrases[0]) == 2 and len(phrases) == 2:  # the drone: tonic an octave below, held under the note
        tonic *= 2
    return str(MAJOR.index(semis(tonic, note) % 12) + 1)


def run(boop, args, listener, rng):
    """One session; returns [(asked, answered)] and the summary."""
    proc = subprocess.Popen([boop] + args + ["--json"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, bufsize=1)
    asked = []
    while True:
        line = proc.stdout.readline()
        if not line:
            raise SystemExit(f"FAIL  the session ended early: {proc.stderr.read()[:300]}")
        obj = json.loads(line)
        if "trial" not in obj:
            proc.wait()
            return asked, obj
        item = truth(obj)
        answer = listener(item, obj["choices"], rng)
        asked.append((item, answer))
        proc.stdin.write(answer + "\n")
        proc.stdin.flush()


def confuser(pairs, p):
    swap = {}
    for a, b in pairs:
        swap[a], swap[b] = b, a

    def listen(item, choices, rng):
        return swap[item] if item in swap and rng.random() < p else item
    return listen


def perfect(item, choices, rng):
    return item


def guesser(item, choices, rng):
    return rng.choice(choices)


def check(name, ok, figures):
    print(("PASS  " if ok else "FAIL  ") + name + ": " + figures)
    return ok


def confused_share(boop, work, exercise, pairs, items, sessions=4, trials=60):
    db = os.path.join(work, f"{exercise[-1]}-confuser.sqlite")
    rng = random.Random(7)
    all_asked = []
    for k in range(sessions):
        asked, _ = run(boop, exercise + ["--trials", str(trials), "--seed", str(100 + k), "--db", db, "-o",
                                         os.path.join(work, "c.wav")], confuser(pairs, 0.5), rng)
        all_asked += asked
    confused = {x for pair in pairs for x in pair}
    share = sum(1 for a, _ in all_asked if a in confused) / len(all_asked)
    uniform = len(confused) / len(items)
    later = all_asked[len(all_asked) // 2:]
    late_share = sum(1 for a, _ in later if a in confused) / len(later)
    stored = sqlite3.connect(db).execute("SELECT count(*) FROM ear_trials").fetchone()[0]
    return share, late_share, uniform, stored, len(all_asked)


def main():
    boop, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)  # a fresh history: the figures depend on it
    os.makedirs(work)
    ok = True
    for exercise, pairs, items in [
        (["train", "identify"], [("M3", "P4"), ("m6", "M6")], INTERVALS),
        (["train", "degrees"], [("3", "4"), ("6", "7")], [str(i) for i in range(1, 8)]),
    ]:
        name = " ".join(exercise[1:])
        share, late, uniform, stored, n = confused_share(boop, work, exercise, pairs, items)
        per_item = (share / (uniform * len(items))) / ((1 - share) / ((1 - uniform) * len(items)))
        ok &= check(f"{name}: confused pairs asked more often", share >= 1.5 * uniform and stored == n,
                    f"{100 * share:.1f} % of {n} trials on the confused items ({100 * late:.1f} % in the second "
                    f"half), uniform {100 * uniform:.1f} %: each asked {per_item:.1f}x as often as another; "
                    f"{stored} stored")
        for label, listener, low, high in [("perfect", perfect, 1.0, 1.0),
                                           ("guessing", guesser, 0.0, 0.0)]:
            accs = []
            for k in range(3):
                db = os.path.join(work, f"{name}-{label}-{k}.sqlite".replace(" ", "-"))
                _, summary = run(boop, exercise + ["--trials", "60", "--seed", str(k), "--db", db, "-o",
                                                   os.path.join(work, "p.wav")], listener, random.Random(k))
                accs.append(summary["accuracy"])
            acc = sum(accs) / len(accs)
            chance = 1 / len(items)
            good = acc == 1.0 if label == "perfect" else abs(acc - chance) < 0.08
            ok &= check(f"{name}: a {label} listener", good,
                        f"{100 * acc:.1f} % over 3 x 60 trials (chance {100 * chance:.1f} %)")
    # Chords, and solfège answers with a drone in a fixed key.
    _, summary = run(boop, ["train", "identify", "--chords", "--trials", "20", "--seed", "3", "--db",
                            os.path.join(work, "chords.sqlite"), "-o", os.path.join(work, "ch.wav")], perfect,
                     random.Random(0))
    ok &= check("train identify --chords: a perfect listener", summary["accuracy"] == 1.0, json.dumps(summary))

    def solfege(item, choices, rng):
        return SOLFEGE[int(item) - 1]
    _, summary = run(boop, ["train", "degrees", "--drone", "--solfege", "--key", "Eb", "--trials", "20", "--seed",
                            "4", "--db", os.path.join(work, "solfege.sqlite"), "-o", os.path.join(work, "s.wav")],
                     solfege, random.Random(0))
    ok &= check("train degrees --drone --solfege --key Eb: answered in solfège", summary["accuracy"] == 1.0,
                json.dumps(summary)[:120])
    # The same seed, history and answers give the same items.
    lists = []
    for k in range(2):
        asked, _ = run(boop, ["train", "identify", "--trials", "30", "--seed", "9", "--db",
                              os.path.join(work, f"same-{k}.sqlite"), "-o", os.path.join(work, "x.wav")],
                       confuser([("M3", "P4")], 0.5), random.Random(1))
        lists.append(asked)
    ok &= check("train identify --seed: the same items again", lists[0] == lists[1], f"{len(lists[0])} trials")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
