#!/usr/bin/env python3
"""Size limits a reader can rely on: no source file over 450 lines and no function over 60.

The public C headers may be longer only by their comments: their count leaves out comment lines.
A function is counted from its signature's first line to its closing brace. Functions are found
by a small brace scanner over the text with comments, strings and character literals blanked
(no C/C++/Swift parser is on the machine, and the scanner needs only where bodies open and
close): a brace opens a function when the text before it is a Swift `func`/`init`/`deinit`/
`subscript` declaration or a C/C++ signature (a closing parenthesis, optionally followed by
qualifiers) that is not a control statement. Nested functions and lambdas count inside their
enclosing function. Python functions are found by Python's own parser (`ast`), from `def` to
their last line.

Usage: scripts/check-sizes.py [--list] [FILE...]   (default: every source under Sources/ and Tests/)
Exit 0 when every file and function is within the limits, 1 otherwise, one line per excess.
"""
import ast
import os
import re
import sys

MAX_FILE_LINES = 450
MAX_FUNCTION_LINES = 60
SUFFIXES = (".swift", ".c", ".cpp", ".h", ".hpp", ".py")
PUBLIC_HEADERS = (
    "Sources/CAudioEngine/include/CAudioEngine.h",
    "Sources/CAudioEngine/include/CAudioEngineAmbient.h",
    "Sources/CAudioEngine/include/CAudioEngineProcess.h",
    "Sources/CAudioEngine/include/CAudioEngineKeys.h",
    "Sources/CAudioEngine/include/CAudioEngineSynth.h",
)


def blank(text, swift):
    """Comments, strings and char literals replaced by spaces; newlines kept."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if c == "/" and nxt == "/":
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c == "/" and nxt == "*":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif swift and text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"' or (c == "'" and not swift):
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(" " * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


SWIFT_FUNC = re.compile(r"\b(func\s+[^\s(<]+|init[?!]?|deinit|subscript)\b[^{};]*$", re.S)
CONTROL = re.compile(r"\b(if|for|while|switch|catch|return|sizeof|decltype|alignof|static_assert)\s*\($")
C_SIG = re.compile(r"\)\s*(const|noexcept|override|final|BOOP_RT|BOOP_RT_[A-Z_]+|"
                   r"\[\[[^\]]*\]\]|->\s*[\w:<>*&, ]+|\s)*$")


def functions(path, text):
    swift = path.endswith(".swift")
    clean = blank(text, swift)
    line_of = [0] * (len(clean) + 1)
    line = 1
    for k, ch in enumerate(clean):
        line_of[k] = line
        if ch == "\n":
            line += 1
    stack = []  # (is_function_start_line or None)
    found = []
    depth_in_function = 0
    last_stmt_end = 0
    for k, ch in enumerate(clean):
        if ch == "{":
            head = clean[last_stmt_end:k]
            start = None
            if depth_in_function == 0:
                m = SWIFT_FUNC.search(head) if swift else None
                if m and not re.search(r"\n\s*(var|let|case|struct|class|enum|protocol|extension|typealias)\b", head[m.start():]):
                    start = line_of[last_stmt_end + m.start()]
                elif not swift and C_SIG.search(head):
                    paren = head.rfind(")")
                    # Find the opening parenthesis of the parameter list.
                    depth, j = 0, paren
                    while j >= 0:
                        if head[j] == ")":
                            depth += 1
                        elif head[j] == "(":
                            depth -= 1
                            if depth == 0:
                                break
                        j -= 1
                    before = head[:j].rstrip() if j > 0 else ""
                    word = re.search(r"([\w:~<>=+\-*/!&|\[\]]+)$", before)
                    if word and not CONTROL.search(before + "(") and not re.search(
                            r"\b(if|for|while|switch|catch|return|else|do|struct|class|enum|namespace|union)\s*$",
                            before) and not re.search(r"=\s*$|\[[^\]]*\]\s*$", before):
                        stripped = head.lstrip()
                        start = line_of[last_stmt_end + (len(head) - len(stripped))]
            stack.append(start)
            if start is not None:
                depth_in_function += 1
            last_stmt_end = k + 1
        elif ch == "}":
            start = stack.pop() if stack else None
            if start is not None:
                depth_in_function -= 1
                name = clean_name(text.splitlines()[start - 1])
                found.append((start, line_of[k], name))
            last_stmt_end = k + 1
        elif ch == ";":
            last_stmt_end = k + 1
    return found


def clean_name(line):
    return line.strip()[:90]


def python_functions(path, text):
    """(first line, last line, name) of every Python function, from Python's own parser."""
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as e:
        return [(e.lineno or 1, 10**6, f"a syntax error ({e.msg}) where a function may start")]
    return [(node.lineno, node.end_lineno, node.name) for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]


def count_file_lines(path, text):
    if path.endswith(PUBLIC_HEADERS):
        clean = blank(text, False)
        return sum(1 for line in clean.splitlines() if line.strip())
    return len(text.splitlines())


def main(argv):
    listing = "--list" in argv
    files = [a for a in argv if not a.startswith("--")]
    if not files:
        for root in ("Sources", "Tests", "bench", "fuzz", "examples", "scripts"):
            for base, dirs, names in os.walk(root):
                dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("Fixtures", "Presets")]
                files += [os.path.join(base, n) for n in sorted(names) if n.endswith(SUFFIXES)]
    excess = 0
    for path in sorted(files):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        lines = count_file_lines(path, text)
        if lines > MAX_FILE_LINES:
            print(f"{path}: {lines} lines (limit {MAX_FILE_LINES})")
            excess += 1
        found = python_functions(path, text) if path.endswith(".py") else functions(path, text)
        for start, end, name in found:
            length = end - start + 1
            if length > MAX_FUNCTION_LINES:
                print(f"{path}:{start}: function of {length} lines (limit {MAX_FUNCTION_LINES}): {name}")
                excess += 1
            elif listing:
                print(f"{path}:{start}: {length} lines: {name}")
    if excess:
        print(f"check-sizes: {excess} over the limits", file=sys.stderr)
    return 1 if excess else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
