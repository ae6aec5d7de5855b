#!/usr/bin/env python3
"""`boop edit` takes any input without trapping, as a hostile terminal or a cat on the keyboard
gives it: mouse reports with coordinates of -2^63, 2^63 - 1 and 10^30, a sign, empty and extra
fields; 20,000 random bytes (controls, broken UTF-8, runaway CSI); the instrument panel walked
past its fields; 15,000 random editing keys (which open lines, panels and piano mode, save and
export under random names: the editor runs in WORK so those files land there); then it quits
normally.

    scripts/edit-input-tests.py BOOP WORKDIR
"""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from edit_driver import KEYS, Editor, fresh_work  # noqa: E402

BOOP, WORK, check, _ = fresh_work([sys.argv[0], os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])])

# Mouse reports with coordinates of -2^63, 2^63 - 1 and
# 10^30, a sign, empty and extra fields; a burst of random bytes (controls, broken UTF-8, runaway CSI).
path = os.path.join(WORK, "input.json")
with Editor(BOOP, path, args=["-D", "null"]) as ed:
    ed.wait_for("step 1/16")
    for report in (b"\x1b[<0;-9223372036854775808;5M", b"\x1b[<0;9223372036854775807;9223372036854775807M",
                   b"\x1b[<0;1000000000000000000000000000000;5M", b"\x1b[<32;-1;-1M", b"\x1b[<0;;5M",
                   b"\x1b[<0;5;5;5M", b"\x1b[<-1;20;10M", b"\x1b[<2;99999;99999M", b"\x1b[<64;-5;3M"):
        ed.send(report)
    check(ed.alive() and "step 1/16" in ed.status_line(), "mouse reports with huge or negative numbers are ignored",
          (ed.status, ed.status_line()))
    rnd = random.Random(7)
    ed.paste(bytes(rnd.choice(b"\x1b[<;0123456789Mm\xc3\xa9\xff\x80\x01\x02hjkl ") for _ in range(20000)))
    ed.keys("c", "esc")
    ed.pump(0.5)
    check(ed.alive(), "20 000 random bytes: still editing", ed.status)
    # The instrument panel left on sustain (field 5 of 10), then Tab to rhythm (3 fields), then h: it trapped.
    ed.keys("c", "esc", "I", "j", "j", "j", "j", "tab", "tab", "tab", "h", "l")
    check(ed.pump_until(lambda e: "rhythm" in e.status_line(), 10) and ed.alive(),
          "instrument panel: a field past the rhythm's fields",
          (ed.status, ed.status_line()))
    # Every printable key but q, arrows, Esc, Enter, Tab and Backspace, at random.
    alphabet = [bytes([c]) for c in range(0x20, 0x7F) if c not in b"qQ"]
    alphabet += [KEYS[k] for k in ("up", "down", "left", "right", "esc", "enter", "tab", "shift-tab")] + [b"\x7f"]
    ed.paste(b"".join(rnd.choice(alphabet) for _ in range(15000)))
    ed.settle()
    # Esc leaves whatever the keys opened (a line, a panel, piano mode, a block), one each; each
    # on its own (a lone ESC is a key only when nothing follows it at once).
    for _ in range(4):
        ed.keys("esc")
        ed.pump(0.1)
    ed.keys("n")
    ed.pump(0.1)
    ed.keys("esc")
    ed.pump(0.5)
    check(ed.alive(), "15 000 random editing keys: still editing", ed.status)
    ed.keys("c", "q", "n")
    check(ed.wait_exit() == 0, "and quits normally", ed.status)

print(f"edit input tests: {check.failures} failed")
sys.exit(1 if check.failures else 0)
