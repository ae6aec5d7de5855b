#!/usr/bin/env python3
"""A JACK server that does not answer: libjack waits for ever for it (its socket, or JACK2's
metadata lock left held by a process killed inside it), so boop waits for it at most
BOOP_JACK_ANSWER_SECONDS (5 s) and then goes on.

    jack_stuck_server_test.py BOOP   (JACK_DEFAULT_SERVER names the server this test starts; none
                                      of that name may be running)

1. A stopped server (SIGSTOP): `play`, `synth`, `ambient`, `listen` and `tone` on JACK each exit 69
   with a line saying the server did not answer within 5 s.
2. The server stopped while `edit` plays on it: `s` saves, `q` ends the editor with 0.
3. `edit` whose server was killed finds a hung one in its place (a socket that takes the
   connection and never answers): the editor still takes edits while it waits; when that server
   goes and a real one starts, it plays on, and it saves every edit and exits 0.

Waits are for the thing itself within generous limits; the bound checked on each wait is the
5 s limit plus a loaded machine's margin, never a timing figure.
"""
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from edit_driver import Editor, notes  # noqa: E402
from jack_test_lib import SERVER, Checks, kill_server, start_server  # noqa: E402

BOOP = sys.argv[1]
os.environ["JACK_NO_AUDIO_RESERVATION"] = "1"
LIMIT = 5.0          # BOOP_JACK_ANSWER_SECONDS
MARGIN = 15.0        # a loaded machine's start-up and exit around it
check = Checks()
work = tempfile.mkdtemp(prefix="boop-jack-stuck.")


def run_against_stopped(args):
    start = time.monotonic()
    try:
        p = subprocess.run([BOOP, *args], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                           timeout=LIMIT + MARGIN + 30)
    except subprocess.TimeoutExpired:
        return "hang", "", time.monotonic() - start
    return p.returncode, p.stderr.strip(), time.monotonic() - start


class HungServer:
    """A listening socket where the server's would be, that takes connections and never answers
    (libjack's open then waits in read); closed, it lets the waiting open return."""

    def __init__(self):
        self.path = f"/dev/shm/jack_{SERVER}_{os.getuid()}_0"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        if os.path.exists(self.path):
            os.unlink(self.path)   # the killed server's
        self.sock.bind(self.path)
        self.sock.listen(8)
        self.taken = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self):
        try:
            while True:
                conn, _ = self.sock.accept()
                self.taken.append(conn)
        except OSError:
            pass

    def close(self):
        for conn in self.taken:
            conn.close()
        self.sock.close()
        os.unlink(self.path)


def stop_server(proc):
    """SIGSTOP, waited for until the kernel has it stopped."""
    proc.send_signal(signal.SIGSTOP)
    end = time.monotonic() + MARGIN
    while time.monotonic() < end:
        if open(f"/proc/{proc.pid}/stat").read().split(")")[1].split()[0] == "T":
            return
        time.sleep(0.01)
    raise SystemExit("FAIL  jackd did not stop on SIGSTOP")


def playing_editor(name):
    """`boop edit NAME.json --backend jack` with a note on step 1 and its loop playing."""
    path = os.path.join(work, name + ".json")
    ed = Editor(BOOP, path, args=["--backend", "jack"])
    check(ed.wait_for("jack:"), "the editor opens on JACK: " + ed.status_line().strip())
    ed.keys(" ", "p")
    check(ed.wait_for("playing", timeout=MARGIN), "its loop plays: " + ed.status_line().strip())
    return ed, path


def melody_steps(path):
    try:
        return sorted(step for step, _, _, _ in notes(path, "melody"))
    except (OSError, ValueError):
        return None


jackd = start_server(work)
try:
    # 1. Every command that opens a client, against a stopped server.
    stop_server(jackd)
    for args in (["play", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "demo.json"),
                  "--backend", "jack", "--no-display"],
                 ["synth", "--backend", "jack"],
                 ["ambient", "--backend", "jack", "--duration", "2"],
                 ["listen", "--backend", "jack", "--duration", "2"],
                 ["tone", "A4", "--backend", "jack"]):
        rc, err, took = run_against_stopped(args)
        check(rc == 69 and "did not answer within 5 s" in err and took < LIMIT + MARGIN,
              f"boop {args[0]} against a stopped server: exit {rc} after {took:.1f} s: {err}")
    jackd.send_signal(signal.SIGCONT)

    # 2. The server stopped while the editor plays on it.
    ed, path = playing_editor("stopped")
    with ed:
        stop_server(jackd)
        ed.keys("s")
        saved = ed.wait_for("saved", timeout=MARGIN)
        start = time.monotonic()
        rc = ed.finish(b"q", limit=LIMIT + MARGIN)
        took = time.monotonic() - start
        check(saved and rc == 0 and melody_steps(path) == [0],
              f"server stopped under the editor: s saves, q exits {rc} after {took:.1f} s, file steps {melody_steps(path)}")
    jackd.send_signal(signal.SIGCONT)

    # 3. A hung server where the killed one was.
    ed, path = playing_editor("hung")
    with ed:
        kill_server(jackd)
        jackd = None
        check(ed.wait_for("reconnecting", timeout=30), "server killed: the editor says it is reconnecting")
        hung = HungServer()
        # The editor's next attempt finds the hung server and waits for it LIMIT s at most; edits
        # made meanwhile are taken once it is back, and later attempts do not wait again.
        waiting = ed.pump_until(lambda e: len(hung.taken) > 0, MARGIN)
        ed.keys("l", "l", " ")
        moved = ed.wait_for("step 3/16", timeout=LIMIT + MARGIN)
        ed.keys("l", "l", " ")
        again = ed.wait_for("step 5/16", timeout=MARGIN)
        check(moved and again and waiting,
              f"a hung server in its place: the editor took its client's connection ({len(hung.taken)}) and "
              f"still takes edits ({ed.status_line().strip()})")
        hung.close()
        jackd = start_server(work)
        back = ed.pump_until(lambda e: "jack:" in e.status_line() and "lost" not in e.status_line(), 60)
        check(back, "the hung server gone and a real one started: the editor plays on: " + ed.status_line().strip())
        ed.keys("s")
        saved = ed.wait_for("saved", timeout=MARGIN)
        rc = ed.finish(b"q")
        check(saved and rc == 0 and melody_steps(path) == [0, 2, 4],
              f"s saves every edit and q exits {rc}: file steps {melody_steps(path)} (want [0, 2, 4])")
finally:
    if jackd is not None:
        jackd.send_signal(signal.SIGCONT)
        kill_server(jackd)
    shutil.rmtree(work, ignore_errors=True)
sys.exit(1 if check.failures else 0)
