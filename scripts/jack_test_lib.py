"""What the JACK test clients (scripts/jack_*_test.py) share: PASS/FAIL lines with a count of the
failures for the exit status, waiting for a condition within a generous limit, and a sender that
writes MIDI events on chosen frames, what the server did to the timing, and a client that makes
the server xrun on demand."""
import os
import shutil
import signal
import subprocess
import time

import jack
import numpy as np


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


class SleepyClient:
    """A client that makes the server xrun on demand: `sleep(seconds)` has its process callback
    sleep that long once (longer than a period: the server's cycle does not finish in time).
    Returns the server frame of the cycle it slept in. Activate it with `with x.client:`."""

    def __init__(self, name):
        import threading
        self.client = jack.Client(name, no_start_server=True)
        self._want = 0.0
        self._done = threading.Event()
        self._frame = None

        @self.client.set_process_callback
        def on_process(_frames):
            if self._want > 0:
                self._frame = self.client.last_frame_time
                time.sleep(self._want)
                self._want = 0.0
                self._done.set()

    def sleep(self, seconds):
        self._done.clear()
        self._want = seconds
        wait_until("the sleeper's cycle", 60, self._done.is_set)
        return self._frame


SERVER = os.environ.get("JACK_DEFAULT_SERVER", "default")


def server_up():
    out = subprocess.run(["jack_lsp", "-s", SERVER], capture_output=True, text=True).stdout
    return "system:playback_1" in out


def start_server(work):
    """jackd with the dummy driver, real-time when permitted; returns the process once it takes clients."""
    if server_up():
        raise SystemExit(f"FAIL  a JACK server named {SERVER} is already running; stop it first")
    prefix = ["setpriv", "--pdeathsig", "KILL"] if shutil.which("setpriv") else []
    log = open(os.path.join(work, "jackd.log"), "a")
    for rt in ("-R", "-r"):
        proc = subprocess.Popen(prefix + ["jackd", rt, "-n", SERVER, "-d", "dummy", "-r", "48000", "-p", "256",
                                          "-w", "5333"], stdout=log, stderr=log, stdin=subprocess.DEVNULL)
        end = time.monotonic() + 60
        while time.monotonic() < end and proc.poll() is None and not server_up():
            time.sleep(0.05)
        if server_up():
            return proc
        proc.kill()
        proc.wait()
    raise SystemExit("FAIL  jackd did not start: " + open(os.path.join(work, "jackd.log")).read()[-500:])


def kill_server(proc):
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    forget_metadata()


def forget_metadata():
    """After a server was killed: JACK2's metadata database (Berkeley DB in /dev/shm/jack_db-UID)
    is removed, so the next server and clients make a fresh one. A server killed while it held
    the database's lock (it takes it when a client leaves) leaves the lock held, and every later
    jack_client_open and jack_lsp waits for it for ever; a run of this stage hung so. Only where
    the stage has a /dev/shm of its own (BOOP_JACK_PRIVATE_SHM=1, set by the test command): the
    machine's is the user's JACK's too."""
    if os.environ.get("BOOP_JACK_PRIVATE_SHM") == "1":
        shutil.rmtree(f"/dev/shm/jack_db-{os.getuid()}", ignore_errors=True)


class Ear:
    """A JACK client listening to boop's out_1: how loud it was since `reset`. Closed before the
    server is killed (a client of a dead server must be closed before the next one opens)."""

    def __init__(self):
        self.client = jack.Client("boop-ear", no_start_server=True)
        self.port = self.client.inports.register("in")
        self.peak = 0.0

        @self.client.set_process_callback
        def on_process(frames):
            self.peak = max(self.peak, float(np.max(np.abs(self.port.get_array()))))

        self.client.activate()

    def listen_to_boop(self):
        ports = [p.name for p in self.client.get_ports("boop.*:out_1", is_audio=True, is_output=True)]
        if not ports:
            return False
        try:
            self.client.connect(ports[0], self.port)
        except jack.JackError:
            # boop's port went as it was found (the server dropped a client it found slow, and
            # boop, reconnecting, registers it again): look again.
            return False
        self.peak = 0.0
        return True

    def close(self):
        self.client.deactivate()
        self.client.close()


def hears_boop(ear):
    wait_until("boop's out_1 to appear", 30, ear.listen_to_boop)
    wait_until("boop's loop to be heard", 30, lambda: ear.peak > 1e-3)
    return True
