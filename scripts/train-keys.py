#!/usr/bin/env python3
"""`boop train` and `boop train interval` answered with single keys in a pseudo-terminal, as a
person answers them: no Enter, arrows or letters, r replays a trial (the prompt comes again and
the WAV gets the trial once more), q ends the session with the answers kept, and so does a stop
signal while a key is awaited.

Usage: train-keys.py BOOP WORKDIR. Exit 0 when every check passed; one line per check.
"""
import os
import pty
import select
import signal
import sqlite3
import subprocess
import sys
import time

LIMIT = 60.0  # seconds a prompt may take on a loaded machine under sanitizers


class Session:
    def __init__(self, argv):
        self.master, slave = pty.openpty()
        env = dict(os.environ, TERM="xterm")
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
        os.close(slave)
        self.text = ""

    def wait_for(self, needle, count):
        """Reads until `needle` has appeared `count` times in the output."""
        deadline = time.monotonic() + LIMIT
        while self.text.count(needle) < count:
            left = deadline - time.monotonic()
            if left <= 0:
                raise SystemExit(f"FAIL  no prompt {needle!r} (#{count}) within {LIMIT:.0f} s; output: {self.text[-400:]!r}")
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:
                    chunk = b""
                if not chunk:
                    raise SystemExit(f"FAIL  the session ended before prompt #{count}; output: {self.text[-400:]!r}")
                self.text += chunk.decode("utf-8", "replace")

    def press(self, keys):
        os.write(self.master, keys.encode())

    def finish(self):
        deadline = time.monotonic() + LIMIT
        while time.monotonic() < deadline and self.proc.poll() is None:
            ready, _, _ = select.select([self.master], [], [], 0.5)
            if ready:
                try:
                    self.text += os.read(self.master, 4096).decode("utf-8", "replace")
                except OSError:
                    pass
        if self.proc.poll() is None:
            self.proc.kill()
            raise SystemExit(f"FAIL  the session did not end within {LIMIT:.0f} s")
        os.close(self.master)
        return self.proc.returncode


def frames(path):
    with open(path, "rb") as f:
        data = f.read()
    i = data.find(b"data")
    return (len(data) - i - 8) // 4  # mono 32-bit float


def run(boop, work, exercise, prompt, answers, expected):
    name = f"{exercise}-{len(os.listdir(work))}"  # a history and a file of its own per session
    db, wav = os.path.join(work, f"{name}.sqlite"), os.path.join(work, f"{name}.wav")
    argv = [boop, "train"] + ([exercise] if exercise != "pitch" else []) + [
        "--trials", "5", "--seed", "7", "--db", db, "-o", wav, "--duration", "0.1"]
    s = Session(argv)
    shown = 0
    for keys in answers:
        shown += 1
        s.wait_for(prompt, shown)
        if keys == "SIGINT":
            started = time.monotonic()
            s.proc.send_signal(signal.SIGINT)
        else:
            s.press(keys)
    rc = s.finish()
    if answers[-1] == "SIGINT":
        # A stop signal while the session waits for a key ends it as q does (a blocking read of a
        # line once ignored it until Enter).
        print(f"      SIGINT while waiting for a key: ended in {time.monotonic() - started:.2f} s")
    table, column = ("interval_trials", "answer") if exercise == "interval" else ("trials", "answer")
    got = [r[0] for r in sqlite3.connect(db).execute(f"SELECT {column} FROM {table} ORDER BY trial")]
    if rc != 0 or got != expected:
        print(f"FAIL  train {exercise} by keys: exit {rc}, answers {got}, expected {expected}; output: {s.text[-300:]!r}")
        return False
    print(f"PASS  train {exercise} answered by single keys {answers!r}: exit 0, history {got}, {frames(wav)} frames")
    return True


def main():
    boop, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    up, down = "\x1b[A", "\x1b[B"
    ok = run(boop, work, "interval", "wider (w/up)", ["w", down, "r", "n", "q"], ["wider", "narrower", "narrower"])
    ok &= run(boop, work, "pitch", "higher (up/k)", [up, "j", "r", "k", "q"], ["higher", "lower", "higher"])
    ok &= run(boop, work, "interval", "wider (w/up)", ["n", "SIGINT"], ["narrower"])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
