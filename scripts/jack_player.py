"""A JACK test client in a process of its own, for the editor's live tests
(jack_edit_record_test.py, jack_edit_sing_test.py): a keyboard, an ear on boop's out_1, and a
microphone, judged against the server's faults (jack_test_lib.ServerFaults)."""
import multiprocessing
import threading

import jack
import numpy as np
from jack_test_lib import ServerFaults


class Player:
    """The test's JACK client, boop-rec: a MIDI output (the player's keyboard), an audio input
    (boop's out_1) and an audio output (the singer's microphone: a take placed on chosen frames,
    with what boop sounds looped back into it at `loopback` gain, as a microphone in the room
    hears the speakers). It runs in a process of its own, so that the editor's screen, which the
    test reads with pyte, never holds up its process callback (Python's lock would make the
    server xrun, a fault of the test's that the judging would have to forgive)."""

    def __init__(self, seconds=120):
        self.client = jack.Client("boop-rec", no_start_server=True)
        self.out = self.client.midi_outports.register("out")
        self.ear = self.client.inports.register("in")
        self.mic = self.client.outports.register("mic")
        self.take, self.take_at, self.loopback = None, 0, 0.0
        self.faults = ServerFaults(self.client)
        self.lock = threading.Lock()
        self.plan = []  # (absolute frame, bytes), sorted; sent when their cycle comes
        # What boop sounded, by absolute frame from the first cycle on (a cycle this client
        # missed stays zeros): written in place, so the callback never waits on a long read.
        self.tape = np.zeros(int(self.client.samplerate * seconds), dtype=np.float32)
        self.first, self.end = None, 0
        self.client.set_process_callback(self.on_process)
        self.client.activate()

    def on_process(self, frames):
        self.faults.cycle(frames)
        start = self.client.last_frame_time
        if self.first is None:
            self.first = start
        i = start - self.first
        heard = self.ear.get_array()
        if 0 <= i and i + frames <= len(self.tape):
            self.tape[i:i + frames] = heard
            self.end = max(self.end, i + frames)
        mic = self.mic.get_array()
        mic[:] = heard * self.loopback
        if self.take is not None:
            a, b = start - self.take_at, start - self.take_at + frames
            lo, hi = max(a, 0), min(b, len(self.take))
            if lo < hi:
                mic[lo - a:hi - a] += self.take[lo:hi]
        self.out.clear_buffer()
        with self.lock:
            while self.plan and self.plan[0][0] < start + frames:
                frame, message = self.plan.pop(0)
                self.out.write_midi_event(max(0, frame - start), message)

    def rate(self):
        return self.client.samplerate

    def period(self):
        return self.client.blocksize

    def now(self):
        return self.client.frame_time

    def send_at(self, events):
        with self.lock:
            self.plan.extend(events)
            self.plan.sort(key=lambda e: e[0])

    def sing(self, samples, at, loopback):
        """The microphone hears `samples` from absolute frame `at` on, and boop at `loopback`."""
        self.take, self.take_at, self.loopback = np.asarray(samples, dtype=np.float32), at, loopback

    def connect_mic(self, pattern):
        """Connects the microphone to the first input port matching `pattern`; its name, or None."""
        ports = [p.name for p in self.client.get_ports(pattern, is_audio=True, is_input=True)]
        if ports:
            self.client.connect(self.mic, ports[0])
        return ports[0] if ports else None

    def keyboard_connected(self):
        return any(p.name.endswith(":midi_in") for p in self.client.get_all_connections(self.out))

    def listen_to_boop(self):
        ports = [p.name for p in self.client.get_ports("boop.*:out_1", is_audio=True, is_output=True)]
        if ports:
            self.client.connect(ports[0], self.ear)
        return ports

    def onsets(self, since, threshold=1e-3, quiet=2000):
        """Absolute frames after `since` where the sound rises over `threshold` after `quiet`
        frames under it."""
        if self.first is None:
            return []
        lo = max(0, since - self.first - quiet)
        loud = np.flatnonzero(np.abs(self.tape[lo:self.end]) > threshold)
        if len(loud) == 0:
            return []
        rises = loud[np.diff(np.concatenate([[-quiet - 1], loud])) > quiet] + lo + self.first
        return [int(f) for f in rises if f >= since]

    def downbeats(self, since):
        """The heard clicks after `since` that start a pass (the pattern's first step clicks louder)."""
        found = self.onsets(since)
        peaks = [float(np.max(np.abs(self.tape[c - self.first:c - self.first + 400]))) for c in found]
        return [c for c, p in zip(found, peaks) if p > 0.8 * max(peaks)] if peaks else []

    def silent_since(self, frames):
        return self.end > frames and float(np.max(np.abs(self.tape[self.end - frames:self.end]))) < 1e-6

    def touches(self, lo, hi):
        return self.faults.touches(lo, hi)

    def summary(self):
        return self.faults.summary()


    def close(self):
        self.client.deactivate()
        self.client.close()


def serve(conn):
    """The player's process: runs what the test asks, one call at a time, until `close`."""
    try:
        player = Player()
        conn.send(("ready", player.rate()))
    except Exception as e:  # noqa: BLE001 - said to the test in one line
        conn.send(("error", str(e)))
        return
    while True:
        name, args = conn.recv()
        conn.send(getattr(player, name)(*args))
        if name == "close":
            return


class Remote:
    """The test's side of the player: `remote.onsets(f)` runs `Player.onsets(f)` there."""

    def __init__(self, rate):
        self.conn, theirs = multiprocessing.Pipe()
        self.process = multiprocessing.Process(target=serve, args=(theirs,), daemon=True)
        self.process.start()
        what, value = self.conn.recv()
        if what == "error":
            raise SystemExit(f"FAIL  the test's JACK client did not open: {value}")
        if value != rate:
            raise SystemExit(f"FAIL  the server runs at {value} Hz; this test needs {rate}")

    def __getattr__(self, name):
        def call(*args):
            self.conn.send((name, args))
            return self.conn.recv()
        return call
