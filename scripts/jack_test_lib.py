"""What the JACK test clients (scripts/jack_*_test.py) share: PASS/FAIL lines with a count of the
failures for the exit status, waiting for a condition within a generous limit, and a sender that
writes MIDI events on chosen frames."""
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


def send_plan(client, port, plan, state):
    """Makes `client`'s process callback write `plan`, (frame, bytes) pairs sorted by frame, into
    the MIDI output `port`, each on its frame counted from state["start"] (nothing is sent while
    that is None); state["next"] is the index of the first event not yet sent."""
    state.setdefault("start", None)
    state.setdefault("next", 0)

    @client.set_process_callback
    def on_send(frames):
        port.clear_buffer()
        if state["start"] is None:
            return
        now = client.last_frame_time - state["start"]
        i = state["next"]
        while i < len(plan) and plan[i][0] < now + frames:
            if plan[i][0] >= now:
                port.write_midi_event(plan[i][0] - now, plan[i][1])
            i += 1
        state["next"] = i


class Disturbances:
    """What the server did to the clients' timing, to be told from boop's own errors: the xruns
    the server reports to `client` (its xrun callback; the frame time when it came) and the
    cycles `client` itself did not run (gaps in the cycles it records with `cycle`). Set up before
    the client is activated; `cycle` is called from its process callback."""

    def __init__(self, client):
        self.client = client
        self.xruns = []   # server frame times
        self.cycles = []  # (first frame, frames)

        @client.set_xrun_callback
        def on_xrun(_delay):
            self.xruns.append(client.frame_time)

    def cycle(self, frames):
        self.cycles.append((self.client.last_frame_time, frames))

    def gaps(self):
        c = self.cycles
        return [(a[0] + a[1], b[0]) for a, b in zip(c, c[1:]) if b[0] != a[0] + a[1]]

    def touching(self, lo, hi):
        """Whether an xrun or a missed cycle falls in server frames [lo, hi]."""
        return any(lo <= f <= hi for f in self.xruns) or any(a <= hi and b >= lo for a, b in self.gaps())

    def summary(self):
        gaps = self.gaps()
        return f"{len(self.xruns)} server xruns, {len(gaps)} missed cycles ({sum(b - a for a, b in gaps)} frames)"
# A measurement the server's faults left too thin to judge exits with this status (EX_TEMPFAIL):
# scripts/jack-tests.sh runs such a client again, a counted number of times.
INCONCLUSIVE = 75


class ServerFaults:
    """Where the server's own faults touched the frame clock, so a frame-exact check judges only
    the frames they did not. Two witnesses, both from the test's client:

    - JACK's xrun callback: the server tells every client of every xrun in the graph (jackd's
      dummy driver reports some even on an idle virtual machine: timer wake-ups late by ~30 us).
      The report comes from a notification thread after the fact, so the frames from `margin`
      seconds (at least 8 periods) before the report's frame up to a period after it are untrusted.
    - the client's own cycles (`cycle(frames)`, called from its process callback): a cycle whose
      start is not the previous one's end. After an xrun jackd2 may skip a cycle and stamp the
      next twice (jack_last_frame_time a period off for one cycle), so messages read there carry
      frames a period early or late; the cycles on both sides of such a step are untrusted, a
      period either way.

    Nothing here waits or allocates in the process callback beyond a list append."""

    def __init__(self, client, margin=0.1):
        self.client = client
        self.rate = client.samplerate
        self.period = client.blocksize
        self.margin = max(8 * self.period, int(margin * self.rate))
        self.cycles = []  # (first frame, frames) of each cycle the client ran
        self.reports = []  # (frame time at the report, the client's last cycle start, delayed us)
        client.set_xrun_callback(self._on_xrun)

    def _on_xrun(self, delayed_usecs):
        last = self.cycles[-1][0] if self.cycles else self.client.frame_time
        self.reports.append((self.client.frame_time, last, delayed_usecs))

    def cycle(self, frames):
        """Process callback: notes this cycle's first frame."""
        self.cycles.append((self.client.last_frame_time, frames))

    def steps(self):
        """Pairs of consecutive cycles whose frames do not follow on."""
        c = list(self.cycles)
        return [(a, b) for a, b in zip(c, c[1:]) if b[0] != a[0] + a[1]]

    def untrusted(self):
        """The untrusted frame intervals [lo, hi), merged and sorted (computed again only when a
        cycle or a report came since)."""
        key = (len(self.cycles), len(self.reports))
        if getattr(self, "_cached", (None,))[0] != key:
            self._cached = (key, self._merge())
        return self._cached[1]

    def _merge(self):
        spans = [(min(f, last) - self.margin, max(f, last) + 2 * self.period) for f, last, _ in list(self.reports)]
        spans += [(min(a[0], b[0]) - self.period, max(a[0] + a[1], b[0] + b[1]) + self.period) for a, b in self.steps()]
        merged = []
        for lo, hi in sorted(spans):
            if merged and lo <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], hi))
            else:
                merged.append((lo, hi))
        return merged

    def touches(self, lo, hi=None):
        """Whether any untrusted interval meets the frames [lo, hi] (hi defaults to lo)."""
        hi = lo if hi is None else hi
        return any(a <= hi and lo < b for a, b in self.untrusted())

    def missed(self):
        """Frames of the gaps in the client's cycles (cycles it never ran)."""
        return sum(max(0, b[0] - a[0] - a[1]) for a, b in self.steps())

    def summary(self):
        """One line: what the server reported and what the client saw."""
        steps = self.steps()
        return (f"the server reported {len(self.reports)} xruns; the test client saw {len(steps)} irregular cycle "
                f"steps ({self.missed()} frames missed); {len(self.untrusted())} untrusted stretches")
