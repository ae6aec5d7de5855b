#!/usr/bin/env python3
"""Runs `swift test ...` and names the tests that hang.

    scripts/swift-test-watch.py [--stall SECONDS] -- swift test --sanitize=thread ...

The output streams through unchanged. Once the tests run (the first "◇ Test ... started."), a
stretch of SECONDS (default 300) in which no test ends means one is blocked for good: the tests
started and not ended are printed, one line each, and the run is stopped (its process group gets
SIGTERM, SIGKILL 10 s later); exit 124, as timeout(1) gives. With SWIFT_TEST_WATCH_NOTES set to a
file, the same lines are appended there too. Without this, a blocked test holds the
whole run until the stage's limit, and the log ends with nothing that names it.
"""
import argparse
import os
import re
import selectors
import signal
import subprocess
import sys
import time

STARTED = re.compile(r"^◇ Test (.+) started\.$")
ENDED = re.compile(r"^[✔✘] Test (.+?) (?:passed|failed|with \d+ test case)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stall", type=float, default=300)
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command or args.stall <= 0:
        print("swift-test-watch: expected --stall SECONDS (> 0) -- COMMAND ...", file=sys.stderr)
        return 2
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    # Stopped with this script (the stage's limit, Ctrl-C): the tests' process group goes too.
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda s, _f: (stop(proc), sys.exit(128 + s)))
    running = {}   # test name -> count started and not yet ended (parameterised tests repeat)
    last_end = None
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    pending = b""
    while True:
        if sel.select(timeout=5):
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                break
            sys.stdout.buffer.write(chunk)
            sys.stdout.flush()
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for raw in lines:
                line = raw.decode("utf-8", "replace").strip()
                if m := STARTED.match(line):
                    running[m.group(1)] = running.get(m.group(1), 0) + 1
                    last_end = last_end or time.monotonic()
                elif m := ENDED.match(line):
                    name = m.group(1)
                    if running.get(name, 0) > 0:
                        running[name] -= 1
                    last_end = time.monotonic()
        if last_end is not None and time.monotonic() - last_end > args.stall:
            hung = sorted(name for name, n in running.items() if n > 0 and not name.startswith("case "))
            lines = [f"swift-test-watch: no test ended for {args.stall:.0f} s; still running: {len(hung)}"]
            lines += [f"swift-test-watch: still running: {name}" for name in hung]
            print("\n".join(lines), flush=True)
            # Also where the test command prints it again under its summary (a long log is often
            # read from its end).
            if notes := os.environ.get("SWIFT_TEST_WATCH_NOTES"):
                with open(notes, "a", encoding="utf-8") as f:
                    f.write("\n".join(lines) + "\n")
            stop(proc)
            return 124
    return proc.wait()


def stop(proc):
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


if __name__ == "__main__":
    sys.exit(main())
