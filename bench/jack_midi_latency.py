#!/usr/bin/env python3
"""Latency and jitter of a JACK MIDI synth, measured on the server's frame clock.

    bench/jack_midi_latency.py boop BOOP        boop synth --backend jack --no-connect
    bench/jack_midi_latency.py fluidsynth       fluidsynth -a jack -m jack (FluidR3_GM.sf2)

Needs a running JACK server (JACK_DEFAULT_SERVER names it; e.g. jackd -d dummy -r 48000 -p 256).
As scripts/jack_synth_test.py does: a sender client writes 16 A4 note-ons at random offsets within
periods into the synth's MIDI input, a recorder client records its first audio output in the same
cycles; the delay of each note is the frame its output first passes -60 dB of the loudest note
(and 10 times the noise before the first note: FluidSynth is never exactly silent) minus its
event's frame. Prints one line: min/max delay and jitter (max - min) in frames.
"""
import random
import subprocess
import sys
import time

import jack
import numpy as np

which = sys.argv[1]
if which == "boop":
    cmd = [sys.argv[2], "synth", "--backend", "jack", "--no-connect", "--no-display", "-q"]
    client, midi_port, audio_port = "boop", "boop:midi_in", "boop:out_1"
else:
    cmd = ["fluidsynth", "-a", "jack", "-m", "jack", "-r", "48000", "-q",  # its shell waits on our pipe "-o", "audio.jack.autoconnect=0",
           "-R", "0", "-C", "0", "-o", "audio.jack.id=fsbench", "-o", "midi.jack.id=fsbench", "-g", "1",
           "/usr/share/sounds/sf2/FluidR3_GM.sf2"]
    client, midi_port, audio_port = "fsbench", None, None

proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
send = jack.Client("bench-send", no_start_server=True)
rec = jack.Client("bench-rec", no_start_server=True)
rate, period = send.samplerate, send.blocksize
out = send.midi_outports.register("out")
inp = rec.inports.register("in")
rng = random.Random(7)
events = [int((0.3 + i * 1.2) * rate) // period * period + rng.randrange(period) for i in range(16)]
total = int((0.3 + 16 * 1.2 + 0.5) * rate)
recording = np.zeros(total, dtype=np.float32)
state = {"start": None, "last": 0}


@send.set_process_callback
def on_send(frames):
    out.clear_buffer()
    if state["start"] is None:
        return
    now = send.last_frame_time - state["start"]
    for f in events:
        for off, data in ((f, (0x90, 69, 100)), (f + int(0.15 * rate), (0x80, 69, 0))):
            if now <= off < now + frames:
                out.write_midi_event(off - now, data)


@rec.set_process_callback
def on_record(frames):
    if state["start"] is None:
        return
    pos = rec.last_frame_time - state["start"]
    if 0 <= pos and pos + frames <= total:
        recording[pos:pos + frames] = inp.get_array()
    state["last"] = pos + frames


def find(kind_midi):
    names = [p.name for p in send.get_ports(client + ":", is_midi=kind_midi, is_input=kind_midi,
                                            is_output=not kind_midi)]
    return names[0] if names else None


try:
    with send, rec:
        deadline = time.monotonic() + 60
        while (midi_port or find(True)) is None or (audio_port or find(False)) is None:
            if time.monotonic() > deadline or proc.poll() is not None:
                raise SystemExit(f"{which}: its JACK ports did not appear")
            time.sleep(0.05)
        while midi_port and midi_port not in [p.name for p in send.get_ports()]:
            time.sleep(0.05)
        send.connect(out, midi_port or find(True))
        rec.connect(audio_port or find(False), inp)
        time.sleep(1)  # a bench, not a test: let the synth settle after the connection
        state["start"] = send.frame_time + rate // 2
        while state["last"] < total:
            time.sleep(0.05)
finally:
    proc.kill()
    proc.wait()
noise = float(np.max(np.abs(recording[:events[0] - period])))
threshold = max(10 * noise, 1e-3 * float(np.max(np.abs(recording))))
delays = []
for f in events:
    nz = np.flatnonzero(np.abs(recording[f - period:f + int(0.35 * rate)]) > threshold)
    delays.append(int(nz[0]) - period if len(nz) else None)
ok = [d for d in delays if d is not None]
print(f"{which}: period {period} at {rate} Hz: {len(ok)}/16 notes, delay {min(ok)}..{max(ok)} frames, "
      f"jitter {max(ok) - min(ok)} frames")
