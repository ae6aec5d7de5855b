#!/usr/bin/env python3
"""The Swift folder graph of PixelBoopCore by type use: for each folder, the folders whose types
(struct, class, enum, protocol, actor, typealias declared there) its files name, with the count
of uses, and the pairs of folders that use each other (a cycle of two). A measurement for the
architecture section of docs/DESIGN.md, not a check: identifiers are matched as words, comments
after `//` left out.

    scripts/folder-graph.py [REPO]
"""

import collections
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
src = os.path.join(root, "Sources/PixelBoopCore")
DECL = re.compile(r"^\s*(?:(?:public|internal|private|fileprivate|final|open|@\w+) )*"
                  r"(?:struct|class|enum|protocol|actor|typealias)\s+([A-Z]\w*)", re.M)
IDENT = re.compile(r"\b([A-Z]\w*)\b")

files = {}
for base, _, names in os.walk(src):
    for name in names:
        if name.endswith(".swift"):
            path = os.path.join(base, name)
            files[path] = (os.path.relpath(base, src).split(os.sep)[0], open(path, encoding="utf-8").read())

owner = collections.defaultdict(set)
for folder, text in files.values():
    for m in DECL.finditer(text):
        owner[m.group(1)].add(folder)

uses = collections.defaultdict(collections.Counter)
for folder, text in files.values():
    for m in IDENT.finditer(re.sub(r"//.*", "", text)):
        for other in owner.get(m.group(1), ()):
            if other != folder:
                uses[folder][other] += 1

folders = sorted({f for f, _ in files.values()})
for f in folders:
    print(f"{f} -> " + ", ".join(f"{g} ({n})" for g, n in sorted(uses[f].items())))
mutual = [(a, b) for a in folders for b in folders if a < b and uses[a][b] and uses[b][a]]
print(f"{len(mutual)} pairs of folders use each other:")
for a, b in mutual:
    print(f"  {a} <-> {b}: {uses[a][b]} / {uses[b][a]}")
