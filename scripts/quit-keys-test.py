#!/usr/bin/env python3
"""q and Ctrl-C end every command that plays or listens, within a second, with exit 0 and the
terminal as it was: play, tone, listen, ambient, edit, synth (JACK, when jackd is installed) and
every train exercise, each in a pseudo-terminal read through pyte. Without a terminal (stdin a
pipe) no key is read, and SIGINT / SIGTERM still end them with 0.

Sound goes to ALSA's null PCM (-D null, capture -C null) as in the other CLI checks; synth needs a
MIDI source, so it runs on a private JACK dummy server (JACK_DEFAULT_SERVER, unique per run).

    scripts/quit-keys-test.py BOOP [--quick] [--only NAME ...]   prints PASS/FAIL lines, exits 1 on a
    failure (--quick: q only, not Ctrl-C too; --only: just the commands named, e.g. "train match")
"""
import fcntl
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from edit_driver import Checks, Terminal  # noqa: E402

boop = os.path.abspath(sys.argv[1])
quick = "--quick" in sys.argv
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
work = tempfile.mkdtemp(prefix="boop-quit-")
check = Checks()
os.environ["XDG_DATA_HOME"] = os.path.join(work, "data")   # the training history: never the user's
demo = os.path.join(root, "examples", "demo.json")
song = os.path.join(work, "edit.json")
shutil.copy(demo, song)


def db(name):
    return ["--db", os.path.join(work, name + ".sqlite")]


# Each command, started so that it is still playing or listening when the key comes: long tones,
# long sessions (the train exercises are mid-trial, their notes sounding, 1.5 s in), and the text it
# shows once it runs. The key comes when that text is on the screen and 1.5 s have passed: the time
# judged is the quit's, not a start-up slowed by a busy machine.
COMMANDS = [
    ("play", ["play", demo, "-D", "null"], "[q] quit"),
    ("tone", ["tone", "A4", "C5", "--duration", "30", "-D", "null"], "Hz"),
    ("listen", ["listen", "-D", "null"], "dBFS"),
    ("ambient", ["ambient", "-D", "null", "--duration", "60"], "playing"),
    ("edit", ["edit", song, "-D", "null"], "new notes"),
    ("train", ["train", "--duration", "3", "-D", "null"] + db("run"), "trial 1/"),
    ("train interval", ["train", "interval", "--duration", "3", "-D", "null"] + db("interval"), "trial 1/"),
    ("train identify", ["train", "identify", "--duration", "3", "-D", "null"] + db("identify"), "name what you heard"),
    ("train degrees", ["train", "degrees", "--duration", "3", "-D", "null"] + db("degrees"), "name what you heard"),
    ("train match", ["train", "match", "-D", "null", "-C", "null", "--trials", "5"] + db("match"), "trial 1/"),
    ("train sing-interval", ["train", "sing-interval", "-D", "null", "-C", "null", "--trials", "5"] + db("sing"),
     "trial 1/"),
]


def restored(t):
    """The terminal as boop found it: the same settings; no alternate screen, mouse mode or
    bracketed paste left on, the cursor not left hidden (by the last change boop wrote of each)."""
    modes = {}
    for mode in (b"1049", b"1002", b"1006", b"2004"):
        modes[mode.decode()] = t.raw.rfind(b"\x1b[?" + mode + b"h") <= t.raw.rfind(b"\x1b[?" + mode + b"l")
    modes["25"] = t.raw.rfind(b"\x1b[?25l") <= t.raw.rfind(b"\x1b[?25h")
    modes["stty"] = t.stty() == t.stty_before
    return all(modes.values()), modes


def ends(name, argv, ready, key, label):
    """Starts `argv` in a terminal, sends `key` once `ready` is shown (when given) and 1.5 s have
    passed; it must exit 0 within 1 s, the terminal restored."""
    with Terminal([boop] + argv) as t:
        t.pump(1.5)
        if ready:   # None: the command shows nothing of its own (listen --midi-out)
            t.pump_until(lambda term: any(ready in line for line in term.shown()), 30)
        if not t.alive():
            check(False, f"{label} ends `boop {name}`", f"it had already exited ({t.status}): {t.shown()}")
            return
        started = time.monotonic()
        status = t.finish(key, limit=10)
        took = time.monotonic() - started
        ok, modes = restored(t)
        check(status == 0 and took < 1.0 and ok,
              f"{label} ends `boop {name}` in {took:.2f} s (exit {status}), terminal restored",
              f"{modes}; {t.shown()}")


def claim_jack_name():
    """The first free name of a pool of four (as scripts/live-lib.sh claims its own), held by a lock
    until this process ends: a server killed before it could leave keeps its slot in libjack's
    registry (eight in all) until a server of the same name reclaims it, so names are reused, never
    new per run, and two runs at once never share one."""
    for n in range(1, 5):
        path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"boop-quit-names-{os.getuid()}-{n}.lock")
        fd = os.open(path, os.O_CREAT | os.O_RDWR, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return "boop-quit-tests" + ("" if n == 1 else f"-{n}"), fd
        except BlockingIOError:
            os.close(fd)
    return None, None


def jack_server():
    """A private JACK dummy server for synth, or None where jackd is not installed (or four runs
    hold every name of the pool)."""
    if not shutil.which("jackd"):
        return None
    name, _held = claim_jack_name()
    if name is None:
        return None
    jack_server.lock = _held
    os.environ["JACK_DEFAULT_SERVER"] = name
    prefix = ["setpriv", "--pdeathsig", "KILL"] if shutil.which("setpriv") else []
    log = open(os.path.join(work, "jackd.log"), "a")
    proc = subprocess.Popen(prefix + ["jackd", "-r", "-n", name, "-d", "dummy", "-r", "48000", "-p", "256"],
                            stdout=log, stderr=log, stdin=subprocess.DEVNULL)
    end = time.monotonic() + 30
    while time.monotonic() < end and proc.poll() is None:
        ports = subprocess.run(["jack_lsp", "-s", name], capture_output=True, text=True).stdout
        if "system:playback_1" in ports:
            return proc
        time.sleep(0.05)
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    return None


jack = jack_server()
try:
    commands = list(COMMANDS)
    if jack:
        commands.append(("synth", ["synth", "--backend", "jack", "--no-connect"], "[q] quit"))
        commands.append(("listen --midi-out", ["listen", "--midi-out", "--backend", "jack", "--no-connect"], None))
    else:
        print("SKIP  synth, listen --midi-out: no JACK server could start here (no jackd, or four runs hold the names; on ALSA synth needs /dev/snd/seq)")
    only = [sys.argv[i + 1] for i, a in enumerate(sys.argv[:-1]) if a == "--only"]
    for name, argv, ready in commands:
        if only and name not in only:
            continue
        ends(name, argv, ready, b"q", "q")
        if not quick:
            ends(name, argv, ready, b"\x03", "Ctrl-C")

    # No terminal: keys are not read (a q on the pipe is no quit), and a stop signal ends it with 0.
    for name, argv, _ in (COMMANDS[1], COMMANDS[2], COMMANDS[5]):
        for sig in (signal.SIGINT, signal.SIGTERM):
            proc = subprocess.Popen([boop] + argv + (["--json"] if name == "train" else []),
                                    stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            time.sleep(1.5)
            if name != "train":
                proc.stdin.write(b"q")
                proc.stdin.flush()
                time.sleep(0.5)
            running = proc.poll() is None
            started = time.monotonic()
            proc.send_signal(sig)
            try:
                status = proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                status = "hang"
            took = time.monotonic() - started
            err = proc.stderr.read().decode(errors="replace")
            check(running and status == 0 and took < 1.0,
                  f"no terminal: `boop {name}` {'ignores q, ' if name != 'train' else ''}"
                  f"{signal.Signals(sig).name} ends it in {took:.2f} s (exit {status})",
                  f"running {running}; {err[-300:]}")
finally:
    if jack:
        # Asked to stop, the server leaves libjack's registry; killed, it would keep its slot.
        jack.terminate()
        try:
            jack.wait(timeout=10)
        except subprocess.TimeoutExpired:
            jack.kill()
            jack.wait()
    shutil.rmtree(work, ignore_errors=True)
sys.exit(1 if check.failures else 0)
