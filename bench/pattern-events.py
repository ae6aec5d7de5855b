#!/usr/bin/env python3
"""Turns a pattern's melody track into the frame-exact note events boop renders (DESIGN.md's
formula and gates), one per line: `frame on|off id frequency gain`. Feeds StkPatternRender, so
STK plays exactly the notes boop plays."""
import json, math, sys

path, loops, rate = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
p = json.load(open(path))
bpm, length = p.get("bpm", 120), p.get("length", 16)
fps = rate * 60 / (bpm * 4)
frame = lambda k: math.floor(k * fps + 0.5)
gains = {"normal": 0.6, "accent": 1.0, "sustain": 0.8}
events, nid = [], 0
for k in range(length * loops):
    for n in p["tracks"].get("melody", []):
        if n["step"] != k % length:
            continue
        nid += 1
        vel, ln = n.get("velocity", "normal"), n.get("length", 1)
        on = frame(k)
        off = frame(k + ln) if vel == "sustain" else on + round(0.8 * ln * fps)
        hz = 440 * 2 ** ((n["pitch"] - 69) / 12)
        events.append((on, 1, nid, hz, gains[vel]))
        events.append((off, 0, nid, hz, 0))
events.sort(key=lambda e: (e[0], e[1]))
print(frame(length * loops))
for f, on, i, hz, g in events:
    print(f, "on" if on else "off", i, repr(hz), g)
