#!/usr/bin/env python3
"""Checks that a rendered WAV holds the given fundamentals, in tune:

    scripts/check-tuning.py FILE.wav FREQ_HZ [FREQ_HZ ...]

Each frequency is found as the strongest spectral peak within a semitone of it, over the steady
middle of the file (the attack and release cut off), and must lie within 0.5 cent. The peak is
located with a Hann window, 16x zero padding and parabolic interpolation on the log magnitude,
which resolves a steady partial to well under 0.05 cent at these lengths, so 0.5 cent is the
measurement's margin, far below the 5 cents a trained ear notices. Prints one line per note.
"""

import sys
import warnings

import numpy as np
import scipy.io.wavfile

TOLERANCE_CENTS = 0.5


def peak(samples, rate, around):
    n = len(samples)
    padded = 1 << int(np.ceil(np.log2(n * 16)))
    spectrum = np.abs(np.fft.rfft(samples * np.hanning(n), padded))
    bin_hz = rate / padded
    lo, hi = int(around * 2 ** (-1 / 12) / bin_hz), int(around * 2 ** (1 / 12) / bin_hz)
    k = lo + int(np.argmax(spectrum[lo:hi]))
    a, b, c = np.log(spectrum[k - 1 : k + 2] + 1e-30)
    offset = 0.5 * (a - c) / (a - 2 * b + c)
    return (k + offset) * bin_hz


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 64
    with warnings.catch_warnings():  # libsndfile's PEAK chunk is not known to scipy
        warnings.simplefilter("ignore")
        rate, data = scipy.io.wavfile.read(argv[1])
    data = data.astype(np.float64)
    if data.ndim > 1:
        data = data.mean(axis=1)
    if not np.any(data):
        print(f"{argv[1]}: silent", file=sys.stderr)
        return 1
    steady = data[int(0.2 * rate) : int(0.2 * rate) + int(1.2 * rate)]
    failed = False
    for expected in map(float, argv[2:]):
        found = peak(steady, rate, expected)
        cents = 1200 * np.log2(found / expected)
        ok = abs(cents) <= TOLERANCE_CENTS
        failed |= not ok
        print(f"{expected:9.3f} Hz: found {found:9.3f} Hz ({cents:+.3f} cent) {'ok' if ok else 'OUT OF TUNE'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
