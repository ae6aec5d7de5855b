#!/usr/bin/env python3
"""An independent model of a version-2 song (docs/DESIGN.md, "Song files") checked against what
`boop render` wrote into a folder (scripts/cli-tests.d/song.sh): every onset on the formula's
frame, the .mid holding the same notes and tempo changes, the muted track silent, the pitched
instruments in tune. Usage: song_model.py FOLDER (with song.json, solo-*.wav, only-muted.wav,
song.mid). Prints one line per failure; exits 1 on any."""
import json, struct, sys

import warnings

import numpy as np
import scipy.io.wavfile


def read_wav(path):
    """(samples as float64 frames x channels, rate) of a float WAV boop wrote."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rate, x = scipy.io.wavfile.read(path)
    x = np.asarray(x, dtype=np.float64)
    return (x if x.ndim == 2 else x[:, None]), rate

M = (1 << 64) - 1
TRACKS = ["melody", "chords", "bass", "rhythm"]
RATE = 44100


def splitmix(v):
    z = (v + 0x9E3779B97F4A7C15) & M
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    return z ^ (z >> 31)


def draw(seed, pattern, pass_, track, note):
    x = (seed * 0x9E3779B97F4A7C15) & M
    for part in (pattern, pass_, track, note):
        x = splitmix(x ^ part)
    return (x >> 11) / float(1 << 53) * 100


def position(k, length, swing):
    return float(k - 1) + 2 * swing / 100 if (k % length) % 2 == 1 else float(k)


def model(song, seed=None):
    """Every note that plays: (track, pitch, on frame, on tick, off tick), and the tempo changes."""
    seed = song.get("seed", 0) if seed is None else seed
    names = list(song["patterns"])
    chain = song.get("song") or [{"pattern": n} for n in names]
    inst = song.get("instruments", {})
    soloing = any(inst.get(t, {}).get("solo", False) for t in TRACKS)
    audible = [t for t in TRACKS if not inst.get(t, {}).get("mute", False)
               and (not soloing or inst.get(t, {}).get("solo", False))]
    passes = {n: 0 for n in names}
    notes, tempos = [], []
    frame0, tick0 = 0, 0
    for entry in chain:
        name = entry["pattern"]
        p = song["patterns"][name]
        length = p.get("length", 16)
        swing = p.get("swing", song.get("swing", 50))
        bpm = entry.get("bpm", song.get("bpm", 120))
        fps = RATE * 60.0 / (bpm * 4.0)
        tempos.append((tick0, round(60_000_000 / bpm)))
        steps = length * entry.get("repeat", 1)
        for k in range(steps):
            s, pass_ = k % length, passes[name] + k // length
            for ti, track in enumerate(TRACKS):
                if track not in audible:
                    continue
                for ni, n in enumerate(p.get("tracks", {}).get(track, [])):
                    if n["step"] != s:
                        continue
                    if "condition" in n:
                        a, b = map(int, n["condition"].split(":"))
                        if pass_ % b != a - 1:
                            continue
                    prob = n.get("probability", 100)
                    if prob < 100 and draw(seed, names.index(name), pass_, ti, ni) >= prob:
                        continue
                    on = position(k, length, swing)
                    end = position(k + n.get("length", 1), length, swing)
                    r = n.get("ratchet", 1)
                    for j in range(r):
                        span = (end - on) / r
                        hit = on + j * span
                        gate = 0.8 * (n.get("length", 1) if r == 1 else span)
                        t_on = tick0 + round(hit * 120)
                        if n.get("velocity") == "sustain":
                            t_off = tick0 + round((end if j == r - 1 else on + (j + 1) * span) * 120)
                        else:
                            t_off = t_on + round(gate * 120)
                        f_on = frame0 + int(np.floor(hit * fps + 0.5))
                        notes.append((track, n["pitch"], f_on, t_on, t_off, n.get("length", 1)))
        passes[name] += entry.get("repeat", 1)
        frame0 += int(np.floor(steps * fps + 0.5))
        tick0 += steps * 120
    return notes, tempos


def onsets(path, pitched):
    x, rate = read_wav(path)
    loud = np.any(x != 0, axis=1)
    idx = np.flatnonzero(loud)
    if idx.size == 0:
        return []
    # A new note: sound after at least 32 silent frames. A pitched voice's first frame is its
    # envelope at zero (exactly silent), so the onset is the frame before the first sound.
    starts = [idx[0]] + [b for a, b in zip(idx[:-1], idx[1:]) if b - a > 32]
    return [int(s) - (1 if pitched else 0) for s in starts]


def fit_hz(x, rate, guess):
    """Least-squares sine fit (Gauss-Newton on the frequency)."""
    t = np.arange(len(x)) - len(x) / 2
    f = guess
    for _ in range(12):
        w = 2 * np.pi * f / rate
        basis = np.stack([np.cos(w * t), np.sin(w * t), np.ones_like(t)], axis=1)
        coef, *_ = np.linalg.lstsq(basis, x, rcond=None)
        a, b = coef[0], coef[1]
        deriv = t * (-a * np.sin(w * t) + b * np.cos(w * t)) * 2 * np.pi / rate
        full = np.concatenate([basis, deriv[:, None]], axis=1)
        sol, *_ = np.linalg.lstsq(full, x, rcond=None)
        f += sol[3]
    return f


def read_midi(path):
    data = open(path, "rb").read()
    ntracks = struct.unpack(">H", data[10:12])[0]
    i, notes, tempos = 14, [], []
    for _ in range(ntracks):
        size = struct.unpack(">I", data[i + 4:i + 8])[0]
        j, end, tick = i + 8, i + 8 + size, 0
        while j < end:
            delta = 0
            while True:
                c = data[j]; j += 1
                delta = (delta << 7) | (c & 0x7F)
                if c < 0x80:
                    break
            tick += delta
            status = data[j]
            if status == 0xFF:
                kind, length = data[j + 1], data[j + 2]
                if kind == 0x51:
                    tempos.append((tick, int.from_bytes(data[j + 3:j + 6], "big")))
                j += 3 + length
            elif status & 0xF0 in (0x90, 0x80, 0xB0):
                if status & 0xF0 == 0x90 and data[j + 2] > 0:
                    notes.append((status & 0x0F, data[j + 1], tick))
                j += 3
            elif status & 0xF0 == 0xC0:
                j += 2
            else:
                raise ValueError(f"unexpected status {status:#x}")
        i = end
    return notes, tempos


def main(folder):
    failures = 0

    def fail(msg):
        nonlocal failures
        failures += 1
        print("FAIL", msg)

    song = json.load(open(f"{folder}/song.json"))
    for track in TRACKS:
        solo = json.load(open(f"{folder}/solo-{track}.json"))
        expected = sorted({n[2] for n in model(solo)[0] if n[0] == track})
        got = onsets(f"{folder}/solo-{track}.wav", track != "rhythm")
        if got != expected:
            bad = next(((g, e) for g, e in zip(got, expected) if g != e), None)
            fail(f"{track}: {len(got)} onsets, expected {len(expected)}; first difference (got, expected) {bad}")
        else:
            print(f"ok {track}: {len(got)} onsets on the formula's frames")
    if np.any(read_wav(f"{folder}/only-muted.wav")[0] != 0):
        fail("the muted track sounds")
    notes, tempos = model(song)
    channel = {"melody": 0, "chords": 1, "bass": 2, "rhythm": 9}
    expected = sorted((channel[n[0]], n[1], n[3]) for n in notes)
    midi_notes, midi_tempos = read_midi(f"{folder}/song.mid")
    if sorted(midi_notes) != expected:
        fail(f".mid: {len(midi_notes)} notes, the model {len(expected)}")
    want = [t for i, t in enumerate(tempos) if i == 0 or t[1] != tempos[i - 1][1]]
    if midi_tempos != want:
        fail(f".mid tempo changes {midi_tempos}, expected {want}")
    # Tuning: the longest note of each pitched track, its middle half.
    for track in ("melody", "chords", "bass"):
        solo = json.load(open(f"{folder}/solo-{track}.json"))
        mine = [n for n in model(solo)[0] if n[0] == track]
        longest = max(mine, key=lambda n: n[5])
        x, rate = read_wav(f"{folder}/solo-{track}.wav")
        # Every longest note is held at least 0.4 s: 0.05 ... 0.3 s is past the attack and held.
        span = int(0.25 * rate)
        begin = longest[2] + int(0.05 * rate)
        seg = x[begin:begin + span].mean(axis=1)
        hz = 440.0 * 2 ** ((longest[1] - 69) / 12)
        cents = 1200 * np.log2(fit_hz(seg, rate, hz) / hz)
        print(f"{'ok' if abs(cents) < 1 else 'FAIL'} {track}: pitch {longest[1]} measured {cents:+.4f} cent")
        if abs(cents) >= 1:
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
