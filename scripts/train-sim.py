#!/usr/bin/env python3
"""Simulated listeners answering `boop train --json` over its machine protocol, as a program would.

    scripts/train-sim.py BOOP WORKDIR [--sessions N] [--trials 20,40,80] [--check-wav K]

Each session is a listener with a known 75 % point (log-uniform over 2 ... 40 cents), a Weibull
slope (1.5 ... 4) and a lapse rate (0 ... 4 %). It reads each trial's two frequencies, answers
"higher" or "lower" with the probability its psychometric function gives for the difference, and
compares the reported threshold with its own 75 % point. Printed per trial count: how often the
estimate is within a factor of 1.3, the median error factor, how often the 68 % interval covers
the truth; beside it a 2-down-1-up staircase (Levitt) run on the same listeners in this script.
With --check-wav K, the first K sessions also write `-o trials.wav`, and every tone in it is
measured: its frequency must match the one reported within 0.01 cent, in the order reported.
Exit 1 when, at 40 trials, fewer than 70 % of estimates land within 1.3x.

Listeners the range cannot measure: --true-threshold T gives every listener a 75 % point of T
cents (slopes and lapses drawn as above), --guess makes every listener answer at random, and
--max-cents M asks boop for differences up to M. Then the script counts the sessions reported
beyond the range (`above_range`), at chance (`at_chance`), and measured, and how often a measured
interval holds T; it exits 1 when any session reports an interval that excludes the truth while
calling it measured less often than --expect-cover says (a fraction, default 0: not checked), or
when --expect-above F is set and fewer than that fraction are reported beyond the range.
"""

import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import warnings

import numpy as np
import scipy.io.wavfile
from scipy.signal import hilbert

ap = argparse.ArgumentParser()
ap.add_argument("boop")
ap.add_argument("work")
ap.add_argument("--sessions", type=int, default=100)
ap.add_argument("--trials", default="40")
ap.add_argument("--check-wav", type=int, default=3)
ap.add_argument("--seed", type=int, default=2026)
ap.add_argument("--exercise", choices=["pitch", "interval"], default="pitch",
                help="interval: `boop train interval --json`, the listener judging the widths of two intervals")
ap.add_argument("--true-threshold", type=float, help="every listener's 75 %% point, cents")
ap.add_argument("--guess", action="store_true", help="listeners who only guess")
ap.add_argument("--max-cents", type=float, help="boop's --max-cents")
ap.add_argument("--expect-above", type=float, default=0.0,
                help="fail unless at least this fraction of sessions is reported above the range")
ap.add_argument("--expect-cover", type=float, default=0.0,
                help="fail unless at least this fraction of sessions is measured with an interval holding the truth")
args = ap.parse_args()
os.makedirs(args.work, exist_ok=True)
rng = random.Random(args.seed)


class Listener:
    def __init__(self, r):
        self.threshold = 2 * 20 ** r.random()
        if args.true_threshold:
            self.threshold = args.true_threshold
        self.slope = 1.5 + 2.5 * r.random()
        self.lapse = 0.04 * r.random()
        target = 0.25 / (0.5 - self.lapse)
        self.scale = self.threshold / (-math.log(1 - target)) ** (1 / self.slope)

    def p_correct(self, cents):
        if args.guess:
            return 0.5
        return 0.5 + (0.5 - self.lapse) * (1 - math.exp(-((cents / self.scale) ** self.slope)))


def interval_session(listener, trials, r):
    cmd = [args.boop, "train", "interval", "--json", "--trials", str(trials), "--seed", str(r.randrange(1 << 32)),
           "--interval", r.choice(["M3", "P4", "P5", "m6"]), "-o", os.path.join(args.work, "scratch.wav"), "-q",
           "--db", os.path.join(args.work, "sim.sqlite")]
    cmd += ["--max-cents", str(args.max_cents)] if args.max_cents else []
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    final = None
    for line in p.stdout:
        o = json.loads(line)
        if "threshold_cents" in o:
            final = o
            break
        w1 = 1200 * math.log2(o["first_hz"][1] / o["first_hz"][0])
        w2 = 1200 * math.log2(o["second_hz"][1] / o["second_hz"][0])
        right = r.random() < listener.p_correct(abs(w2 - w1))
        p.stdin.write(("wider" if (w2 > w1) == right else "narrower") + "\n")
        p.stdin.flush()
    p.stdin.close()
    p.wait()
    if p.returncode != 0 or final is None or final["trials"] != trials:
        sys.exit(f"boop train interval exited {p.returncode}, final {final}")
    return final, []


def session(listener, trials, r, wav=None):
    if args.exercise == "interval":
        return interval_session(listener, trials, r)
    cmd = [args.boop, "train", "--json", "--trials", str(trials), "--seed", str(r.randrange(1 << 32)),
           "--db", os.path.join(args.work, "sim.sqlite"), "-q"]
    cmd += ["-o", wav] if wav else ["-o", os.path.join(args.work, "scratch.wav")]
    cmd += ["--max-cents", str(args.max_cents)] if args.max_cents else []
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    shown, final = [], None
    for line in p.stdout:
        o = json.loads(line)
        if "threshold_cents" in o:
            final = o
            break
        shown.append(o)
        cents = abs(1200 * math.log2(o["second_hz"] / o["first_hz"]))
        right = r.random() < listener.p_correct(cents)
        second_higher = o["second_hz"] > o["first_hz"]
        p.stdin.write(("higher" if second_higher == right else "lower") + "\n")
        p.stdin.flush()
    p.stdin.close()
    p.wait()
    if p.returncode != 0 or final is None or final["trials"] != trials:
        sys.exit(f"boop train exited {p.returncode}, final {final}")
    return final, shown


def staircase(listener, trials, r):
    cents, right_in_a_row, last, reversals = 30.0, 0, 0, []
    for _ in range(trials):
        correct = r.random() < listener.p_correct(cents)
        direction = 0
        if correct:
            right_in_a_row += 1
            if right_in_a_row == 2:
                right_in_a_row, direction = 0, -1
        else:
            right_in_a_row, direction = 0, 1
        if direction:
            if last and direction != last:
                reversals.append(cents)
            last = direction
            cents = min(max(cents / 1.41 if direction < 0 else cents * 1.41, 0.1), args.max_cents or 100)
    used = reversals[2:] or reversals or [cents]
    return math.exp(sum(map(math.log, used)) / len(used))


def measure(x, rate):
    """A steady tone's frequency from the slope of its analytic signal's unwrapped phase."""
    phase = np.unwrap(np.angle(hilbert(x)))
    n = np.arange(len(x))
    trim = slice(len(x) // 10, len(x) - len(x) // 10)
    slope = np.polyfit(n[trim], phase[trim], 1)[0]
    return slope * rate / (2 * math.pi)


def check_wav(path, shown, duration=1.0, gap=0.4, between=1.0):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rate, data = scipy.io.wavfile.read(path)
    data = data.astype(np.float64)
    worst = 0.0
    for k, o in enumerate(shown):
        start = k * (2 * duration + gap + between)
        for which, hz in ((0, o["first_hz"]), (1, o["second_hz"])):
            t0 = start + which * (duration + gap)
            seg = data[int((t0 + 0.05) * rate):int((t0 + duration - 0.05) * rate)]
            cents = 1200 * math.log2(measure(seg, rate) / hz)
            worst = max(worst, abs(cents))
    return worst


def limits(listeners, trials):
    """Listeners the default range may not measure: what each session said, against the truth."""
    r = random.Random(args.seed + trials)
    above = chance = measured = covers = 0
    for listener in listeners:
        final, _ = session(listener, trials, r)
        above += final["above_range"]
        chance += final["at_chance"]
        if final["threshold_cents"] is not None:
            measured += 1
            covers += final["low_cents"] <= listener.threshold <= final["high_cents"]
    n = len(listeners)
    who = "guessing listeners" if args.guess else f"listeners at {args.true_threshold:g} cents"
    print(f"{trials} trials, {n} {who}, --max-cents {args.max_cents or 100:g}: above the range in {above}, "
          f"at chance in {chance}, measured in {measured} (68 % interval holds the truth in {covers})")
    ok = above >= args.expect_above * n and covers >= args.expect_cover * n
    return 0 if ok else 1


status = 0
listeners = [Listener(rng) for _ in range(args.sessions)]
if args.guess or args.true_threshold:
    sys.exit(max(limits(listeners, int(t)) for t in args.trials.split(",")))
for trials in map(int, args.trials.split(",")):
    within = covered = stairs_within = 0
    errors, stairs_errors, wav_worst = [], [], 0.0
    r = random.Random(args.seed + trials)
    for i, listener in enumerate(listeners):
        wav = os.path.join(args.work, f"trials-{i}.wav") if i < args.check_wav and args.exercise == "pitch" else None
        final, shown = session(listener, trials, r, wav)
        t = listener.threshold
        # A session reported beyond the range or at chance measured nothing: a miss, its error
        # taken at the range's top.
        estimate = final["threshold_cents"] or final["max_cents"]
        measured = final["threshold_cents"] is not None
        within += measured and t / 1.3 <= estimate <= t * 1.3
        covered += measured and final["low_cents"] <= t <= final["high_cents"]
        errors.append(abs(math.log(estimate / t)))
        s = staircase(listener, trials, r)
        stairs_within += t / 1.3 <= s <= t * 1.3
        stairs_errors.append(abs(math.log(s / t)))
        if wav:
            wav_worst = max(wav_worst, check_wav(wav, shown))
            os.remove(wav)
    n = len(listeners)
    print(f"{trials} trials, {n} simulated listeners: boop train {args.exercise} within 1.3x of the 75 % point in "
          f"{100 * within / n:.0f} %, median error x{math.exp(statistics.median(errors)):.2f}, "
          f"68 % interval covers {100 * covered / n:.0f} %; 2-down-1-up staircase within 1.3x in "
          f"{100 * stairs_within / n:.0f} %, median error x{math.exp(statistics.median(stairs_errors)):.2f}")
    if args.check_wav and args.exercise == "pitch":
        ok = wav_worst <= 0.01
        print(f"{'PASS' if ok else 'FAIL'}  the tones in -o are the frequencies reported, in order: "
              f"worst {wav_worst:.5f} cent over {min(args.check_wav, n)} sessions")
        status |= not ok
    if trials == 40 and within / n < 0.70:
        status = 1
sys.exit(status)
