#!/usr/bin/env python3
"""Measures audio files as an independent check of boop's output: integrated loudness (ITU-R
BS.1770-4 through pyloudnorm, which boop does not use) and true peak (4x oversampling, as
BS.1770-4 Annex 2 describes, through scipy's polyphase resampler).

    scripts/loudness.py FILE...            one line per file: LUFS, dBTP
    scripts/loudness.py --json FILE...     one JSON object per line
"""
import json
import sys
import warnings

import numpy as np
import pyloudnorm
import scipy.io.wavfile
from scipy.signal import resample_poly


# Input samples either side of a cut that the 4x interpolator's filter (resample_poly's default:
# 10 input samples each way) still reaches: its output there rings on the cut, not on the signal.
CUT_REACH = 16


def read(path):
    """(rate, frames x channels float64) of a WAV file."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # libsndfile's extra chunks
        rate, data = scipy.io.wavfile.read(path)
    if data.dtype.kind == "i":
        data = data / float(np.iinfo(data.dtype).max + 1)
    data = data.astype(np.float64)
    return rate, (data if data.ndim == 2 else data[:, None])


def dropouts(channels, least=2):
    """[lo, hi) frame runs of digital silence (every channel exactly 0.0, at least `least` frames)
    strictly inside the sounding part: where a recording kept the server's time line across cycles
    its client missed. A sounding mix has no two exact zeros in a row on every channel."""
    silent = np.all(channels == 0.0, axis=1)
    sounding = np.flatnonzero(~silent)
    if len(sounding) == 0:
        return []
    edges = np.diff(np.concatenate(([0], silent[sounding[0]:sounding[-1] + 1].astype(np.int8), [0])))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    return [(sounding[0] + a, sounding[0] + b) for a, b in zip(starts, ends) if b - a >= least]


def true_peak(channels, skip=()):
    """The highest 4x-oversampled magnitude in dBTP, leaving out the output within CUT_REACH
    input samples of each [lo, hi) run in `skip` (a step the filter would ring on)."""
    keep = np.ones(4 * len(channels), dtype=bool)
    for lo, hi in skip:
        keep[max(0, 4 * (lo - CUT_REACH)):4 * (hi + CUT_REACH)] = False
    peak = 0.0
    for c in range(channels.shape[1]):
        up = np.abs(resample_poly(channels[:, c], 4, 1))[:len(keep)]
        if np.any(keep[:len(up)]):
            peak = max(peak, float(np.max(up[keep[:len(up)]])))
    return round(20 * np.log10(max(peak, 1e-12)), 2)


def measure(path, skip_dropouts=False):
    """LUFS and dBTP of a file; with skip_dropouts, the true peak leaves out the steps into and out
    of each dropout (see dropouts()), which are named under "dropouts"."""
    rate, channels = read(path)
    lufs = pyloudnorm.Meter(rate).integrated_loudness(channels if channels.shape[1] > 1 else channels[:, 0])
    gaps = dropouts(channels) if skip_dropouts else []
    return {"file": path, "rate": rate, "lufs": round(float(lufs), 2), "true_peak_dbtp": true_peak(channels, gaps),
            "dropouts": [(int(a), int(b)) for a, b in gaps]}


def main(argv):
    as_json = "--json" in argv
    for path in [a for a in argv if a != "--json"]:
        m = measure(path)
        print(json.dumps(m) if as_json else f"{m['lufs']:7.2f} LUFS  {m['true_peak_dbtp']:6.2f} dBTP  {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
