#!/usr/bin/env python3
"""`boop edit` under job control, as in a user's interactive bash: Ctrl-Z and SIGTSTP give the
shell a working terminal, `fg` brings the editor back whole, and the work survives.

    scripts/edit-jobs-tests.py BOOP WORKDIR
"""

import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from edit_driver import Checks, Shell, notes, row_of  # noqa: E402

BOOP, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)
check = Checks()


def fresh(name):
    path = os.path.join(WORK, name)
    for p in (path, path + ".save"):
        if os.path.exists(p):
            os.remove(p)
    return path


# Job control under an interactive bash: Ctrl-Z (a byte in raw mode) and SIGTSTP from outside
# give the shell a working terminal (main screen, mouse off, cursor on, echo and line mode); fg
# brings raw mode and the whole screen back (boop play's keyboard: scripts/edit-live-test.py).
def line_mode(stty):
    words = stty.replace("\r", " ").replace("\n", " ").split()
    return "echo" in words and "icanon" in words and "isig" in words


path = fresh("jobs.json")
with Shell() as sh:
    sh.run(f"{BOOP} edit {path} -D null")
    check(sh.wait_for("step 1/16"), "bash: the editor opens", sh.text())
    sh.keys(" ", "l")
    prompts = sh.prompts()
    mark = len(sh.raw)
    sh.keys("ctrl-z")
    check(sh.wait_prompt(prompts) and "Stopped" in sh.raw[mark:].decode(errors="replace"),
          "Ctrl-Z: the job stops and the prompt comes back", sh.raw[mark:][-300:])
    tail = sh.raw[mark:]
    check(all(seq in tail for seq in (b"\x1b[?1049l", b"\x1b[?1002l", b"\x1b[?1006l", b"\x1b[?25h")),
          "Ctrl-Z: alternate screen left, mouse off, cursor shown", tail[:200])
    check(line_mode(sh.command_output("stty -a")), "Ctrl-Z: echo and line mode back for the shell")
    mark = len(sh.raw)
    sh.run("fg")
    check(sh.wait_for("step 2/16") and row_of(sh, "C4") is not None and b"\x1b[?1049h" in sh.raw[mark:]
          and b"\x1b[?1002h" in sh.raw[mark:], "fg: alternate screen, mouse and the whole grid again", sh.text())
    sh.keys("l")
    check(sh.wait_for("step 3/16"), "fg: raw mode again (a single key acts at once)", sh.status_line())
    # SIGTSTP from outside (kill -TSTP), then fg.
    job = sh.children()
    prompts = sh.prompts()
    if job:
        os.kill(job[0], signal.SIGTSTP)
    check(job and sh.wait_prompt(prompts), "SIGTSTP: the job stops and the prompt comes back", job)
    check(line_mode(sh.command_output("stty -a")), "SIGTSTP: line mode back for the shell")
    sh.run("fg")
    check(sh.wait_for("step 3/16"), "fg after SIGTSTP: redrawn", sh.text())
    sh.keys("q")
    check(sh.wait_for("save changes? (y/n/c)"), "the changes are still there after two suspends", sh.text())
    prompts = sh.prompts()
    sh.keys("y")
    check(sh.wait_prompt(prompts), "y saves and quits back to the shell")
    check(line_mode(sh.command_output("stty -a")), "after quitting: line mode")
check(notes(path, "melody") == [(0, 60, "normal", 1)], "the work survived the suspends", notes(path, "melody"))

print(f"edit job-control tests: {check.failures} failed")
sys.exit(1 if check.failures else 0)
