#!/usr/bin/env python3
"""boop on a terminal it may not open again: another user's, as after `su`, `sudo -u` or under
`setpriv`. The pseudo-terminals here belong to root and the commands run as another user (boopuser
when there is one, else nobody), so /proc/self/fd/1 cannot be opened for writing: boop must draw
through the descriptor it inherited, never make that one non-blocking (the shell shares it), and a
terminal that stops reading must still never stop it. Checked: the editor (started through setpriv
and through su) starts, draws, takes keys, saves and exits 0 with the terminal restored; Ctrl-Z and
fg under an interactive bash; a stalled reader; play's view, and its exit while not read.

    scripts/other-user-tests.py BOOP WORK     PASS/FAIL lines; skipped (exit 0, with the reason) unless root
"""
import atexit
import os
import pwd
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from edit_driver import Checks, Editor, Shell, Terminal, notes  # noqa: E402

BOOP, WORK = os.path.abspath(sys.argv[1]), sys.argv[2]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if os.geteuid() != 0:
    print("SKIP  other-user terminal tests: they need root (to run boop as another user on a terminal root owns)")
    sys.exit(0)
try:
    USER = pwd.getpwnam("boopuser")
except KeyError:
    USER = pwd.getpwnam("nobody")
check = Checks()
# A folder of the other user's own under /tmp, whose parents that user may search (WORK's need not
# be: mktemp -d makes 0700 folders), with the binary and the demo copied in, wherever the checkout is.
HOME = tempfile.mkdtemp(prefix="boop-other-user.")
atexit.register(shutil.rmtree, HOME, True)
os.chmod(HOME, 0o755)
os.chown(HOME, USER.pw_uid, USER.pw_gid)
BOOP = shutil.copy2(BOOP, os.path.join(HOME, "boop"))
os.chmod(BOOP, 0o755)
DEMO = shutil.copy(os.path.join(ROOT, "examples", "demo.json"), os.path.join(HOME, "demo.json"))
os.chmod(DEMO, 0o644)
ENV = {"HOME": HOME, "XDG_STATE_HOME": os.path.join(HOME, "state"), "XDG_DATA_HOME": os.path.join(HOME, "data")}
SETPRIV = ["setpriv", f"--reuid={USER.pw_uid}", f"--regid={USER.pw_gid}", "--clear-groups", "--"]


def as_user(*argv):
    return SETPRIV + list(argv)


def fresh(name):
    path = os.path.join(HOME, name)
    for p in (path, path + ".save"):
        if os.path.exists(p):
            os.remove(p)
    return path


# The premise: as that user, the terminal (root's) cannot be opened again.
probe = "import os\ntry:\n    os.close(os.open('/proc/self/fd/1', os.O_WRONLY)); print('opened')\nexcept OSError as e:\n    print(e)"
with Terminal(as_user("python3", "-c", probe), env=ENV) as t:
    t.wait_exit(20)
    check("opened" not in t.text() and t.text().strip() != "",
          f"as {USER.pw_name}, root's terminal cannot be opened again", t.shown())

# The editor through setpriv: draws, takes keys, saves, exits 0, the terminal as found.
path = fresh("setpriv.json")
with Editor(BOOP, path, argv=as_user(BOOP, "edit", path, "-D", "null"), env=ENV) as ed:
    check(ed.wait_for("step 1/16"), "setpriv: edit starts and draws", (ed.status, ed.shown()))
    check(ed.alive() and ed.stdout_blocking(), "setpriv: stdout stays a blocking descriptor")
    ed.keys(" ", "l")
    check(ed.wait_for("step 2/16"), "setpriv: keys act", ed.status_line())
    ed.keys("s")
    check(ed.wait_for("saved setpriv.json"), "setpriv: s saves", ed.text()[-300:])
    code = ed.finish()
    check(code == 0, f"setpriv: q exits 0 ({code})")
    check(ed.restored()[0], "setpriv: the terminal restored", ed.restored()[1])
check(os.path.exists(path) and notes(path, "melody") == [(0, 60, "normal", 1)], "setpriv: the note saved",
      os.path.exists(path) and open(path).read()[:200])

# Through su (a process of its own between: the exit status is passed on).
path = fresh("su.json")
line = f"exec {BOOP} edit {path} -D null"
with Editor(BOOP, path, argv=["su", USER.pw_name, "-s", "/bin/sh", "-c", line], env=ENV) as ed:
    check(ed.wait_for("step 1/16"), "su: edit starts and draws", (ed.status, ed.shown()))
    ed.keys(" ", "ctrl-s")
    check(ed.wait_for("saved su.json"), "su: a note placed, Ctrl-S saves", ed.text()[-300:])
    code = ed.finish()
    check(code == 0, f"su: q exits 0 ({code})")
    check(ed.restored()[0], "su: the terminal restored", ed.restored()[1])
check(os.path.exists(path) and notes(path, "melody") == [(0, 60, "normal", 1)], "su: the note saved")

# Job control: Ctrl-Z gives the shell its terminal, fg brings the editor back whole.
path = fresh("jobs.json")
with Shell(env=ENV) as sh:
    sh.run(" ".join(as_user(BOOP, "edit", path, "-D", "null")))
    check(sh.wait_for("step 1/16"), "bash: edit as another user opens", sh.text())
    sh.keys(" ", "l")
    prompts, mark = sh.prompts(), len(sh.raw)
    sh.keys("ctrl-z")
    check(sh.wait_prompt(prompts) and "Stopped" in sh.raw[mark:].decode(errors="replace")
          and b"\x1b[?1049l" in sh.raw[mark:], "Ctrl-Z: the job stops, the screen is the shell's", sh.raw[mark:][-300:])
    words = sh.command_output("stty -a").split()
    check("echo" in words and "icanon" in words, "Ctrl-Z: echo and line mode back for the shell")
    sh.run("fg")
    check(sh.wait_for("step 2/16"), "fg: the editor redrawn", sh.text())
    sh.keys("l")
    check(sh.wait_for("step 3/16"), "fg: keys act again", sh.status_line())
    prompts = sh.prompts()
    sh.keys("q", "y")
    check(sh.wait_prompt(prompts), "q, y saves and quits back to the shell")
check(os.path.exists(path) and notes(path, "melody") == [(0, 60, "normal", 1)], "bash: the work survived Ctrl-Z")


def stall(t, seconds, limit=60.0):
    """Stops reading for `seconds`, and on until the terminal's buffers are full (at most `limit`)."""
    start, full = time.time(), False
    while time.time() < start + seconds or (not full and time.time() < start + limit):
        time.sleep(0.5)
        if not full and t.output_queued() > 0:
            before = t.output_queued()
            time.sleep(1)
            full = t.output_queued() == before
    return full


# A terminal that stops reading: the screen's writes block a thread of their own, never the editor.
path = fresh("stall.json")
with Editor(BOOP, path, 200, 60, argv=as_user(BOOP, "edit", path, "-D", "null"), env=ENV) as ed:
    check(ed.wait_for("step 1/16"), "stall: edit opens", ed.shown())
    os.write(ed.fd, b"p")
    full = stall(ed, 6)
    check(full, "stall: the terminal's buffers filled while not read", ed.output_queued())
    os.write(ed.fd, b" s")
    deadline = time.time() + 10
    while time.time() < deadline and not os.path.exists(path):
        time.sleep(0.1)
    check(os.path.exists(path), "stall: a key saves while the terminal is not read")
    check(ed.pump_until(lambda t: "saved stall.json" in t.text(), 20), "stall: the screen catches up once read",
          ed.text()[-300:])
    code = ed.finish()
    check(code == 0, f"stall: q exits 0 ({code})")

# play's view (key mode) through the inherited descriptor.
with Terminal(as_user(BOOP, "play", DEMO, "-D", "null"), 80, env=ENV) as t:
    check(t.pump_until(lambda t: len(t.shown()) == 5, 20), "play: its view is drawn", t.shown())
    # Not read until the terminal's buffers are full (the screen thread blocked in a write): q
    # still exits within seconds.
    full = stall(t, 4)
    began = time.time()
    os.write(t.fd, b"q")
    code = t.exited(15)
    check(full and code == 0, f"play: q while the terminal is not read exits 0 in {time.time() - began:.1f} s ({code})",
          t.output_queued())

print(f"other-user terminal tests: {check.failures} failed")
sys.exit(1 if check.failures else 0)
