#!/usr/bin/env bash
# The README's tables of voices and kits, and the song-file table in docs/DESIGN.md, name exactly
# the voices and kits the binary knows, in its order (with the same one-line descriptions in the
# README), as `boop render --help` lists them from the engine's list (CAudioEngine.h, BOOP_VOICES
# and BOOP_KITS); and a song naming neither is refused with every name the help gives. A voice or
# kit added to the engine fails here until the documents name it.
# Run by scripts/cli-tests.sh with BOOP, ROOT and WORK set; by hand: BOOP=path/to/boop ROOT=. WORK=/tmp bash $0
set -uo pipefail
boop="$BOOP" root="$ROOT" work="$WORK/palette"
mkdir -p "$work"

"$boop" render --help >"$work/help.txt" 2>&1 || { echo "FAIL boop render --help"; exit 1; }
python3 - "$work/help.txt" "$root/README.md" "$root/docs/DESIGN.md" "$boop" "$work" <<'PY'
import json, re, subprocess, sys

help_path, readme_path, design_path, boop, work = sys.argv[1:6]
failures = 0


def fail(message):
    global failures
    print("FAIL " + message)
    failures += 1


def help_list(text, heading):
    """The (name, description) rows under a heading of the help's list, up to the next heading."""
    lines = text.splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith(heading)), None)
    if start is None:
        fail(f"boop render --help has no list starting {heading!r}")
        return []
    rows = []
    for line in lines[start + 1:]:
        m = re.match(r"^  (\S+) +(\S.*)$", line)
        if not m:
            break
        rows.append((m.group(1), m.group(2).strip()))
    return rows


def markdown_table(text, header):
    """The (name, description) rows of the table whose header row is `| header | sound |`."""
    lines = text.splitlines()
    start = next((i for i, l in enumerate(lines) if re.match(rf"^\| *{header} *\| *sound *\|$", l)), None)
    if start is None:
        fail(f"README.md has no table headed | {header} | sound |")
        return []
    rows = []
    for line in lines[start + 2:]:
        m = re.match(r"^\| *`([^`]+)` *\| *(.*?) *\|$", line)
        if not m:
            break
        rows.append((m.group(1), m.group(2)))
    return rows


def design_row(text, first_cell, field):
    """The backquoted names right after `field` in the song-file table's row for first_cell."""
    row = next((l for l in text.splitlines() if l.startswith(f"| {first_cell} |")), None)
    if row is None:
        fail(f"docs/DESIGN.md has no song-file table row '| {first_cell} |'")
        return []
    cell = row.split("|")[2]
    after = cell.split(f"`{field}`", 1)[1] if f"`{field}`" in cell else ""
    names = []
    for part in after.split(";")[0].split(","):  # the names run up to the first semicolon
        m = re.match(r"\s*`([^`]+)`", part)
        if m:
            names.append(m.group(1))
    return names


help_text = open(help_path).read()
voices = help_list(help_text, "A song's voices")
kits = help_list(help_text, "Its kits")
if not voices or not kits:
    fail("the help lists no voices or no kits")
readme = open(readme_path).read()
design = open(design_path).read()
for what, known, table in (("voice", voices, markdown_table(readme, "voice")),
                           ("kit", kits, markdown_table(readme, "kit"))):
    if table != known:
        fail(f"README.md's {what} table differs from boop render --help:\n  README: {table}\n  boop:   {known}")
    else:
        print(f"ok   README.md's {what} table: {', '.join(n for n, _ in known)}")
for what, known, names in (("voice", voices, design_row(design, "pitched track", "voice")),
                           ("kit", kits, design_row(design, "`rhythm`", "kit"))):
    if names != [n for n, _ in known]:
        fail(f"docs/DESIGN.md's song-file {what}s {names} differ from boop render --help's {[n for n, _ in known]}")
    else:
        print(f"ok   docs/DESIGN.md's song-file {what}s")

# The loader's message names every voice (kit) of the same list.
for track, field, known in (("melody", "voice", voices), ("rhythm", "kit", kits)):
    path = f"{work}/unknown-{field}.json"
    json.dump({"version": 2, "instruments": {track: {field: "nonesuch"}}, "patterns": {"A": {}}}, open(path, "w"))
    run = subprocess.run([boop, "render", path, "-o", f"{work}/x.wav"], capture_output=True, text=True)
    expected = "expected one of " + ", ".join(n for n, _ in known)
    if run.returncode != 65 or expected not in run.stderr:
        fail(f"an unknown {field}: exit {run.returncode}, {run.stderr.strip()!r} (expected 65 and {expected!r})")
    else:
        print(f"ok   an unknown {field} is refused naming every one")
sys.exit(1 if failures else 0)
PY
