#!/usr/bin/env python3
"""`boop edit --backend jack`: the JACK server killed (SIGKILL) and started again five times while
the editor plays its loop. Each time the editor says it is reconnecting, has written its unsaved
work to FILE.save before trying to open the server again (so a crash there would lose nothing),
plays on once the server is back (its out_1 heard by a test client), and keeps every edit, made
before and during the loss; at the end it saves and exits 0, and FILE.save is gone.

    jack_reconnect_test.py BOOP [ROUNDS]   (JACK_DEFAULT_SERVER names the server this test starts;
                                            none of that name may be running)

The test starts and kills its own jackd (the dummy driver, 48 kHz, 256-frame periods; with a
parent-death signal where setpriv exists). Every wait is for the thing itself, within generous
limits for a loaded machine.
"""
import json
import os
import shutil
import signal
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from edit_driver import Editor, notes  # noqa: E402
from jack_test_lib import Checks, Ear, hears_boop, kill_server, start_server, wait_until  # noqa: E402

BOOP = sys.argv[1]
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 5
os.environ["JACK_NO_AUDIO_RESERVATION"] = "1"
check = Checks()
work = tempfile.mkdtemp(prefix="boop-jack-reconnect.")
path = os.path.join(work, "loop.json")
save = path + ".save"


cursor = [0]


def place(ed, step):
    """A melody note on `step` (0-based) at the cursor's pitch; space places without moving."""
    move = step - cursor[0]
    ed.keys(*(["l"] * move if move > 0 else ["h"] * -move), " ")
    cursor[0] = step
    ed.wait_for(f"step {step + 1}/16", timeout=10)


def saved_steps(file):
    try:
        return sorted(step for step, _, _, _ in notes(file, "melody"))
    except (OSError, ValueError, json.JSONDecodeError):
        return None


jackd = start_server(work)
placed = []
try:
    with Editor(BOOP, path, args=["--backend", "jack"]) as ed:
        check(ed.wait_for("jack:"), "the editor plays on JACK: " + ed.status_line().strip())
        for step in (0, 4):
            place(ed, step)
            placed.append(step)
        ed.keys("p")
        ear = Ear()
        check(hears_boop(ear), "its loop is heard on boop:out_1")
        for round in range(1, ROUNDS + 1):
            place(ed, 8 + (round - 1) % 6)   # an edit made while the server runs, not saved
            placed.append(8 + (round - 1) % 6)
            ear.close()
            kill_server(jackd)
            noticed = ed.wait_for("reconnecting", timeout=30)
            lost_step = (1, 2, 3, 5, 6, 7, 14, 15)[(round - 1) % 8]
            place(ed, lost_step)         # an edit made while it is gone
            placed.append(lost_step)
            want = sorted(set(placed))
            wait_until(f"{save} to hold the work before the reconnect", 30, lambda: saved_steps(save) == want)
            jackd = start_server(work)
            back = ed.pump_until(lambda e: "jack:" in e.status_line() and "lost" not in e.status_line(), 30)
            alive = ed.alive()
            ear = Ear()
            heard = alive and back and hears_boop(ear)
            check(noticed and back and heard and alive,
                  f"round {round}: server killed -> 'reconnecting', FILE.save holds steps {want}, server started "
                  f"again -> plays on ({ed.status_line().strip()})")
            if not alive:
                break
        ear.close()
        ed.keys("s")
        check(ed.wait_for("saved"), "s saves after the reconnects: " + ed.status_line().strip())
        # SIGTERM, not q: the signals boop handles must still reach it after the reconnects
        # (libjack once left them blocked on the thread that closed the lost server's client).
        os.kill(ed.pid, signal.SIGTERM)
        rc = ed.wait_exit(timeout=15)
        check(rc == 0, f"SIGTERM after the reconnects ends it with 0 (exit {rc})")
    want = sorted(set(placed))
    check(saved_steps(path) == want, f"the saved file holds every edit: steps {saved_steps(path)} (want {want})")
    check(not os.path.exists(save), "FILE.save is gone after the save")
finally:
    kill_server(jackd)
    shutil.rmtree(work, ignore_errors=True)
sys.exit(1 if check.failures else 0)
