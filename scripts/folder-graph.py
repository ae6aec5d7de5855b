#!/usr/bin/env python3
"""The folder graph of the sources, drawn from the code.

Swift (Sources/PixelBoopCore) by type use: for each folder, the folders whose top-level types
(struct, class, enum, protocol, actor, typealias declared outside any other declaration) its files
name, with the count of uses. Names are resolved as the compiler would for the cases that matter
here: comments and the text of string literals are left out (an interpolation is kept); a name
after a dot is a member (the name before the dot is the use); a type nested in another
(`PatternTransport.State`) is found only through its outer type, and a bare name that a nested
type of an enclosing declaration or extension answers is that nested type, not a top-level type
of the same name elsewhere. A name two folders both declare at the top level counts for both
(and is listed as such with --why): a real ambiguity, never hidden.

C++ (Sources/CAudioEngine) by #include: for each top-level folder, the folders whose files its
files include (include/ is the C API).

    scripts/folder-graph.py [--why] [--check] [--diagram] [REPO]

Plain: the Swift graph and the pairs of folders that use each other. --why: for each pair, the
types behind each of its two arrows and the files that name them. --check (the test command's):
only a verdict; exit 1 when the Swift folders (by type use) or the C++ folders (by #include) hold a cycle (a pair, or a longer loop), with the
folders and types of each cycle on stderr. --diagram: both graphs as layers, top to bottom (a
folder uses only folders in lower layers; a cycle is named below its graph), for docs/DESIGN.md.
"""

import collections
import os
import re
import sys

args = [a for a in sys.argv[1:] if not a.startswith("--")]
flags = {a for a in sys.argv[1:] if a.startswith("--")}
unknown = flags - {"--why", "--check", "--diagram"}
if unknown:
    sys.exit(f"folder-graph.py: unknown option {sorted(unknown)[0]} (expected --why, --check, --diagram)")
root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def strip_swift(text):
    """The code alone: comments blanked, each string literal replaced by its interpolations."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    out.append("\n" if text[i] == "\n" else "")
                    i += 1
        elif c == '"' or (c == "#" and re.match(r'#+"', text[i:])):
            code, i = string_literal(text, i)
            out.append(" " + code + " ")
        else:
            out.append(c)
            i += 1
    return "".join(out)


def string_literal(text, i):
    """Skips the literal at i; returns the code of its interpolations and the index after it."""
    hashes = len(text[i:]) - len(text[i:].lstrip("#"))
    i += hashes
    quote = '"""' if text.startswith('"""', i) else '"'
    i += len(quote)
    close = quote + "#" * hashes
    escape = "\\" + "#" * hashes
    code, n = [], len(text)
    while i < n and not text.startswith(close, i):
        if text.startswith(escape + "(", i):
            start = i = i + len(escape) + 1
            depth = 1
            while i < n and depth:
                if text[i] == '"':
                    inner, i = string_literal(text, i)
                    continue
                depth += {"(": 1, ")": -1}.get(text[i], 0)
                i += 1
            code.append(strip_swift(text[start:i - 1]))
        elif text.startswith(escape, i):
            i += len(escape) + 1
        else:
            if text[i] == "\n":
                code.append("\n")
            i += 1
    return " ".join(code), i + len(close)


TOKEN = re.compile(r"[{}]|\b(struct|class|enum|protocol|actor|extension|typealias)\s+([A-Z][\w.]*)"
                   r"|(?<![\w.])([A-Z]\w*)")


def scan(text):
    """Declarations and uses of one file: [(name, outer or None)], [(name, enclosing types)]."""
    decls, uses, stack, pending = [], [], [], None
    for m in TOKEN.finditer(text):
        if m.group(0) == "{":
            stack.append(pending)
            pending = None
        elif m.group(0) == "}":
            if stack:
                stack.pop()
        elif m.group(1):
            kind, name = m.group(1), m.group(2)
            scopes = [s for s in stack if s]
            inner = name.split(".")[-1]
            if kind != "extension":
                if not stack:
                    decls.append((inner, None))
                elif scopes and all(stack):
                    decls.append((inner, scopes[-1]))
            else:
                uses.append((name.split(".")[0], tuple(scopes)))
            if kind != "typealias":
                pending = inner
        else:
            uses.append((m.group(3), tuple(s for s in stack if s)))
    return decls, uses


def swift_graph(src):
    files = {}
    for base, _, names in os.walk(src):
        for name in sorted(names):
            if name.endswith(".swift"):
                path = os.path.join(base, name)
                with open(path, encoding="utf-8") as f:
                    files[os.path.relpath(path, src)] = scan(strip_swift(f.read()))
    owner, nested = collections.defaultdict(set), collections.defaultdict(set)
    for rel, (decls, _) in files.items():
        for name, outer in decls:
            if outer is None:
                owner[name].add(rel.split(os.sep)[0])
            else:
                nested[outer].add(name)
    uses = collections.defaultdict(collections.Counter)
    why = collections.defaultdict(lambda: collections.defaultdict(set))
    for rel, (_, found) in files.items():
        folder = rel.split(os.sep)[0]
        for name, scopes in found:
            if any(name in nested[s] for s in scopes):
                continue
            for other in owner.get(name, ()):
                if other != folder:
                    uses[folder][other] += 1
                    why[(folder, other)][name].add(os.path.basename(rel))
    folders = sorted({rel.split(os.sep)[0] for rel in files if os.sep in rel})
    twice = {n: sorted(f) for n, f in owner.items() if len(f) > 1}
    return folders, uses, why, twice


def cpp_graph(src):
    uses = collections.defaultdict(collections.Counter)
    why = collections.defaultdict(lambda: collections.defaultdict(set))
    folders = set()
    for base, _, names in os.walk(src):
        for name in sorted(names):
            if not name.endswith((".cpp", ".hpp", ".h", ".c", ".inc")):
                continue
            path = os.path.join(base, name)
            folder = os.path.relpath(path, src).split(os.sep)[0]
            if folder == name:
                continue
            folders.add(folder)
            with open(path, encoding="utf-8") as f:
                for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', f.read(), re.M):
                    for where in (base, src, os.path.join(src, "include")):
                        target = os.path.normpath(os.path.join(where, inc))
                        if os.path.isfile(target):
                            other = os.path.relpath(target, src).split(os.sep)[0]
                            if other != folder:
                                uses[folder][other] += 1
                                why[(folder, other)][inc].add(name)
                            break
    return sorted(folders), uses, why


def cycles(folders, uses):
    """The strongly connected parts of more than one folder (Tarjan)."""
    index, low, stack, on, parts, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(uses[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                parts.append(sorted(part))

    for v in folders:
        if v not in index:
            visit(v)
    return parts


def layers(folders, uses):
    """Each folder's layer: 0 when it uses no other folder, else one above the highest it uses."""
    level = {}

    def depth(v, seen):
        if v in level:
            return level[v]
        if v in seen:
            return 0
        below = [depth(w, seen | {v}) for w in uses[v] if w in folders]
        level[v] = 1 + max(below) if below else 0
        return level[v]

    for v in folders:
        depth(v, frozenset())
    return level


def diagram(title, folders, uses):
    level = layers(folders, uses)
    width = max(len(f) for f in folders)
    print(title)
    for layer in range(max(level.values()), -1, -1):
        for f in sorted(v for v in folders if level[v] == layer):
            print(f"  {layer}  {f:<{width}} -> " + (", ".join(sorted(uses[f])) or "(nothing)"))
    for part in cycles(folders, uses):
        print(f"  cycle: {', '.join(part)} (their layers are not an order)")


def pairs(folders, uses):
    return [(a, b) for a in folders for b in folders if a < b and uses[a][b] and uses[b][a]]


def explain(why, a, b):
    for src, dst in ((a, b), (b, a)):
        names = why[(src, dst)]
        print(f"    {src} -> {dst}: " + "; ".join(
            f"{n} ({', '.join(sorted(files))})" for n, files in sorted(names.items())))


folders, uses, why, twice = swift_graph(os.path.join(root, "Sources/PixelBoopCore"))
if "--check" in flags:
    cfolders, cuses, cwhy = cpp_graph(os.path.join(root, "Sources/CAudioEngine"))
    bad = 0
    for lang, fs, us, wy in (("Swift", folders, uses, why), ("C++", cfolders, cuses, cwhy)):
        for part in cycles(fs, us):
            bad += 1
            print(f"folder-graph: {lang} folders in a cycle: {', '.join(part)}", file=sys.stderr)
            for a in part:
                for b in part:
                    if wy[(a, b)]:
                        print(f"  {a} -> {b}: " + ", ".join(sorted(wy[(a, b)])), file=sys.stderr)
    print(f"folder-graph: {len(folders)} Swift folders and {len(cfolders)} C++ folders, "
          + (f"{bad} cycles" if bad else "no cycle"))
    sys.exit(1 if bad else 0)
if "--diagram" in flags:
    diagram("Swift, Sources/PixelBoopCore (by type use):", folders, uses)
    diagram("C++, Sources/CAudioEngine (by #include):", *cpp_graph(os.path.join(root, "Sources/CAudioEngine"))[:2])
    sys.exit(0)
for f in folders:
    print(f"{f} -> " + ", ".join(f"{g} ({n})" for g, n in sorted(uses[f].items())))
mutual = pairs(folders, uses)
print(f"{len(mutual)} pairs of folders use each other:")
for a, b in mutual:
    print(f"  {a} <-> {b}: {uses[a][b]} / {uses[b][a]}")
    if "--why" in flags:
        explain(why, a, b)
if "--why" in flags and twice:
    print("Top-level names declared in more than one folder (counted for each):")
    for n, fs in sorted(twice.items()):
        print(f"  {n}: {', '.join(fs)}")
