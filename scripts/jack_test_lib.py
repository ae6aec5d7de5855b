"""What the JACK test clients (scripts/jack_*_test.py) share: PASS/FAIL lines with a count of the
failures for the exit status, and waiting for a condition within a generous limit."""
import time


class Checks:
    """Prints one PASS or FAIL line per check (flushed: the JACK stage streams them) and counts
    the failures."""

    def __init__(self):
        self.failures = 0

    def __call__(self, ok, text):
        print(("PASS  " if ok else "FAIL  ") + text, flush=True)
        self.failures += 0 if ok else 1


def wait_until(what, limit, condition):
    """Polls `condition` every 20 ms; gives up with a FAIL line naming `what` after `limit` s."""
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > limit:
            raise SystemExit(f"FAIL  gave up after {limit} s waiting for {what}")
        time.sleep(0.02)
