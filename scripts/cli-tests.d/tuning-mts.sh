#!/usr/bin/env bash
# A song's tuning in a `.mid` export: by default one line on stderr saying the file does not carry
# it (exit 0, no tuning message in the file); with --mts, MIDI Tuning Standard Single Note Tuning
# Changes at the start of each pitched track, decoded here with mido and held key by key to the
# Scala arithmetic (written out here from the files' own text) within MTS's resolution
# (100/16384 = 0.0061 cent): a 19-tone equal scale, just intonation placed by a mapping with an
# unmapped key, and Bohlen-Pierce (13 steps of a 3/1 tritave: a period that is no octave, with keys
# beyond MTS's range, sent as "no change" and said on stderr).
# Run by scripts/cli-tests.sh with BOOP, ROOT and WORK set; by hand: BOOP=path/to/boop ROOT=. WORK=/tmp bash $0
set -uo pipefail
boop="$BOOP" work="$WORK/tuning-mts"
mkdir -p "$work"

# mido lives in the system Python.
/usr/bin/python3 - "$boop" "$work" <<'PY'
import json, math, subprocess, sys
import mido

boop, work = sys.argv[1:3]
failures = 0
RESOLUTION = 100 / 16384  # cents: one step of MTS's 14-bit fraction of a semitone


def fail(message):
    global failures
    print("FAIL " + message)
    failures += 1


def write(name, text):
    with open(f"{work}/{name}", "w") as f:
        f.write(text)
    return name


def pitch_cents(field):
    """A pitch line's value, by the Scala format's rule: a period means cents, else a ratio."""
    if "." in field:
        return float(field)
    num, _, den = field.partition("/")
    return 1200 * math.log2(int(num) / int(den or 1))


def lines(text):
    return [l.strip() for l in text.splitlines() if not l.startswith("!")]


def scala_keys(scl, kbm=None):
    """Every key's Hz (None: unmapped) by Scala's arithmetic, from the files' text."""
    body = lines(scl)
    count = int(body[1].split()[0])
    cents = [0.0] + [pitch_cents(l.split()[0]) for l in body[2:2 + count]]
    period = cents[-1]

    def degree(j):  # any degree, the period repeating
        q, r = divmod(j, count)
        return q * period + cents[r]

    if kbm is None:
        size, first, last, middle, ref_key, ref_hz, octave, mapping = 0, 0, 127, 60, 60, 261.62556530059862, count, []
    else:
        k = [l.split()[0] for l in lines(kbm) if l]
        size, first, last, middle, ref_key = (int(v) for v in k[:5])
        ref_hz, octave, mapping = float(k[5]), int(k[6]), k[7:7 + size]

    def key_cents(key):
        if key < first or key > last:
            return None
        if size == 0:
            return degree(key - middle)
        q, r = divmod(key - middle, size)
        return None if mapping[r] == "x" else q * degree(octave) + degree(int(mapping[r]))

    ref = key_cents(ref_key)
    return [None if key_cents(k) is None else ref_hz * 2 ** ((key_cents(k) - ref) / 1200) for k in range(128)]


def song(name, tuning):
    body = {"version": 2, "bpm": 120,
            "instruments": {"melody": {"voice": "sine"}, "bass": {"voice": "sub"}},
            "patterns": {"A": {"length": 16, "tracks": {
                "melody": [{"step": 0, "pitch": 60}, {"step": 4, "pitch": 67}],
                "bass": [{"step": 0, "pitch": 36}],
                "rhythm": [{"step": 0, "pitch": 36}]}}}}
    if tuning is not None:
        body["tuning"] = tuning
    with open(f"{work}/{name}", "w") as f:
        json.dump(body, f)
    return f"{work}/{name}"


def decode(path):
    """Per track: its name, the keys its tuning messages set ({key: (semitone, fraction) or None for
    "no change"}), how many such messages, and whether it selects tuning program 0 by RPN 3."""
    out = []
    for track in mido.MidiFile(path).tracks:
        name, keys, messages, rpn, select = "", {}, 0, {}, False
        for m in track:
            if m.type == "track_name":
                name = m.name
            elif m.type == "sysex" and list(m.data[:4]) == [0x7F, 0x7F, 0x08, 0x02]:
                messages += 1
                if m.data[4] != 0 or len(m.data) != 6 + 4 * m.data[5]:
                    fail(f"{path}: malformed tuning message {m.hex()[:40]}...")
                for i in range(m.data[5]):
                    key, xx, yy, zz = m.data[6 + 4 * i:10 + 4 * i]
                    if key in keys:
                        fail(f"{path}: key {key} tuned twice")
                    keys[key] = None if (xx, yy, zz) == (0x7F, 0x7F, 0x7F) else (xx, yy << 7 | zz)
            elif m.type == "control_change" and m.control in (101, 100, 6):
                rpn[m.control] = m.value
                if m.control == 6 and rpn.get(101) == 0 and rpn.get(100) == 3 and m.value == 0:
                    select = True
        out.append((name, keys, messages, select))
    return out


def check_mts(label, scl_name, kbm_name, expect_outside):
    path = song(f"{label}.json", {"scl": scl_name, **({"kbm": kbm_name} if kbm_name else {})})
    mid = f"{work}/{label}.mid"
    run = subprocess.run([boop, "render", path, "-o", mid, "--mts"], capture_output=True, text=True)
    warned = "outside what MIDI Tuning Standard holds" in run.stderr
    if run.returncode != 0 or warned != expect_outside or len(run.stderr.splitlines()) != int(expect_outside):
        fail(f"{label} --mts: exit {run.returncode}, stderr {run.stderr!r}")
        return
    scl = open(f"{work}/{scl_name}").read()
    kbm = open(f"{work}/{kbm_name}").read() if kbm_name else None
    expected = scala_keys(scl, kbm)
    worst, tuned, unchanged = 0.0, 0, 0
    for name, keys, messages, select in decode(mid)[1:]:
        if name == "Rhythm":
            if messages:
                fail(f"{label}: the drum track carries tuning messages")
            continue
        if sorted(keys) != list(range(128)) or not select:
            fail(f"{label}, {name}: keys {len(keys)} of 128, tuning program selected: {select}")
            continue
        for key in range(128):
            hz = expected[key]
            in_range = hz is not None and 8.1757989 <= hz < 440 * 2 ** ((127 + 16383 / 16384 - 69) / 12)
            if keys[key] is None:
                unchanged += 1
                if in_range:
                    fail(f"{label}, {name}: key {key} ({hz:.4f} Hz) sent as no change")
                continue
            if not in_range:
                fail(f"{label}, {name}: key {key} tuned though the tuning has {hz} there")
                continue
            semitone, fraction = keys[key]
            off = 100 * (semitone + fraction / 16384 - 69) - 1200 * math.log2(hz / 440)
            worst = max(worst, abs(off))
            tuned += 1
    print(f"{label} --mts: {tuned} key tunings in the pitched tracks, {unchanged} sent as no change, "
          f"worst {worst:.5f} cent from the Scala arithmetic (resolution {RESOLUTION:.5f})")
    if worst > RESOLUTION:
        fail(f"{label}: worst {worst:.5f} cent, more than MTS's resolution")


edo19 = "! 19edo.scl\n19-tone equal temperament\n19\n" + "".join(
    f"{1200 * i / 19:.10f}\n" for i in range(1, 19)) + "2/1\n"
write("19edo.scl", edo19)
write("ji.scl", "! ji.scl\n5-limit just intonation\n12\n16/15\n9/8\n6/5\n5/4\n4/3\n45/32\n3/2\n8/5\n5/3\n9/5\n15/8\n2/1\n")
write("ji.kbm", "! ji.kbm: A4 = 440 Hz, F# unmapped\n12\n0\n127\n60\n69\n440.0\n12\n0\n1\n2\n3\n4\n5\nx\n7\n8\n9\n10\n11\n")
write("bp.scl", "! bp.scl\nBohlen-Pierce, equal-tempered\n13\n" + "".join(
    f"{1200 * math.log2(3) * i / 13:.10f}\n" for i in range(1, 13)) + "3/1\n")
check_mts("edo19", "19edo.scl", None, False)
check_mts("ji", "ji.scl", "ji.kbm", False)
check_mts("bp", "bp.scl", None, True)

# Without --mts: one line saying the tuning is not in the file, exit 0, no tuning message.
plain = song("plain.json", {"scl": "19edo.scl"})
run = subprocess.run([boop, "render", plain, "-o", f"{work}/plain.mid"], capture_output=True, text=True)
if run.returncode != 0 or len(run.stderr.splitlines()) != 1 or "not in a Standard MIDI File" not in run.stderr:
    fail(f".mid without --mts: exit {run.returncode}, {run.stderr!r}")
elif any(messages for _, _, messages, _ in decode(f"{work}/plain.mid")):
    fail(".mid without --mts carries tuning messages")
else:
    print(f".mid without --mts: exit 0, {run.stderr.strip()}")
# --mts on a song without a tuning: a 12-tone equal file, nothing said.
untuned = song("untuned.json", None)
run = subprocess.run([boop, "render", untuned, "-o", f"{work}/untuned.mid", "--mts"], capture_output=True, text=True)
if run.returncode != 0 or run.stderr or any(m for _, _, m, _ in decode(f"{work}/untuned.mid")):
    fail(f"--mts without a tuning: exit {run.returncode}, {run.stderr!r}")
# --mts with audio: a usage error (64), one line, no file.
run = subprocess.run([boop, "render", plain, "-o", f"{work}/plain.wav", "--mts"], capture_output=True, text=True)
if run.returncode != 64 or "--mts" not in run.stderr or len(run.stderr.strip().splitlines()) != 1:
    fail(f"--mts with a .wav: exit {run.returncode} (expected 64), {run.stderr!r}")
sys.exit(1 if failures else 0)
PY
