#!/usr/bin/env python3
"""Singing into `boop edit --backend jack -C DEVICE` while the loop plays (`*`), judged in steps.

    jack_edit_sing_test.py BOOP     (JACK_DEFAULT_SERVER names the running server)

A simulated singer (scripts/voice_synth.py, as scripts/transcribe-test.py sings: glottal pulses
through vowel formants, vibrato of 30-50 cents, scooped onsets, breath, 20 dB noise, onsets up to
20 ms off the step, a third of the notes legato) sings a four-bar melody into boop's capture port
in time with the loop as heard on boop's out_1. The microphone also hears boop itself (the loop's
clicks, looped back at half level, as a microphone in the room hears the speakers): that is how
boop measures the capture's latency, from the count-in's first click coming back. The melody's
track is silent (level 0), so the clicks are all boop sounds. The saved pattern must hold >= 95 %
of the sung notes on their step and pitch and no note where nothing was sung; the status line
shows the pitch heard while singing. About 20 s.
"""
import json
import os
import sys
import tempfile

import numpy as np
import voice_synth as vs
from edit_driver import Checks, Editor
from jack_player import Remote
from jack_test_lib import wait_until

BOOP = sys.argv[1]
RATE = 48000
BPM = 120
STEP = RATE * 60 // (BPM * 4)
BEAT = 4 * STEP
check = Checks()
work = tempfile.mkdtemp(prefix="boop-edit-sing.")
path = os.path.join(work, "sung.json")
json.dump({"version": 2, "bpm": BPM, "instruments": {"melody": {"level": 0}},
           "patterns": {"A": {"length": 64, "tracks": {}}}}, open(path, "w"))

rng = np.random.default_rng(41)
truth = vs.melody(rng, BPM)
lead = 0.5  # seconds of the take before the first step
voice, _ = vs.sing(truth, BPM, rng, rate=RATE)
take = np.concatenate([np.zeros(int(lead * RATE)), voice]).astype(np.float32) * 0.5

player = Remote(RATE)
try:
    with Editor(BOOP, path, args=["--backend", "jack", "--no-connect", "-C", "mic"]) as ed:
        check(ed.wait_for("step 1/64"), "the editor runs on JACK with a capture device", ed.text())
        wait_until("boop's capture port", 30, lambda: player.connect_mic("boop.*:in_1") is not None)
        check(bool(player.listen_to_boop()), "boop's out_1 is heard; the singer's microphone is connected to boop")
        player.sing(np.zeros(1, dtype=np.float32), 0, 0.5)   # the room: boop heard back at half level
        pressed = player.now()
        ed.keys("*")
        check(ed.wait_for("count-in"), "*: a count-in, then recording", ed.status_line())
        wait_until("the count-in's first click", 10, lambda: bool(player.onsets(pressed)))
        first = player.onsets(pressed)[0]
        # The singer comes in on the first step as heard (the fourth click's next beat).
        step0 = first + 4 * BEAT
        player.sing(take, step0 - int(lead * RATE), 0.5)
        check(ed.wait_for("voice latency", timeout=5), "the capture's latency measured from the click heard back",
              ed.status_line() + " / " + ed.text().splitlines()[-1])
        latency_line = [line for line in ed.text().splitlines() if "voice latency" in line]
        # Halfway through, the status line shows the pitch being sung.
        wait_until("the middle of the melody", 20, lambda: player.now() > step0 + 32 * STEP)
        seen = ed.wait_for("♪", timeout=3)
        check(seen, "the status line shows the pitch heard while singing", ed.status_line())
        wait_until("the end of the melody", 20, lambda: player.now() > step0 + 64 * STEP + RATE // 2)
        # The take's end has reached the capture once the editor no longer hears a pitch.
        check(ed.pump_until(lambda e: "♪" not in e.status_line(), 5), "the silence after the take is heard",
              ed.status_line())
        ed.keys("*")
        check(ed.wait_for("recording off"), "* stops recording", ed.status_line())
        ed.keys("s")
        check(ed.wait_for("saved"), "saved", ed.status_line())
        ed.keys("q")
        check(ed.wait_exit() == 0, "quits with 0", ed.status)
    song = json.load(open(path))
    got = sorted((n["step"], n["pitch"]) for n in song["patterns"]["A"]["tracks"].get("melody", []))
    want = sorted((step, midi) for step, midi, _, _ in truth)
    hit = len(set(got) & set(want))
    sung_steps = {s for s, _ in want}
    extra = sorted(n for n in got if n[0] not in sung_steps)
    print(f"note: {latency_line[-1].strip() if latency_line else 'no latency line'}; {player.summary()}")
    print(f"note: missed {sorted(set(want) - set(got))}, heard instead {sorted(set(got) - set(want))}")
    check(hit >= 0.95 * len(want) and not extra,
          f"sung into the loop: {hit} of {len(want)} notes ({100 * hit / len(want):.0f} %) on their step and pitch, "
          f"{len(extra)} where nothing was sung", (got, want))
finally:
    player.close()
sys.exit(1 if check.failures else 0)
