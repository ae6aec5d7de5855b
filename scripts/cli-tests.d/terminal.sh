#!/usr/bin/env bash
# Live status lines and keys as a terminal shows them (a pseudo-terminal read through pyte): the
# lines of ambient and listen fit 40, 80 and 100 columns and follow a resize (one row on screen,
# never a new row per refresh); ambient's n / Right / > and p / Left / < step through the presets;
# devices hides ALSA's converter plugins unless --all; shell completion offers the preset names; a
# terminal that stops reading never stops the live commands (scripts/screen-stall-test.py).
# Run by scripts/cli-tests.sh with BOOP, ROOT and WORK set.
set -uo pipefail
boop="$BOOP"
failures=0
pass() { echo "PASS  $1"; }
fail() { echo "FAIL  $1"; failures=$((failures + 1)); }

python3 - "$boop" <<'PY' || failures=$((failures + 1))
import fcntl, os, pty, select, signal, struct, subprocess, sys, termios, time
import pyte

boop = sys.argv[1]
presets = [line.split()[0] for line in subprocess.run([boop, "ambient", "--list"], capture_output=True,
                                                       text=True).stdout.splitlines() if line.strip()]
failed = 0


class Term:
    def __init__(self, args, cols, rows=24):
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
            env = dict(os.environ, TERM="xterm-256color", LC_ALL="C.UTF-8")
            os.execvpe(boop, [boop, *args], env)
        self.resize(cols, rows)
        self.status = None

    def resize(self, cols, rows=24):
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.screen.resize(rows, cols)

    def pump(self, seconds, until=None):
        """Reads for `seconds`, or until `until(self)` holds; returns whether it did."""
        end = time.time() + seconds
        while time.time() < end:
            if until and until(self):
                return True
            if select.select([self.fd], [], [], 0.02)[0]:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    data = b""
                if not data:
                    break
                self.stream.feed(data)
        return bool(until and until(self))

    def rows(self):
        return [line.rstrip() for line in self.screen.display if line.strip()]

    def finish(self, key=b"q", limit=15):
        os.write(self.fd, key)
        end = time.time() + limit
        while time.time() < end:
            self.pump(0.1)
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        return None


def check(name, ok, detail=""):
    global failed
    print(("PASS  " if ok else "FAIL  ") + name + ("" if ok else f": {detail}"))
    failed += 0 if ok else 1


# The status lines: 2.5 s of refreshes, then a resize to 40 columns, must leave one row on screen.
for cols in (40, 80, 100):
    t = Term(["ambient", "-D", "null", "--preset", presets[0]], cols)
    t.pump(2.5)
    rows = t.rows()
    check(f"ambient at {cols} columns: one row, within the width",
          len(rows) == 1 and presets[0] in rows[0] and len(rows[0]) < cols, rows)
    if cols == 100:
        t.resize(40)
        os.kill(t.pid, signal.SIGWINCH)
        # A line already on its way when the window shrank wraps (this reader cannot reflow it as
        # a terminal would): it is read, then the screen is cleared, and what follows must fit.
        t.pump(0.5)
        t.screen.reset()
        t.pump(1.5)
        rows = t.rows()
        check("ambient after a resize 100 -> 40: one row", len(rows) == 1 and len(rows[0]) < 40, rows)
    check(f"ambient at {cols} columns: q exits 0", t.finish() == 0)

for cols in (40, 80, 100):
    t = Term(["listen", "-D", "null", "--duration", "2"], cols)
    t.pump(6, until=lambda t: os.waitpid(t.pid, os.WNOHANG) != (0, 0))
    rows = t.rows()
    check(f"listen at {cols} columns: one row, within the width",
          len(rows) == 1 and "dBFS" in rows[0] and len(rows[0]) < cols, rows)

# Keys: n, Right and > go to the next preset, p, Left and < to the previous (cyclic, as the media keys).
t = Term(["ambient", "-D", "null", "--preset", presets[0]], 100)
shown = lambda name: (lambda t: any(r.startswith(name + " ") for r in t.rows()))
check("ambient shows the first preset", t.pump(10, shown(presets[0])), t.rows())
steps = [(b"n", 1), (b"\x1b[C", 2), (b">", 3), (b"p", 2), (b"\x1b[D", 1), (b"<", 0), (b"<", -1)]
for key, index in steps:
    # A crossfade takes 2 s; a press during one waits for it, so each waits for the last to show.
    os.write(t.fd, key)
    name = presets[index % len(presets)]
    check(f"ambient key {key!r} -> {name}", t.pump(10, shown(name)), t.rows())
    t.pump(2.3)
check("ambient: q exits 0 after the keys", t.finish() == 0)

help_text = subprocess.run([boop, "ambient", "--help"], capture_output=True, text=True).stdout
check("ambient --help names the keys", all(k in " ".join(help_text.split()) for k in ("n, Right or >", "p, Left or <")),
      help_text)
sys.exit(1 if failed else 0)
PY

# devices: the converter plugins only with --all.
names=$("$boop" devices --json | python3 -c "import json,sys; print(' '.join(d['name'] for d in json.load(sys.stdin)))")
all=$("$boop" devices --json --all | python3 -c "import json,sys; print(' '.join(d['name'] for d in json.load(sys.stdin)))")
hidden=0
for n in $names; do
  case "${n%%:*}" in lavrate* | samplerate* | speexrate* | upmix | vdownmix | speex | a52 | dca | usbstream) hidden=1 ;; esac
done
if [ "$hidden" = 0 ] && echo " $names " | grep -q " default " && { ! aplay -L 2>/dev/null | grep -qx pulse || echo " $names " | grep -q " pulse "; } &&
  { ! aplay -L 2>/dev/null | grep -qx lavrate || echo " $all " | grep -q " lavrate "; }; then
  pass "devices: no converter plugins ($names); --all lists them ($all)"
else
  fail "devices: $names / --all: $all"
fi

# Shell completion: --preset offers the bundled names.
for shell in bash zsh fish; do
  script=$("$boop" --generate-completion-script "$shell")
  missing=""
  for p in $("$boop" ambient --list | awk '{print $1}'); do
    grep -q -- "$p" <<<"$script" || missing="$missing $p"
  done
  [ -z "$missing" ] && pass "$shell completion offers the preset names" || fail "$shell completion lacks:$missing"
done

# The README states the --voices range the binary takes.
root="$ROOT"
range=$(grep -o '`--voices`, default 8, 1…[0-9]* on the command line' "$root/README.md" | grep -o '1…[0-9]*')
top=${range#1…}
if [ -n "$top" ] && "$boop" render "$root/examples/demo.json" -o "$WORK/voices.wav" --voices "$top" 2>/dev/null &&
  ! "$boop" render "$root/examples/demo.json" -o "$WORK/voices.wav" --voices "$((top + 1))" 2>/dev/null; then
  pass "README's --voices range ($range) is what render takes"
else
  fail "README's --voices range '$range' is not what render takes"
fi

# A terminal that stops reading for 30 s never stops edit, play or ambient: keys still act, q
# exits in seconds, stdout stays blocking, and the screen catches up once read.
python3 "$ROOT/scripts/screen-stall-test.py" "$boop" "$WORK" 30 || failures=$((failures + 1))

exit $((failures > 0))
