#!/usr/bin/env python3
"""A terminal that stops reading never stops boop: its screen writes never block.

Each case runs boop on a pseudo-terminal whose reader (this script) stops reading for STALL
seconds while the program keeps drawing, until the terminal's buffers are full. While the
reader is stopped, the program must go on answering keys (edit: a key saves the file; play and
ambient: q exits in seconds). Once reading again, the screen catches up to the latest frame. Its
stdout must stay a blocking descriptor (O_NONBLOCK only on boop's own reopened one), as the shell
and the other processes on the terminal expect.

    scripts/screen-stall-test.py BOOP WORK [STALL]      prints PASS/FAIL lines, exits 1 on a failure
"""
import fcntl, json, os, pty, select, signal, struct, sys, termios, time

import pyte

BOOP, WORK = sys.argv[1], sys.argv[2]
STALL = float(sys.argv[3]) if len(sys.argv) > 3 else 30.0
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
failures = 0


def check(ok, what, detail=""):
    global failures
    print(("PASS  " if ok else "FAIL  ") + what + ("" if ok else f": {detail}"), flush=True)
    failures += 0 if ok else 1


class Term:
    def __init__(self, args, cols=120, rows=40):
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            env = dict(os.environ, TERM="xterm-256color", LC_ALL="C.UTF-8")
            os.execvpe(BOOP, [BOOP, *args], env)
        self.resize(cols, rows)

    def resize(self, cols, rows):
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.screen.resize(rows, cols)

    def pump(self, seconds, until=None):
        end = time.time() + seconds
        while time.time() < end:
            if until and until(self):
                return True
            if select.select([self.fd], [], [], 0.02)[0]:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    data = b""
                if not data:
                    break
                self.stream.feed(data)
        return bool(until and until(self))

    def text(self):
        return "\n".join(self.screen.display)

    def exited(self, limit):
        """Waits up to `limit` s (not reading) for the exit; its code, or None."""
        end = time.time() + limit
        while time.time() < end:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            time.sleep(0.05)
        return None

    def kill(self):
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except OSError:
            pass

    def stdout_blocking(self):
        """Whether fd 1 of the program is still a blocking descriptor (O_NONBLOCK is 0o4000)."""
        with open(f"/proc/{self.pid}/fdinfo/1") as f:
            flags = int(next(l for l in f if l.startswith("flags:")).split()[1], 8)
        return flags & os.O_NONBLOCK == 0

    def output_queued(self):
        """Bytes written by the program that this side has not read (FIONREAD on the master)."""
        return struct.unpack("i", fcntl.ioctl(self.fd, termios.FIONREAD, b"\0\0\0\0"))[0]


def stall(t, seconds, during=None):
    """Stops reading for `seconds`; `during(t)` runs once the terminal's buffers are full."""
    end = time.time() + seconds
    full = False
    while time.time() < end:
        time.sleep(0.5)
        if not full and t.output_queued() > 0:
            # Full once the queue stops growing for a second while the program draws.
            before = t.output_queued()
            time.sleep(1)
            full = t.output_queued() == before
    return full


# edit: the playing loop and its playhead draw all the time; a resize asks for a whole screen.
path = os.path.join(WORK, "stall.json")
with open(os.path.join(ROOT, "examples", "demo.json")) as f:
    song = json.load(f)
t = Term(["edit", "-D", "null", path], 200, 60)
try:
    ok = t.pump(20, lambda t: "steps" in t.text() or "BPM" in t.text())
    check(ok, "edit: the editor is drawn", t.text()[:300])
    check(t.stdout_blocking(), "edit: stdout stays a blocking descriptor")
    os.write(t.fd, b"p")
    for size in ((160, 50), (200, 60), (180, 55)):
        t.resize(*size)
        os.kill(t.pid, signal.SIGWINCH)
        time.sleep(0.3)
    started = time.time()
    full = stall(t, STALL / 2)
    check(full, "edit: the terminal's buffers filled while not read", t.output_queued())
    # Keys while the screen is stuck: a note, then a save; the file appears while nothing is read.
    os.write(t.fd, b" s")
    deadline = time.time() + 10
    while time.time() < deadline and not os.path.exists(path):
        time.sleep(0.1)
    check(os.path.exists(path), f"edit: a key saves while the terminal has not read for {time.time() - started:.0f} s")
    stall(t, max(0, STALL - (time.time() - started)))
    check(t.exited(0) is None, "edit: still running after the stall")
    # Reading again: the screen catches up with the latest frame (the saved file's name, no '*').
    t.resize(180, 55)
    caught = t.pump(20, lambda t: "stall.json" in t.text() and "saved" in t.text())
    check(caught, "edit: the screen catches up once read", t.text()[-600:])
    os.write(t.fd, b"q")
    t.pump(5)
    code = t.exited(5)
    check(code == 0, f"edit: q exits 0 after the stall ({code})")
finally:
    t.kill()

# play and ambient: the view never stops; q while the screen is stuck exits within seconds.
for name, args in (("play", ["play", "-D", "null", os.path.join(ROOT, "examples", "demo.json")]),
                   ("ambient", ["ambient", "-D", "null"])):
    t = Term(args, 200, 40)
    try:
        t.pump(20, lambda t: t.text().strip() != "")
        check(t.stdout_blocking(), f"{name}: stdout stays a blocking descriptor")
        full = stall(t, STALL)
        check(full, f"{name}: the terminal's buffers filled while not read", t.output_queued())
        if name == "play":
            # A key the view shows, typed while the screen is stuck: read again, the screen
            # catches up with the latest frame (the pause).
            os.write(t.fd, b" ")
            time.sleep(1)
            caught = t.pump(20, lambda t: "(paused)" in t.text())
            check(caught, "play: the screen catches up once read (the pause is shown)", t.text()[:300])
            os.write(t.fd, b" ")
            # The view redraws as the playhead moves: stuck again, past full, before the q.
            full = stall(t, STALL)
            check(full, f"{name}: the terminal's buffers filled again", t.output_queued())
        began = time.time()
        os.write(t.fd, b"q")
        code = t.exited(15)
        check(code == 0, f"{name}: q while the terminal is not read exits 0 in {time.time() - began:.1f} s ({code})")
    finally:
        t.kill()

print(f"screen stall: {failures} failed")
sys.exit(1 if failures else 0)
