#!/usr/bin/env bash
# `train sing-interval` and the trainers' Scala tunings. A simulated singer answers
# sing-interval offline (scripts/train-sing-sim.py: targets, scores, the adaptive choice and the
# per-direction profile); the reference notes of identify and degrees rendered with --scl (19-tone
# equal, and just intonation placed by a --kbm) sound within 0.01 cent of the Scala arithmetic
# (written here from the files' own text), as do discrimination's two tones about their reference, and
# match's references with --scl are those pitches; bad
# lists, directions and tuning files are one line with the documented status.
# Run by scripts/cli-tests.sh with BOOP, ROOT and WORK set; by hand: BOOP=path/to/boop ROOT=. WORK=/tmp bash $0
set -uo pipefail
boop="$BOOP" work="$WORK/sing-interval"
mkdir -p "$work"
failures=0

python3 "$ROOT/scripts/train-sing-sim.py" "$boop" "$work/sim" --trials 16 || failures=$((failures + 1))

python3 - "$boop" "$work" "$ROOT" <<'PY' || failures=$((failures + 1))
import json, math, os, pathlib, subprocess, sys, warnings
import numpy as np
from scipy.io import wavfile
from scipy.signal import hilbert

boop, work, root = sys.argv[1:4]
warnings.simplefilter("ignore")   # the WAV's own chunks (scipy reads the samples, skips the rest)
failures = []
fail = failures.append


def write(name, text):
    """The file `name` in the work folder, holding `text`: its path."""
    path = pathlib.Path(work, name)
    path.write_text(text)
    return str(path)


def degrees(scl_text):
    """The scale's pitches in cents, by the Scala rule: a period means cents, else a ratio."""
    lines = [l.split()[0] for l in scl_text.splitlines() if not l.startswith("!")]
    def cents(v):
        if "." in v:
            return float(v)
        n, _, d = v.partition("/")
        return 1200 * math.log2(int(n) / int(d or 1))
    return [cents(v) for v in lines[2:2 + int(lines[1])]]


def scala_hz(cents, key, ref_key=60, ref_hz=261.62556530059862):
    """Key `key` with degree 0 on key 60 and `ref_key` at `ref_hz`, one key per degree."""
    def at(k):
        q, r = divmod(k - 60, len(cents))
        return q * cents[-1] + (cents[r - 1] if r else 0.0)
    return ref_hz * 2 ** ((at(key) - at(ref_key)) / 1200)


def tones(path):
    """Each tone's frequency: the sounding stretches (10 ms frames above -40 dB of the peak), and
    over the middle of each the slope of the analytic signal's unwrapped phase (least squares)."""
    rate, x = wavfile.read(path)
    x = x.astype(np.float64)
    hop = rate // 100
    level = np.sqrt(np.mean(x[: len(x) // hop * hop].reshape(-1, hop) ** 2, axis=1))
    on = np.concatenate([[False], level > np.max(level) * 0.01, [False]])
    starts = np.flatnonzero(on[1:] & ~on[:-1])
    ends = np.flatnonzero(~on[1:] & on[:-1])
    out = []
    for start, end in zip(starts, ends):
        phase = np.unwrap(np.angle(hilbert(x[start * hop:end * hop])))
        middle = slice(len(phase) // 5, len(phase) * 4 // 5)
        slope = np.polyfit(np.arange(len(phase))[middle] / rate, phase[middle], 1)[0]
        out.append(slope / (2 * np.pi))
    return out


edo19 = "! 19edo.scl\n!\n19-tone equal temperament\n 19\n!\n" + "".join(f" {1200 * i / 19:.5f}\n" for i in range(1, 20))
just = "! ji.scl\n5-limit just intonation on C\n12\n16/15\n9/8\n6/5\n5/4\n4/3\n45/32\n3/2\n8/5\n5/3\n9/5\n15/8\n2/1\n"
kbm = "! A4 = 440 Hz, degree 0 on C4\n12\n0\n127\n60\n69\n440.0\n12\n" + "".join(f"{i}\n" for i in range(12))
tunings = [
    ("19-EDO", ["--scl", write("19edo.scl", edo19)], lambda k: scala_hz(degrees(edo19), k)),
    ("just intonation", ["--scl", write("ji.scl", just), "--kbm", write("ji.kbm", kbm)],
     lambda k: scala_hz(degrees(just), k, 69, 440.0)),
]

for label, options, expect in tunings:
    # identify on C4 only, intervals up: each trial's notes are keys 60 and 60 + the width.
    out = os.path.join(work, f"identify-{label}.wav")
    p = subprocess.run([boop, "train", "identify", "--json", "--trials", "6", "--range", "C4..C4", "--directions", "up",
                        "--duration", "0.5", "--seed", "3", "--db", os.path.join(work, f"{label}.sqlite"), "-o", out]
                       + options, input="m2\n" * 6, capture_output=True, text=True)
    if p.returncode != 0:
        fail(f"identify {label}: exit {p.returncode}: {p.stderr.strip()}")
        continue
    trials = [json.loads(l) for l in p.stdout.splitlines() if '"drill"' in l]
    expected = []
    for t in trials:
        hz = t["phrases_hz"][0]
        # The upper note's key: the one whose tuned pitch the trial reports.
        upper = min(range(61, 73), key=lambda k: abs(math.log2(expect(k) / hz[1])))
        expected += [expect(60), expect(upper)]
        for reported, want in zip(hz, [expect(60), expect(upper)]):
            if abs(1200 * math.log2(reported / want)) > 0.01:
                fail(f"identify {label}: reported {reported} Hz for {want:.6f} Hz")
    measured = tones(out)
    if len(measured) != len(expected):
        fail(f"identify {label}: {len(measured)} tones in {out}, expected {len(expected)}")
        continue
    worst = max(abs(1200 * math.log2(m / e)) for m, e in zip(measured, expected))
    print(f"identify {label}: {len(measured)} tones rendered, worst {worst:.5f} cents from the Scala arithmetic")
    if worst > 0.01:
        fail(f"identify {label}: a rendered tone {worst:.4f} cents from the Scala arithmetic")

    # degrees in C with the drone: keys 48 and 55 (the drone), then the degree's key.
    out = os.path.join(work, f"degrees-{label}.wav")
    p = subprocess.run([boop, "train", "degrees", "--json", "--trials", "3", "--key", "C", "--duration", "0.4",
                        "--seed", "4", "--db", os.path.join(work, f"{label}.sqlite"), "-o", out] + options,
                       input="1\n" * 3, capture_output=True, text=True)
    if p.returncode != 0:
        fail(f"degrees {label}: exit {p.returncode}: {p.stderr.strip()}")
        continue
    major = [0, 2, 4, 5, 7, 9, 11]
    degree_trials = [json.loads(l) for l in p.stdout.splitlines() if '"drill"' in l]
    print(f"degrees {label}: {len(degree_trials)} cadences' tonic triads checked")
    for t in degree_trials:
        tonic_triad = t["phrases_hz"][0]
        want = [expect(60 + major[s]) for s in (0, 2, 4)]
        off = max(abs(1200 * math.log2(a / b)) for a, b in zip(tonic_triad, want))
        if off > 0.01:
            fail(f"degrees {label}: the tonic triad {tonic_triad} is {off:.4f} cents from {want}")

    # discrimination on D4: each trial's two tones lie evenly around the tuning's D4.
    out = os.path.join(work, f"run-{label}.wav")
    p = subprocess.run([boop, "train", "--json", "--trials", "3", "--note", "D4", "--duration", "0.4", "--seed", "5",
                        "--db", os.path.join(work, f"{label}.sqlite"), "-o", out] + options,
                       input="higher\n" * 3, capture_output=True, text=True)
    pairs = [(d["first_hz"], d["second_hz"]) for d in map(json.loads, p.stdout.splitlines()) if "first_hz" in d]
    measured = tones(out) if p.returncode == 0 else []
    centres = [math.sqrt(a * b) for a, b in pairs] + [math.sqrt(a * b) for a, b in zip(measured[::2], measured[1::2])]
    worst = max((abs(1200 * math.log2(c / expect(62))) for c in centres), default=math.inf)
    if len(centres) != 6 or worst > 0.01:
        fail(f"train {label}: exit {p.returncode}, {len(centres)} centres, worst {worst:.4f} cents: {p.stderr.strip()}")
    else:
        print(f"train {label}: 3 trials' tones centred on D4 within {worst:.5f} cents, reported and rendered")

    # match from a recording: each reference is the tuning's pitch of its key.
    sung = os.path.join(work, "sung.wav")
    subprocess.run([sys.executable, os.path.join(root, "scripts/sim-singer.py"), "--render", sung, "--sing",
                    "C4:0,D4:0,E4:0"], check=True)
    p = subprocess.run([boop, "train", "match", "--json", "--input", sung, "--references", "C4,D4,E4", "--db",
                        os.path.join(work, f"{label}.sqlite")] + options, capture_output=True, text=True)
    refs = [json.loads(l)["reference_hz"] for l in p.stdout.splitlines() if '"listening"' in l]
    want = [expect(k) for k in (60, 62, 64)]
    if p.returncode != 0 or len(refs) != 3 or max(abs(1200 * math.log2(a / b)) for a, b in zip(refs, want)) > 0.01:
        fail(f"match {label}: exit {p.returncode}, references {refs}, expected {want}: {p.stderr.strip()}")
    else:
        print(f"match {label}: references {', '.join(f'{r:.4f}' for r in refs)} Hz, as the Scala arithmetic")
for f in failures:
    print("FAIL " + f)
sys.exit(1 if failures else 0)
PY

check() {  # check NAME STATUS TEXT COMMAND...: the status, and exactly one stderr line holding TEXT
  local name="$1" expected="$2" text="$3"
  shift 3
  "$@" >"$work/out" 2>"$work/err"
  local status=$?
  if [ "$status" -ne "$expected" ] || [ "$(wc -l <"$work/err")" -ne 1 ] || ! grep -qF -- "$text" "$work/err"; then
    echo "FAIL $name: exit $status (expected $expected), stderr: $(cat "$work/err")"
    failures=$((failures + 1))
  else
    echo "ok   $name (exit $status) $(cat "$work/err")"
  fi
}
db=(--db "$work/refused.sqlite")
check "an unknown interval" 64 "--intervals" "$boop" train sing-interval "${db[@]}" --intervals M3,X9
check "a repeated interval" 64 "--intervals" "$boop" train sing-interval "${db[@]}" --intervals M3,M3
check "an unknown direction" 64 "--direction" "$boop" train sing-interval "${db[@]}" --direction sideways
check "a missing scale" 66 "nope.scl" "$boop" train sing-interval "${db[@]}" --scl "$work/nope.scl"
check "--kbm alone" 64 "--kbm" "$boop" train match "${db[@]}" --kbm "$work/ji.kbm"
check "--reference with --scl" 64 "--reference" "$boop" train match "${db[@]}" --scl "$work/19edo.scl" --reference 432
check "identify, a malformed scale" 65 "bad.scl" "$boop" train identify "${db[@]}" --json \
  --scl "$(printf 'x\n2\nabc\n2/1\n' >"$work/bad.scl"; echo "$work/bad.scl")"
printf '! one key\n1\n60\n60\n60\n60\n261.6\n1\n0\n' >"$work/one.kbm"
printf '! gaps\n12\n0\n127\n60\n69\n440.0\n12\n0\nx\n2\nx\n4\n5\nx\n7\nx\n9\nx\n11\n' >"$work/gaps.kbm"
check "sing-interval, an unmapped key inside the range" 64 "key 61 (C#4) is unmapped" "$boop" train sing-interval \
  "${db[@]}" --scl "$work/ji.scl" --kbm "$work/gaps.kbm" --range C4..C5
check "identify, an unmapped key" 64 "unmapped" "$boop" train identify "${db[@]}" --json --scl "$work/ji.scl" --kbm "$work/one.kbm"
[ -e "$work/refused.sqlite" ] && { echo "FAIL a refused session left a history behind"; failures=$((failures + 1)); }
exit $((failures > 0))
