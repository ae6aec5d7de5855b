#!/usr/bin/env python3
"""`boop train match` steered from the keyboard in a pseudo-terminal, as a singer steers it: the
intro names the keys; r replays the reference (the trial is announced again), x listens again
(no reference), p pauses until any key (then the reference again), q ends (exit 0) with
no attempt stored (nothing was sung). Runs with -D null -C null and --drone.

Usage: train-steer.py BOOP. Exit 0 when every check passed; one line per check.
"""
import os
import sqlite3
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from edit_driver import Checks, Terminal  # noqa: E402

boop = sys.argv[1]
check = Checks()
db = os.path.join(tempfile.mkdtemp(), "steer.sqlite")
argv = [boop, "train", "match", "-D", "null", "-C", "null", "--references", "A4,C5", "--drone",
        "--listen-seconds", "30", "--db", db]
trial = "trial 1/2: A4"
with Terminal(argv) as t:
    check(t.wait_for(trial, 30), "the first trial is announced", t.text())
    check("r replays the reference, x listens again, p or space pauses, q ends" in t.text(),
          "the intro names the keys", t.text())
    t.send(b"r")
    check(t.pump_until(lambda t: t.text().count(trial) == 2, 20), "r replays: the trial comes again", t.text())
    t.send(b"x")
    check(t.pump_until(lambda t: "listening again" in t.text() and t.text().count(trial) == 3, 20),
          "x listens again", t.text())
    t.send(b"p")
    check(t.pump_until(lambda t: "paused" in t.text(), 20), "p pauses", t.text())
    t.pump(0.6)
    check(t.text().count(trial) == 3, "paused: no new trial line", t.text())
    t.send(b"k")
    check(t.pump_until(lambda t: t.text().count(trial) == 4, 20), "any key goes on: the reference again", t.text())
    t.send(b" ")
    check(t.pump_until(lambda t: t.text().count("paused") == 2, 20), "space pauses too", t.text())
    t.send(b"g")
    check(t.pump_until(lambda t: t.text().count(trial) == 5, 20), "and goes on", t.text())
    t.pump(0.5)
    # Within a second: timed by quit-keys-test.py, alone (here other pieces run beside it).
    status = t.finish(b"q", limit=10)
    check(status == 0, f"q ends it (exit {status})", t.text())
with sqlite3.connect(db) as c:
    n = c.execute("SELECT COUNT(*) FROM match_attempts").fetchone()[0]
check(n == 0, f"nothing stored for the unfinished attempt ({n} rows)")
sys.exit(1 if check.failures else 0)
