#!/usr/bin/python3
"""Checks a MIDI file written by `boop render PATTERN -o FILE.mid` against its pattern, using an
independent reader (mido, Debian's python3-mido) and an independent reading of DESIGN.md's rules.

    scripts/check-midi.py PATTERN.json FILE.mid [--loops N] [--bpm BPM] [--json]

Exit 0 when every note's start, length, pitch, velocity and channel, the tempo, the resolution and the
end of every track match exactly; 1 with one line per mismatch otherwise; 2 on bad use.
The expectations are derived here from the pattern JSON, not from boop's code:
  480 ticks per quarter, a step (sixteenth) = 120 ticks; velocity normal 96, accent 120, sustain 108;
  gate normal/accent = 0.8 x length steps, sustain = full length; rhythm on channel 10 (index 9);
  end of track = loops x length steps; tempo = round(60e6 / bpm) microseconds per quarter.
"""
import argparse
import json
import sys

try:
    import mido
except ImportError:
    sys.stderr.write("check-midi: python3-mido is not installed (apt-get install python3-mido)\n")
    sys.exit(2)

TPQ = 480
STEP = TPQ // 4
VELOCITY = {"normal": 96, "accent": 120, "sustain": 108}
CHANNEL = {"melody": 0, "chords": 1, "bass": 2, "rhythm": 9}
ORDER = ["melody", "chords", "bass", "rhythm"]


def expected_notes(notes, length, loops):
    """(start_tick, duration_ticks, pitch, velocity) for one track, loops unrolled."""
    spans = []
    by_pitch = {}
    for n in notes:
        by_pitch.setdefault(n["pitch"], []).append(n)
    for pitch, group in by_pitch.items():
        group.sort(key=lambda n: n["step"])
        for i, n in enumerate(group):
            vel = n.get("velocity", "normal")
            steps = n.get("length", 1)
            start = n["step"] * STEP
            gate = steps * STEP if vel == "sustain" else steps * STEP * 8 // 10
            end = start + gate
            # A later note of the same pitch retriggers: MIDI cannot hold both on one channel.
            if i + 1 < len(group):
                end = min(end, group[i + 1]["step"] * STEP)
            spans.append((start, end - start, pitch, VELOCITY[vel]))
    out = []
    for loop in range(loops):
        off = loop * length * STEP
        out.extend((s + off, d, p, v) for (s, d, p, v) in spans)
    return sorted(out)


def read_track(track):
    """Returns (name, notes, channels, end_tick, metas) from one mido track in absolute ticks."""
    tick = 0
    name = None
    held = {}
    notes = []
    channels = set()
    metas = []
    end = None
    for msg in track:
        tick += msg.time
        if msg.is_meta:
            metas.append((tick, msg))
            if msg.type == "track_name":
                name = msg.name
            elif msg.type == "end_of_track":
                end = tick
            continue
        if msg.type in ("note_on", "note_off"):
            channels.add(msg.channel)
            key = (msg.channel, msg.note)
            if msg.type == "note_on" and msg.velocity > 0:
                if key in held:
                    raise ValueError(f"track {name}: note {msg.note} started at {tick} while still held")
                held[key] = (tick, msg.velocity)
            else:
                if key not in held:
                    raise ValueError(f"track {name}: note-off {msg.note} at {tick} without a note-on")
                start, vel = held.pop(key)
                notes.append((start, tick - start, msg.note, vel))
    if held:
        raise ValueError(f"track {name}: notes never released: {sorted(held)}")
    return name, sorted(notes), channels, end, metas


def check_file(mid, pattern, bpm, loops, expect, errors, report):
    """The conductor track, each kind's track and the duration against the pattern played `loops`
    times at `bpm`; what was read goes into `report`."""
    length = pattern.get("length", 16)
    tracks = pattern.get("tracks", {})
    kinds = [k for k in ORDER if k in tracks]
    end_tick = length * STEP * loops
    tempo = round(60_000_000 / bpm)
    name, notes, _, end, metas = read_track(mid.tracks[0])
    tempos = [(t, m.tempo) for (t, m) in metas if m.type == "set_tempo"]
    sigs = [(t, m.numerator, m.denominator) for (t, m) in metas if m.type == "time_signature"]
    expect("conductor name", name, pattern.get("name", "Untitled"))
    expect("tempo events", tempos, [(0, tempo)])
    expect("time signature", sigs, [(0, 4, 4)])
    expect("conductor notes", notes, [])
    expect("conductor end of track", end, end_tick)
    report["tempo"] = tempos[0][1] if tempos else None
    report["bpm"] = mido.tempo2bpm(tempos[0][1]) if tempos else None

    for index, kind in enumerate(kinds, start=1):
        if index >= len(mid.tracks):
            break
        name, notes, channels, end, _ = read_track(mid.tracks[index])
        want = expected_notes(tracks[kind], length, loops)
        expect(f"track {index} name", name, kind.capitalize())
        expect(f"track {index} ({kind}) channels", channels, {CHANNEL[kind]} if want else set())
        expect(f"track {index} ({kind}) end of track", end, end_tick)
        if notes != want:
            missing = sorted(set(want) - set(notes))[:5]
            extra = sorted(set(notes) - set(want))[:5]
            errors.append(f"track {index} ({kind}) notes (start, length, pitch, velocity) differ: "
                          f"missing {missing}, unexpected {extra}")
        report["tracks"].append({"name": name, "channel": sorted(channels), "end": end,
                                 "notes": [list(n) for n in notes]})

    # Seconds, through mido's own tempo map: the file plays for exactly loops x length steps
    # at the (microsecond-rounded) tempo.
    want_seconds = mido.tick2second(end_tick, TPQ, tempo)
    if abs(mid.length - want_seconds) > 1e-9:
        errors.append(f"duration: expected {want_seconds:.9f} s, got {mid.length:.9f} s")
    report["seconds"] = mid.length


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pattern")
    ap.add_argument("midi")
    ap.add_argument("--loops", type=int, default=1)
    ap.add_argument("--bpm", type=float)
    ap.add_argument("--json", action="store_true", help="print what was read as JSON")
    args = ap.parse_args()

    with open(args.pattern, encoding="utf-8") as f:
        pattern = json.load(f)
    bpm = args.bpm if args.bpm is not None else pattern.get("bpm", 120)
    kinds = [k for k in ORDER if k in pattern.get("tracks", {})]

    mid = mido.MidiFile(args.midi)
    errors = []

    def expect(what, got, want):
        if got != want:
            errors.append(f"{what}: expected {want!r}, got {got!r}")

    expect("file type", mid.type, 1)
    expect("ticks per quarter", mid.ticks_per_beat, TPQ)
    expect("track count", len(mid.tracks), 1 + len(kinds))

    report = {"ticks_per_beat": mid.ticks_per_beat, "tracks": []}
    try:
        check_file(mid, pattern, bpm, args.loops, expect, errors, report)
    except ValueError as e:
        errors.append(str(e))

    if args.json:
        print(json.dumps(report))
    for e in errors:
        sys.stderr.write(f"check-midi: {args.midi}: {e}\n")
    if errors:
        return 1
    if not args.json:
        total = sum(len(t["notes"]) for t in report["tracks"])
        print(f"ok: {args.midi}: {len(mid.tracks)} tracks, {total} notes, tempo {report['tempo']} us/quarter "
              f"({report['bpm']:.4f} bpm), {report['seconds']:.6f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
