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


def measure(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # libsndfile's extra chunks
        rate, data = scipy.io.wavfile.read(path)
    if data.dtype.kind == "i":
        data = data / float(np.iinfo(data.dtype).max + 1)
    data = data.astype(np.float64)
    lufs = pyloudnorm.Meter(rate).integrated_loudness(data)
    channels = data if data.ndim == 2 else data[:, None]
    peak = max(np.max(np.abs(resample_poly(channels[:, c], 4, 1))) for c in range(channels.shape[1]))
    return {"file": path, "lufs": round(float(lufs), 2),
            "true_peak_dbtp": round(float(20 * np.log10(max(peak, 1e-12))), 2)}


def main(argv):
    as_json = "--json" in argv
    for path in [a for a in argv if a != "--json"]:
        m = measure(path)
        print(json.dumps(m) if as_json else f"{m['lufs']:7.2f} LUFS  {m['true_peak_dbtp']:6.2f} dBTP  {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
