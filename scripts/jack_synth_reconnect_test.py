#!/usr/bin/env python3
"""`boop synth --backend jack --reconnect`: the JACK server killed (SIGKILL) and started again
ROUNDS times while the synth runs. Each time boop says on stderr that the device is lost and it
waits, says it is back once the server runs again, and a note sent to boop:midi_in (a test client
sending MIDI) is heard on boop:out_1 (another test client listening); it never exits meanwhile, and
SIGTERM at the end exits 0. Without --reconnect a lost server still exits 74.

    jack_synth_reconnect_test.py BOOP [ROUNDS]   (JACK_DEFAULT_SERVER names the server this test
                                                  starts; none of that name may be running)
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile

import jack

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jack_test_lib import Checks, Ear, hears_boop, kill_server, start_server, wait_until  # noqa: E402

BOOP = sys.argv[1]
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 4
os.environ["JACK_NO_AUDIO_RESERVATION"] = "1"
check = Checks()
work = tempfile.mkdtemp(prefix="boop-synth-reconnect.")
err_path = os.path.join(work, "err")


def stderr_text():
    with open(err_path) as f:
        return f.read()


class Keys:
    """A JACK client whose MIDI output is linked to boop:midi_in and strikes a note (melody, channel
    1) every 0.1 s once it is linked (boop's ports appear before its client is active, and what
    is sent to an inactive client is lost). Closed before the server is killed."""

    def __init__(self):
        self.client = jack.Client("boop-keys", no_start_server=True)
        self.port = self.client.midi_outports.register("out")
        self.linked = False
        self.frames = 0

        @self.client.set_process_callback
        def on_process(frames):
            self.port.clear_buffer()
            if self.linked and self.frames <= 0:
                self.port.write_midi_event(0, bytes([0x90, 69, 110]))
                self.frames = self.client.samplerate // 10
            self.frames -= frames

        self.client.activate()

    def link(self):
        try:
            self.client.connect(self.port, "boop:midi_in")
        except jack.JackError:
            return False   # not there yet, or gone as it was found
        self.linked = True
        return True

    def close(self):
        self.client.deactivate()
        self.client.close()


def note_heard():
    """A note sent to boop:midi_in is heard on boop:out_1; returns the clients to close."""
    ear, keys = Ear(), Keys()
    wait_until("boop:out_1 to appear", 30, ear.listen_to_boop)
    wait_until("boop:midi_in to appear", 30, keys.link)
    wait_until("the note to be heard", 30, lambda: ear.peak > 1e-3)
    return ear, keys, True


def close(clients):
    for c in clients:
        c.close()


jackd = start_server(work)
boop = None
try:
    err = open(err_path, "w")
    boop = subprocess.Popen([BOOP, "synth", "--backend", "jack", "--reconnect", "--no-display"],
                            stdout=subprocess.DEVNULL, stderr=err, stdin=subprocess.DEVNULL)
    ear, keys, heard = note_heard()
    check(heard, "synth --reconnect: a note sent to boop:midi_in is heard on boop:out_1")
    for round in range(1, ROUNDS + 1):
        close((ear, keys))
        # Counted before the kill: boop learns of the loss at once (the synth's ended descriptor).
        lost = stderr_text().count("waiting for it to return")
        kill_server(jackd)
        wait_until(f"round {round}: the loss to be said", 30,
                   lambda: boop.poll() is not None or stderr_text().count("waiting for it to return") >= round)
        noticed = boop.poll() is None and lost < round
        jackd = start_server(work)
        wait_until(f"round {round}: boop to be back", 30,
                   lambda: boop.poll() is not None or stderr_text().count("device is back") >= round)
        alive = boop.poll() is None
        heard = False
        if alive:
            ear, keys, heard = note_heard()
        check(noticed and alive and heard, f"round {round}: server killed -> 'waiting for it to return', started "
              f"again -> 'device is back', a note sent is heard again (exit {boop.poll()})")
        if not alive:
            break
    close((ear, keys))
    boop.send_signal(signal.SIGTERM)
    try:
        rc = boop.wait(20)
    except subprocess.TimeoutExpired:
        boop.kill()
        rc = "hang"
    check(rc == 0, f"SIGTERM after the reconnects: exit {rc}: {stderr_text().strip().splitlines()[-1:]}")
    # SIGTERM while it waits for the server is 0 as well.
    with open(err_path, "w") as err:
        boop = subprocess.Popen([BOOP, "synth", "--backend", "jack", "--reconnect", "--no-display"],
                                stdout=subprocess.DEVNULL, stderr=err, stdin=subprocess.DEVNULL)
        keys = Keys()
        wait_until("boop:midi_in to appear", 30, keys.link)   # it appears once boop's client is active
        keys.close()
        kill_server(jackd)
        wait_until("the loss to be said", 30,
                   lambda: boop.poll() is not None or "waiting for it to return" in stderr_text())
        boop.send_signal(signal.SIGTERM)
        try:
            rc = boop.wait(20)
        except subprocess.TimeoutExpired:
            boop.kill()
            rc = "hang"
    check(rc == 0, f"SIGTERM while waiting for the server: exit {rc}")
    # Without --reconnect a lost server is still 74.
    jackd = start_server(work)
    with open(err_path, "w") as err:
        boop = subprocess.Popen([BOOP, "synth", "--backend", "jack", "--no-display"],
                                stdout=subprocess.DEVNULL, stderr=err, stdin=subprocess.DEVNULL)
        keys = Keys()
        wait_until("boop:midi_in to appear", 30, keys.link)   # it appears once boop's client is active
        keys.close()
        kill_server(jackd)
        try:
            rc = boop.wait(20)
        except subprocess.TimeoutExpired:
            boop.kill()
            rc = "hang"
    check(rc == 74, f"without --reconnect the server killed -> 74 ({rc}): {stderr_text().strip()}")
finally:
    if boop is not None and boop.poll() is None:
        boop.kill()
        boop.wait()
    kill_server(jackd)
    if check.failures:
        print(open(os.path.join(work, "jackd.log")).read()[-1500:])
    shutil.rmtree(work, ignore_errors=True)
sys.exit(1 if check.failures else 0)
