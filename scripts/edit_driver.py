"""Drives boop in a pseudo-terminal through pyte (a VT100/xterm emulator), as a user would: any
command (Terminal), `boop edit` (Editor), or an interactive bash for job control (Shell).

Used by the editor, terminal, stall and suspend checks; importable for ad-hoc runs:

    from edit_driver import Editor
    with Editor(boop, "song.json") as ed:
        ed.keys(" ", "l", "k")
        print(ed.text())
"""

import fcntl
import json
import os
import pty
import select
import shutil
import signal
import struct
import subprocess
import termios
import time

import pyte

# Key names to the bytes a terminal sends.
KEYS = {
    "up": b"\x1b[A",
    "down": b"\x1b[B",
    "right": b"\x1b[C",
    "left": b"\x1b[D",
    "tab": b"\t",
    "shift-tab": b"\x1b[Z",
    "shift-up": b"\x1b[1;2A",
    "shift-down": b"\x1b[1;2B",
    "shift-right": b"\x1b[1;2C",
    "shift-left": b"\x1b[1;2D",
    "delete": b"\x1b[3~",
    "enter": b"\r",
    "esc": b"\x1b",
    "ctrl-c": b"\x03",
    "ctrl-r": b"\x12",
    "ctrl-s": b"\x13",
    "ctrl-u": b"\x15",
    "ctrl-z": b"\x1a",
    "backspace": b"\x7f",
}


class Checks:
    """PASS/FAIL lines, one per check, and the count of failures for the exit status."""

    def __init__(self):
        self.failures = 0

    def __call__(self, ok, what, detail=""):
        print(("PASS  " if ok else "FAIL  ") + what + ("" if ok else f": {detail}"))
        if not ok:
            self.failures += 1


def notes(path, track):
    """A saved pattern's notes on one track as sorted (step, pitch, velocity, length)."""
    data = json.load(open(path))
    return sorted((n["step"], n["pitch"], n.get("velocity", "normal"), n.get("length", 1))
                  for n in data.get("tracks", {}).get(track, []))


def row_of(ed, label):
    """1-based screen row of the grid row labelled `label` (C4, kick, ...)."""
    for i, line in enumerate(ed.screen.display):
        if line.startswith(label + " "):
            return i + 1
    return None


def fresh_work(argv):
    """A check script's start: BOOP and WORK from its command line, WORK made empty and entered,
    the PASS/FAIL counter, and the environment that keeps the editor's state (copies, locks) in
    WORK."""
    boop, work = argv[1], argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    os.chdir(work)
    return boop, work, Checks(), {"XDG_STATE_HOME": os.path.join(work, "state")}


class Terminal:
    """A program on a pseudo-terminal, its screen read through pyte."""

    def __init__(self, argv, cols=80, rows=24, env=None):
        self.cols, self.rows = cols, rows
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = b""
        self.status = None
        self.stty_before = None
        environment = dict(os.environ)
        environment.update({"TERM": "xterm-256color", "LC_ALL": "C.UTF-8"})
        environment.pop("NO_COLOR", None)
        if env:
            environment.update(env)
        # The child waits until this side has set the size and read the settings the program finds:
        # on a loaded machine this side can be descheduled long enough for the program to start
        # and switch to raw mode first, and "restored" would then be judged against raw mode.
        go_read, go_write = os.pipe()
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            # The child: the terminal settings as a shell leaves them, then the program.
            os.close(go_write)
            os.read(go_read, 1)
            os.execvpe(argv[0], argv, environment)
        os.close(go_read)
        self.resize(cols, rows, signal_child=False)
        self.stty_before = self.stty()
        os.write(go_write, b"g")
        os.close(go_write)

    def stty(self):
        """The pseudo-terminal's settings, as `stty -g` would print them."""
        attrs = termios.tcgetattr(self.fd)
        return repr(attrs)

    def resize(self, cols, rows, signal_child=True):
        self.cols, self.rows = cols, rows
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.screen.resize(rows, cols)
        if signal_child:
            os.kill(self.pid, signal.SIGWINCH)
            self.pump(0.3)

    def pump(self, seconds=0.15):
        """Reads what boop draws for `seconds`; False once it has exited."""
        end = time.time() + seconds
        while time.time() < end:
            ready, _, _ = select.select([self.fd], [], [], 0.02)
            if ready:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    return False
                if not data:
                    return False
                self.raw += data
                self.stream.feed(data)
        return True

    def pump_until(self, until, seconds):
        """Reads until `until(self)` holds, at most `seconds` (or the exit); whether it held."""
        end = time.time() + seconds
        while time.time() < end and not until(self):
            if not self.pump(0.02):
                break
        return bool(until(self))

    # Limits, not delays: each wait ends as soon as its text (or the exit) is seen; generous for a
    # loaded two-core machine.
    def wait_for(self, text, timeout=30.0):
        end = time.time() + timeout
        while time.time() < end:
            if text in self.text():
                return True
            if not self.pump(0.05):
                break
        return text in self.text()

    def send(self, data):
        os.write(self.fd, data)
        self.pump(0.12)

    def paste(self, data, timeout=60.0):
        """Writes `data` as fast as boop takes it, reading what it draws meanwhile (a blocking
        write of more than the pty holds would deadlock against boop's own output). True when
        all of it was taken."""
        flags = fcntl.fcntl(self.fd, fcntl.F_GETFL)
        fcntl.fcntl(self.fd, fcntl.F_SETFL, flags | os.O_NONBLOCK)
        sent, end = 0, time.time() + timeout
        try:
            while sent < len(data) and time.time() < end:
                readable, writable, _ = select.select([self.fd], [self.fd], [], 0.05)
                if readable and not self.pump(0.001):
                    break
                if writable:
                    try:
                        sent += os.write(self.fd, data[sent:sent + 4096])
                    except BlockingIOError:
                        pass
        finally:
            fcntl.fcntl(self.fd, fcntl.F_SETFL, flags)
        return sent == len(data)

    def alive(self):
        if self.status is not None:
            return False
        pid, status = os.waitpid(self.pid, os.WNOHANG)
        if pid:
            self.status = os.waitstatus_to_exitcode(status)
            return False
        return True

    def keys(self, *names):
        for name in names:
            self.send(KEYS.get(name, name.encode() if isinstance(name, str) else name))

    def click(self, column, row, button=0, release=True):
        """An SGR mouse press (and release) at a 1-based cell."""
        self.send(f"\x1b[<{button};{column};{row}M".encode())
        if release:
            self.send(f"\x1b[<{button};{column};{row}m".encode())

    def drag(self, cells, button=0):
        (c0, r0), rest = cells[0], cells[1:]
        self.send(f"\x1b[<{button};{c0};{r0}M".encode())
        for c, r in rest:
            self.send(f"\x1b[<{button + 32};{c};{r}M".encode())
        c, r = cells[-1]
        self.send(f"\x1b[<{button};{c};{r}m".encode())

    def text(self):
        return "\n".join(self.screen.display)

    def shown(self):
        """The rows with something on them, without trailing blanks."""
        return [line.rstrip() for line in self.screen.display if line.strip()]

    def line(self, row):
        return self.screen.display[row]

    def status_line(self):
        return self.screen.display[self.rows - 1]

    def wait_exit(self, timeout=30.0):
        end = time.time() + timeout
        while time.time() < end:
            self.pump(0.05)
            if not self.alive():
                # What it wrote just before exiting (the terminal's restore) may still be unread.
                self.drain()
                return self.status
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        self.status = "hang"
        return self.status

    def drain(self, limit=5.0):
        """Reads what is left on the pseudo-terminal until its end (every writer gone), at most `limit` s."""
        end = time.time() + limit
        while time.time() < end and self.pump(0.05):
            pass

    def finish(self, key=b"q", limit=15.0):
        """Sends `key` and waits (reading) for the exit: its code, or "hang"."""
        os.write(self.fd, key)
        return self.wait_exit(limit)

    def exited(self, limit):
        """Waits up to `limit` s WITHOUT reading for the exit: its code, or None."""
        end = time.time() + limit
        while time.time() < end:
            if not self.alive():
                return self.status
            time.sleep(0.05)
        return None

    def stdout_blocking(self):
        """Whether fd 1 of the program is still a blocking descriptor."""
        with open(f"/proc/{self.pid}/fdinfo/1") as f:
            flags = int(next(line for line in f if line.startswith("flags:")).split()[1], 8)
        return flags & os.O_NONBLOCK == 0

    def input_queued(self):
        """Bytes written to the program that it has not read yet (TIOCOUTQ on the master)."""
        return struct.unpack("i", fcntl.ioctl(self.fd, termios.TIOCOUTQ, b"\0\0\0\0"))[0]

    def settle(self, quiet=1.5, timeout=90.0):
        """Waits until the program has read every key sent and acted on the last of them: its
        last two lines (the message and the status line, which a playing loop's playhead does not
        move) unchanged for `quiet` seconds. What comes next is then not typed into a line or a
        mode the earlier keys left open."""
        end = time.time() + timeout
        while self.input_queued() > 0 and time.time() < end:
            self.pump(0.1)
        last, since = None, time.time()
        while time.time() < end:
            self.pump(0.2)
            now = tuple(self.screen.display[-2:])
            if now != last:
                last, since = now, time.time()
            elif time.time() - since >= quiet:
                return True
        return False

    def output_queued(self):
        """Bytes written by the program that this side has not read (FIONREAD on the master)."""
        return struct.unpack("i", fcntl.ioctl(self.fd, termios.FIONREAD, b"\0\0\0\0"))[0]

    def restored(self):
        """The terminal as boop found it: same settings; alternate screen, mouse modes, bracketed paste and
        keyboard modes off; cursor shown (the last mode changes boop wrote)."""
        modes = {}
        for mode in (b"1049", b"1002", b"1006", b"2004", b"25"):
            on = self.raw.rfind(b"\x1b[?" + mode + b"h")
            off = self.raw.rfind(b"\x1b[?" + mode + b"l")
            modes[mode.decode()] = off > on if mode != b"25" else on > off or on == -1
        return self.stty() == self.stty_before and all(modes.values()), modes

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        os.close(self.fd)


class Editor(Terminal):
    """`boop edit PATH` on a pseudo-terminal."""

    def __init__(self, boop, path, cols=80, rows=24, args=(), env=None, argv=None):
        super().__init__(argv or [boop, "edit", path, *args], cols, rows, env)


class Shell(Terminal):
    """An interactive bash in a pseudo-terminal (job control on), for Ctrl-Z and `fg`:

        with Shell() as sh:
            sh.run("boop edit song.json")
    """

    PROMPT = "BOOPSH$ "

    def __init__(self, cols=80, rows=24, env=None):
        environment = {"PS1": self.PROMPT, "PROMPT_COMMAND": "", "HISTFILE": "/dev/null"}
        environment.update(env or {})
        super().__init__(["bash", "--norc", "--noprofile", "-i"], cols, rows, env=environment)
        self.wait_prompt()

    def prompts(self):
        return self.raw.count(self.PROMPT.encode())

    def wait_prompt(self, after=0, timeout=10.0):
        """True once the shell has printed its prompt more than `after` times."""
        end = time.time() + timeout
        while time.time() < end:
            if self.prompts() > after:
                return True
            if not self.pump(0.05):
                break
        return self.prompts() > after

    def run(self, line):
        self.send(line.encode() + b"\r")

    def command_output(self, line, timeout=10.0):
        """Runs `line` and returns what it printed (up to the next prompt)."""
        before = self.prompts()
        start = len(self.raw)
        self.run(line)
        self.wait_prompt(before, timeout)
        out = self.raw[start:].decode(errors="replace")
        return out.rsplit(self.PROMPT, 1)[0]

    def children(self):
        """The shell's child processes (its jobs), by pid."""
        try:
            with open(f"/proc/{self.pid}/task/{self.pid}/children") as f:
                return [int(p) for p in f.read().split()]
        except OSError:
            return []

    def __exit__(self, *exc):
        for child in self.children():
            try:
                os.kill(child, signal.SIGKILL)
            except ProcessLookupError:
                pass
        super().__exit__(*exc)
