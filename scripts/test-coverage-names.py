#!/usr/bin/env python3
"""Which source units with logic have a test file named after them.

A C++ unit is a stem under Sources/CAudioEngine (X.cpp and/or X.hpp); its test file is
Tests/CAudioEngineTests/XTests.cpp. A Swift unit is one file Sources/PixelBoopCore/**/X.swift; its
test file is Tests/PixelBoopCoreTests/XTests.swift. A unit has logic when its code (comments,
strings and preprocessor lines blanked) holds a branch or a loop. A unit with logic may be
exempt for a reason that says why a unit test of its own would test nothing of its own (EXEMPT
below, one word each): a test of those belongs elsewhere (the live tests, the C API tests).

Usage: scripts/test-coverage-names.py [--list] [--check]
  prints the counts per language; --list adds one line per unit (tested / missing / exempt /
  no-logic); --check exits 1 when a unit with logic, not exempt, has no test file.
"""
import importlib.util
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_spec = importlib.util.spec_from_file_location("check_sizes", os.path.join(ROOT, "scripts", "check-sizes.py"))
_sizes = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_sizes)

LOGIC = re.compile(r"\b(if|for|while|switch|guard|repeat)\b")

# Units with logic that need no test file of their own, and the one-word reason:
#   hardware  - a device backend: talks to ALSA, JACK, the session bus or the terminal, tested by
#               the live tests
#   capi      - translates C calls to the engine (checks and conversions), tested through the C API
#               in the tests of the units it reaches
#   loader    - loads a shared library with dlopen at run time
#   generated - a generated table
#   process   - process-wide setup (signals, scheduling priority, exit cleanup)
EXEMPT = {
    "cpp": {
        "backend/MidiPorts": "hardware",
        "backend/RealtimePriority": "process",
        "backend/alsa/AlsaCapture": "hardware",
        "backend/alsa/AlsaCommon": "hardware",
        "backend/alsa/AlsaDevices": "hardware",
        "backend/alsa/AlsaPcm": "hardware",
        "backend/alsa/AlsaPlayback": "hardware",
        "backend/alsa/AlsaSeqMailbox": "hardware",
        "backend/alsa/AlsaSeqMatch": "hardware",
        "backend/alsa/AlsaSeqOutput": "hardware",
        "backend/alsa/AlsaSynth": "hardware",
        "backend/jack/JackCapture": "hardware",
        "backend/jack/JackClient": "hardware",
        "backend/jack/JackMidiKeys": "hardware",
        "backend/jack/JackMidiOut": "hardware",
        "backend/jack/JackPlayback": "hardware",
        "backend/jack/JackSynth": "hardware",
        "backend/jack/JackTransport": "hardware",
        "backend/jack/SynthRecorder": "hardware",
        "capi/AmbientApi": "capi",
        "capi/AtomicFileApi": "capi",
        "capi/CaptureApi": "capi",
        "capi/DevicesApi": "capi",
        "capi/EngineApi": "capi",
        "capi/FileWriterApi": "capi",
        "capi/Guarded": "capi",
        "capi/OutputApi": "capi",
        "capi/OutputHandle": "capi",
        "capi/PaletteApi": "capi",
        "capi/PitchTrackerApi": "capi",
        "capi/PlaybackApi": "capi",
        "capi/ProcessApi": "capi",
        "capi/SynthApi": "capi",
        "capi/SynthSignalsApi": "capi",
        "capi/SynthTablesApi": "capi",
        "capi/TuningApi": "capi",
        "capi/TuningHandle": "capi",
        "io/ProcessCleanup": "process",
        "lazy/LazyLibrary": "loader",
        "lazy/SdBus": "loader",
        "lazy/Sndfile": "loader",
    },
    "swift": {
        "Ambient/BundledPresets": "generated",
        "Engine/AudioPlayback+Midi": "hardware",
        "Terminal/TerminalSession": "hardware",
        "Voice/VoiceMidiOut": "hardware",
    },
}

LANGUAGES = {
    # language: (source root, suffixes, tests folder, test suffix)
    "cpp": ("Sources/CAudioEngine", (".cpp", ".hpp"), "Tests/CAudioEngineTests", "Tests.cpp"),
    "swift": ("Sources/PixelBoopCore", (".swift",), "Tests/PixelBoopCoreTests", "Tests.swift"),
}


def units(language):
    """{unit (path below the root, no suffix): [files]}"""
    root, suffixes, _, _ = LANGUAGES[language]
    found = {}
    for folder, _, names in os.walk(os.path.join(ROOT, root)):
        for name in names:
            stem, suffix = os.path.splitext(name)
            if suffix in suffixes and "/include" not in folder[len(ROOT):]:
                unit = os.path.relpath(os.path.join(folder, stem), os.path.join(ROOT, root))
                found.setdefault(unit, []).append(os.path.join(folder, name))
    return found


def has_logic(files):
    for path in files:
        with open(path, encoding="utf-8") as f:
            code = _sizes.blank(f.read(), path.endswith(".swift"))
        # A preprocessor #if chooses what is compiled; it is no branch of the program.
        code = re.sub(r"(?m)^\s*#.*$", "", code)
        if LOGIC.search(code):
            return True
    return False


def survey(language):
    """[(unit, state)] with state tested / missing / exempt:REASON / no-logic."""
    _, _, tests, test_suffix = LANGUAGES[language]
    rows = []
    for unit, files in sorted(units(language).items()):
        named = os.path.join(ROOT, tests, os.path.basename(unit) + test_suffix)
        if os.path.exists(named):
            state = "tested"
        elif not has_logic(files):
            state = "no-logic"
        elif unit in EXEMPT[language]:
            state = "exempt:" + EXEMPT[language][unit]
        else:
            state = "missing"
        rows.append((unit, state))
    return rows


def main(argv):
    unknown = [a for a in argv if a not in ("--list", "--check")]
    if unknown:
        print(f"test-coverage-names.py: unknown argument {unknown[0]}; expected --list or --check", file=sys.stderr)
        return 2
    missing_total = 0
    for language in LANGUAGES:
        rows = survey(language)
        if "--list" in argv:
            for unit, state in rows:
                print(f"{language:5} {state:18} {unit}")
        count = {s: sum(1 for _, st in rows if st.split(":")[0] == s) for s in ("tested", "missing", "exempt", "no-logic")}
        missing_total += count["missing"]
        print(f"{language}: {len(rows)} units, {count['tested']} with a test file named after them, "
              f"{count['missing']} with logic and none, {count['exempt']} exempt, {count['no-logic']} without logic")
    # An exemption for a unit that is gone (moved, renamed) would quietly excuse nothing, or the
    # unit's next namesake: each must name a unit that is there.
    stale = [f"{lang}:{unit}" for lang in LANGUAGES for unit in EXEMPT[lang] if unit not in units(lang)]
    if "--check" in argv and stale:
        print(f"test-coverage-names.py: exempt, but no such unit: {', '.join(stale)}", file=sys.stderr)
        return 1
    if "--check" in argv and missing_total:
        print(f"test-coverage-names.py: {missing_total} units with logic have no test file named after them "
              "(--list names them)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
