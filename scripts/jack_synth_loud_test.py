#!/usr/bin/env python3
"""`boop synth --backend jack` played hard goes through the output stage's true-peak limiter.

    jack_synth_loud_test.py BOOP     (JACK_DEFAULT_SERVER names the running server)

Plays the same loud chord (eight keys at velocity 127 on channels 1, 2 and 3) twice, each time
into a fresh `boop synth --record FILE.wav`: once at --gain -24, well under the limiter, and once at
--gain +12. The files hold what the ports carried, after the output stage. Checked by an
independent meter (scripts/loudness.py: 4x oversampling through scipy, as BS.1770-4 Annex 2
describes): the quiet take is under the ceiling (so the gain alone made it), the loud take's true
peak is at or under the -1 dBTP ceiling although the chord at +12 dB would have gone 36 dB past the
quiet take's peak, far over it, and the loud take is louder (the gain applies before the limiter).

A cycle the server ran without boop (an xrun) is digital silence in the file, which keeps the
server's time line; the step into and out of it is the server's click, which a 4x interpolator
rings on past any ceiling. The true peak is judged on the frames those steps do not reach (the
dropouts are named); when they leave under half the held chord, the take says so and exits
INCONCLUSIVE (75) for scripts/jack-tests.sh to run it again. Prints PASS/FAIL lines; exits 1 on
a failure.
"""
import os
import signal
import subprocess
import sys
import tempfile

import jack
import numpy as np
from jack_test_lib import INCONCLUSIVE, Checks, send_plan, wait_until  # noqa: E402
from loudness import measure  # noqa: E402

BOOP = sys.argv[1]
check = Checks()
CHORD = [(0, 60), (0, 64), (0, 67), (0, 72), (1, 48), (1, 55), (1, 76), (2, 36)]
CEILING = -1.0


def take(gain, path):
    """Plays the chord into a synth at `gain` dB recording to `path`; returns boop's exit status."""
    boop = subprocess.Popen(
        [BOOP, "synth", "--backend", "jack", "--no-connect", "--no-display", "-q", "--gain", str(gain),
         "--record", path], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    send = jack.Client("boop-loud-send", no_start_server=True)
    rate = send.samplerate
    out = send.midi_outports.register("out")
    plan, state = [], {}
    for ch, key in CHORD:
        plan.append((int(0.1 * rate), bytes([0x90 | ch, key, 127])))
        plan.append((int(1.1 * rate), bytes([0x80 | ch, key, 0])))
    plan.sort(key=lambda e: e[0])

    send_plan(send, out, plan, state)

    try:
        with send:
            ports = lambda: [p.name for p in send.get_ports()]
            wait_until("boop:midi_in to appear", 60, lambda: "boop:midi_in" in ports() or boop.poll() is not None)
            if boop.poll() is not None:
                raise SystemExit("FAIL  boop synth exited at once: " + boop.stderr.read())
            send.connect(out, "boop:midi_in")
            state["start"] = send.frame_time + rate // 10
            wait_until("the chord to be played and released", 60,
                       lambda: state["next"] >= len(plan) and send.frame_time - state["start"] > 2 * rate)
        boop.send_signal(signal.SIGTERM)
        return boop.wait(30)
    finally:
        if boop.poll() is None:
            boop.kill()


with tempfile.TemporaryDirectory() as work:
    quiet_path, loud_path = os.path.join(work, "quiet.wav"), os.path.join(work, "loud.wav")
    rc_quiet, rc_loud = take(-24, quiet_path), take(12, loud_path)
    check(rc_quiet == 0 and rc_loud == 0, f"both takes ended with SIGTERM: exit {rc_quiet} and {rc_loud}")
    quiet, loud = measure(quiet_path, skip_dropouts=True), measure(loud_path, skip_dropouts=True)
    lost = sum(b - a for a, b in loud["dropouts"])
    if lost > 0.5 * loud["rate"]:
        print(f"INCONCLUSIVE  the server's xruns left {lost} frames of the loud take silent "
              f"({len(loud['dropouts'])} dropouts)", flush=True)
        sys.exit(INCONCLUSIVE)
    if quiet["dropouts"] or loud["dropouts"]:
        print(f"note: dropouts (cycles the server ran without boop): {len(quiet['dropouts'])} in the quiet take, "
              f"{len(loud['dropouts'])} ({lost} frames) in the loud one; their edges are left out of the true peak",
              flush=True)
    unlimited = quiet["true_peak_dbtp"] + 36
    check(quiet["true_peak_dbtp"] < CEILING - 3 and unlimited > CEILING,
          f"--gain -24: {quiet['true_peak_dbtp']:.2f} dBTP, under the limiter; the same chord at +12 dB would reach "
          f"{unlimited:.2f} dBTP without it")
    check(loud["true_peak_dbtp"] <= CEILING,
          f"--gain 12: true peak {loud['true_peak_dbtp']:.2f} dBTP, at or under the {CEILING} dBTP ceiling")
    check(loud["lufs"] > quiet["lufs"] + 12,
          f"the gain applies: {quiet['lufs']:.1f} LUFS at -24 dB, {loud['lufs']:.1f} LUFS at +12 dB (limited)")
sys.exit(1 if check.failures else 0)
