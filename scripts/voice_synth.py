"""Voice-like test signals with exact ground truth: a Rosenberg glottal pulse train (jitter,
shimmer) through vowel formant filters, breath (aspiration) noise, a scooped onset and vibrato.
Used by bench/pitch-bench.py (the tracker benchmark) and scripts/sim-singer.py (simulated singers
for `boop train match`). numpy and scipy only."""
import wave

import numpy as np
from scipy.signal import lfilter

RATE = 16000
# F1, F2, F3 (Hz) of five vowels (adult averages).
VOWELS = {
    "a": (800, 1150, 2900),
    "e": (400, 1700, 2600),
    "i": (300, 2300, 3000),
    "o": (450, 800, 2830),
    "u": (325, 700, 2530),
}
BANDWIDTHS = (80, 90, 120)


def rosenberg(phase, open_q=0.4, close_q=0.16):
    """Glottal flow for a phase in [0, 1): opening half-cosine, closing quarter-cosine, closed."""
    g = np.zeros_like(phase)
    a = phase < open_q
    g[a] = 0.5 * (1 - np.cos(np.pi * phase[a] / open_q))
    b = (phase >= open_q) & (phase < open_q + close_q)
    g[b] = np.cos(np.pi * (phase[b] - open_q) / (2 * close_q))
    return g


def formants(x, vowel, rate=RATE):
    for f, bw in zip(VOWELS[vowel], BANDWIDTHS):
        if f >= rate / 2 - 200:
            continue
        r = np.exp(-np.pi * bw / rate)
        a = [1, -2 * r * np.cos(2 * np.pi * f / rate), r * r]
        x = lfilter([sum(a)], a, x)  # unity gain at DC
    return x


def contour(n, f0, rng, rate=RATE, scoop_cents=-150.0, scoop_ms=80.0, vibrato_cents=50.0, vibrato_hz=5.5):
    """The note's exact f0 (Hz per sample): an exponential scoop from scoop_cents, then vibrato
    (faded in over 200 ms after 250 ms)."""
    t = np.arange(n) / rate
    cents = scoop_cents * np.exp(-t / (scoop_ms / 1000.0))
    fade = np.clip((t - 0.25) / 0.2, 0, 1)
    phase0 = rng.uniform(0, 2 * np.pi)
    cents = cents + vibrato_cents * fade * np.sin(2 * np.pi * vibrato_hz * t + phase0)
    return f0 * 2.0 ** (cents / 1200.0)


def note(f0, seconds, rng, vowel="a", jitter=0.01, shimmer_db=0.5, breath_db=-25.0, rate=RATE, **shape):
    """One sung note: (signal, exact f0 per sample). The level is about -12 dBFS RMS."""
    n = int(seconds * rate)
    f = contour(n, f0, rng, rate=rate, **shape)
    base = np.cumsum(f / rate)
    cycles = int(base[-1]) + 2
    jit = 1.0 + jitter * rng.standard_normal(cycles)
    phase = np.cumsum(f * jit[base.astype(int)] / rate)
    cyc = phase.astype(int)
    amp = 10 ** (shimmer_db * rng.standard_normal(int(phase[-1]) + 2) / 20)
    flow = rosenberg(phase - cyc) * amp[cyc]
    src = np.diff(flow, prepend=0.0)  # lip radiation: the flow's derivative
    src /= np.sqrt(np.mean(src**2)) + 1e-12
    breath = rng.standard_normal(n) * (0.5 + rosenberg(phase - cyc)) * 10 ** (breath_db / 20)
    y = formants(src + breath, vowel, rate)
    env = np.minimum(1, np.minimum(np.arange(n) / (0.04 * rate), (n - np.arange(n)) / (0.08 * rate)))
    y = y * env
    y *= 0.25 / (np.sqrt(np.mean(y**2)) + 1e-12)
    return y.astype(np.float64), f


def add_noise(y, snr_db, rng, voiced=None):
    """White noise at snr_db below the mean power of the voiced part (all of y if voiced is None)."""
    p = np.mean(y[voiced] ** 2) if voiced is not None else np.mean(y**2)
    return y + rng.standard_normal(len(y)) * np.sqrt(p / 10 ** (snr_db / 10))


def write_wav(path, y, rate):
    """A mono 16-bit WAV of y (full scale 1.0), as a microphone take would be saved."""
    pcm = np.clip(y * 32767, -32768, 32767).astype("<i2")
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm.tobytes())


# A sung melody, as the transcription tests sing it (scripts/transcribe-test.py,
# scripts/jack_edit_sing_test.py).
MAJOR = [0, 2, 4, 5, 7, 9, 11]


def melody(rng, bpm, low=57, high=72):
    """Four bars of sixteenths: (step, midi, steps, legato) with a rest now and then."""
    keys = [m for m in range(low, high + 1) if (m - 60) % 12 in MAJOR]
    notes, step = [], int(rng.integers(0, 3))
    while step < 62:
        length = int(rng.choice([1, 2, 2, 3, 4]))
        length = min(length, 64 - step)
        pitch = int(rng.choice([k for k in keys if not notes or k != notes[-1][1]]))
        notes.append((step, pitch, length, bool(rng.random() < 0.3)))
        step += length + int(rng.choice([0, 0, 1, 2]))
    return notes


def sing(notes, bpm, rng, rate=RATE, starts=None):
    """The melody sung: (signal, rate). Each note comes in up to 20 ms off its step; `starts`, a
    list, receives where each was sung (seconds), for a test that judges steps to know them."""
    step_s = 60 / bpm / 4
    total = int((64 * step_s + 0.5) * rate)
    y = np.zeros(total)
    voiced = np.zeros(total, dtype=bool)
    for i, (step, midi, length, legato) in enumerate(notes):
        nxt = notes[i + 1][0] if i + 1 < len(notes) else None
        start = step * step_s + rng.uniform(-0.02, 0.02)
        if starts is not None:
            starts.append(start)
        end = (step + length) * step_s
        # Legato runs into the next note when it follows at once; otherwise a breath before it.
        end = end + 0.01 if legato and nxt == step + length else end - 0.05
        seconds = max(0.09, end - start)
        f0 = 440 * 2 ** ((midi - 69) / 12)
        sig, _ = note(f0, seconds, rng, rate=rate, vowel=str(rng.choice(list(VOWELS))),
                         vibrato_cents=float(rng.uniform(30, 50)), scoop_cents=float(rng.uniform(-150, -50)),
                         scoop_ms=float(rng.uniform(30, 60)))
        a = int(max(0, start) * rate)
        y[a:a + len(sig)] += sig[:total - a]
        voiced[a:a + len(sig)] = True
    return add_noise(y, 20, rng, voiced), rate
