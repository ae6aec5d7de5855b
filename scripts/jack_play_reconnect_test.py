#!/usr/bin/env python3
"""`boop play --backend jack --reconnect`: the JACK server killed (SIGKILL) and started again
ROUNDS times while the loop plays. Each time boop says on stderr that the device is lost and it
waits, says it is back once the server runs again, and its loop is heard again on boop:out_1 (a
test client listening); it never exits meanwhile (no crash), and SIGTERM at the end exits 0.
Without --reconnect a lost server still exits 74.

    jack_play_reconnect_test.py BOOP [ROUNDS]   (JACK_DEFAULT_SERVER names the server this test
                                                 starts; none of that name may be running)
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jack_test_lib import Checks, Ear, hears_boop, kill_server, start_server, wait_until  # noqa: E402

BOOP = sys.argv[1]
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 4
os.environ["JACK_NO_AUDIO_RESERVATION"] = "1"
check = Checks()
work = tempfile.mkdtemp(prefix="boop-play-reconnect.")
demo = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "demo.json")
err_path = os.path.join(work, "err")


def stderr_text():
    with open(err_path) as f:
        return f.read()


jackd = start_server(work)
try:
    err = open(err_path, "w")
    boop = subprocess.Popen([BOOP, "play", demo, "--backend", "jack", "--reconnect", "--no-display"],
                            stdout=subprocess.DEVNULL, stderr=err, stdin=subprocess.DEVNULL)
    ear = Ear()
    check(hears_boop(ear), "play --reconnect: its loop is heard on boop:out_1")
    for round in range(1, ROUNDS + 1):
        ear.close()
        # Counted before the kill: boop learns of the loss at once (the playback's ended
        # descriptor), often before this line would have read its stderr after the kill.
        lost = stderr_text().count("waiting for it to return")
        kill_server(jackd)
        wait_until(f"round {round}: the loss to be said", 30,
                   lambda: boop.poll() is not None or stderr_text().count("waiting for it to return") >= round)
        noticed = boop.poll() is None and lost < round
        jackd = start_server(work)
        wait_until(f"round {round}: boop to be back", 30,
                   lambda: boop.poll() is not None or stderr_text().count("device is back") >= round)
        alive = boop.poll() is None
        ear = Ear()
        heard = alive and hears_boop(ear)
        check(noticed and alive and heard, f"round {round}: server killed -> 'waiting for it to return', started "
              f"again -> 'device is back' and heard again (exit {boop.poll()})")
        if not alive:
            break
    ear.close()
    boop.send_signal(signal.SIGTERM)
    try:
        rc = boop.wait(20)
    except subprocess.TimeoutExpired:
        boop.kill()
        rc = "hang"
    check(rc == 0, f"SIGTERM after the reconnects: exit {rc}: {stderr_text().strip().splitlines()[-1:]}")
    # Without --reconnect a lost server is still 74.
    with open(err_path, "w") as err:
        boop = subprocess.Popen([BOOP, "play", demo, "--backend", "jack", "--no-display"],
                                stdout=subprocess.DEVNULL, stderr=err, stdin=subprocess.DEVNULL)
        ear = Ear()
        hears_boop(ear)
        ear.close()
        kill_server(jackd)
        try:
            rc = boop.wait(20)
        except subprocess.TimeoutExpired:
            boop.kill()
            rc = "hang"
    check(rc == 74, f"without --reconnect the server killed -> 74 ({rc}): {stderr_text().strip()}")
finally:
    kill_server(jackd)
    shutil.rmtree(work, ignore_errors=True)
sys.exit(1 if check.failures else 0)
