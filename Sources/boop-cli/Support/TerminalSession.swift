import Foundation

/// A full-screen terminal session for the editor: raw input, the alternate screen, SGR mouse
/// reporting with button-event tracking, the cursor hidden. `restore()` undoes every one of them
/// and puts back the exact termios settings found at start; it runs on every exit path: normal
/// return, `exit()`, and fatal signals (a Swift runtime trap is SIGILL or SIGTRAP), from a signal
/// handler that uses only async-signal-safe calls.
///
/// Job control: `suspend()` (Ctrl-Z, which raw mode delivers as a byte, or SIGTSTP from outside)
/// restores the terminal and stops the process as the shell expects; `resume()` (after SIGCONT)
/// enters raw mode, the alternate screen and mouse reporting again, and the editor redraws.
final class TerminalSession {
    /// Modes turned on at start, in order; their resets are sent in reverse at restore.
    private static let enterSequence =
        "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1002h\u{1B}[?1006h\u{1B}[?7l\u{1B}[2J"
    private static let leaveSequence = "\u{1B}[0m\u{1B}[?7h\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?25h\u{1B}[?1049l"

    // Read by the signal handlers: set before any handler is installed, never freed. The saved
    // termios lives on the heap, not in a Swift global: the compiler lays out a global of an
    // imported C struct that it initialises statically as a packed constant (57 bytes: the 3
    // padding bytes after c_cc left out of glibc's 60-byte termios), so tcgetattr/tcsetattr
    // through `&global` wrote and read past its end (AddressSanitizer:
    // global-buffer-overflow).
    private static let saved: UnsafeMutablePointer<termios> = {
        let p = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        p.initialize(to: termios())
        return p
    }()
    nonisolated(unsafe) private static var active: Int32 = 0
    nonisolated(unsafe) private static var leaveBytes: UnsafeMutablePointer<UInt8>?
    nonisolated(unsafe) private static var leaveCount = 0
    /// Set by the SIGCONT handler: `suspend` tells from it whether the process was stopped at all.
    nonisolated(unsafe) private static var continued: Int32 = 0
    /// False when SIGTSTP was ignored at start (a shell without job control): Ctrl-Z then only says so.
    nonisolated(unsafe) private(set) static var canSuspend = true
    /// The write end of the self-pipe that turns SIGWINCH, SIGTERM, SIGHUP, SIGINT, SIGQUIT,
    /// SIGTSTP and SIGCONT into bytes the editor's poll loop reads.
    nonisolated(unsafe) static var signalPipe: (read: Int32, write: Int32) = (-1, -1)

    /// Nil when stdin or stdout is not a terminal.
    static func start() -> TerminalSession? {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { return nil }
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return nil }
        saved.pointee = original
        let bytes = Array(leaveSequence.utf8)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
        buffer.initialize(from: bytes, count: bytes.count)
        leaveBytes = buffer
        leaveCount = bytes.count

        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        signalPipe = (fds[0], fds[1])

        var raw = makeRaw(original)
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else { return nil }
        active = 1
        var tstp = sigaction()
        sigaction(SIGTSTP, nil, &tstp)
        canSuspend = unsafeBitCast(tstp.__sigaction_handler.sa_handler, to: Int.self) != unsafeBitCast(SIG_IGN, to: Int.self)
        installHandlers()
        atexit { TerminalSession.restoreFromAnywhere() }
        write(enterSequence)
        return TerminalSession()
    }

    private init() {}

    deinit { restore() }

    func restore() { TerminalSession.restoreFromAnywhere() }

    /// Safe from a signal handler: write(2) and tcsetattr(3) only.
    static func restoreFromAnywhere() {
        guard active == 1 else { return }
        active = 0
        if let leaveBytes { _ = Glibc.write(STDOUT_FILENO, leaveBytes, leaveCount) }
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, saved)
    }

    /// Raw input: no line editing, no echo, no signals from keys (Ctrl-C and Ctrl-Z arrive as
    /// bytes: the first asks before quitting, the second suspends after restoring the terminal),
    /// no flow control, CR not turned into NL.
    private static func makeRaw(_ original: termios) -> termios {
        var raw = original
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        return raw
    }

    /// Ctrl-Z or SIGTSTP: the terminal as it was found (main screen, mouse off, cursor shown,
    /// line mode), then the process stops as SIGTSTP's default action stops it, so the shell
    /// prints its prompt. Returns once continued (`fg`); false when nothing stopped the process
    /// (an orphaned process group, as under a program that is not a job-control shell: the
    /// kernel discards the stop) — the caller says so. Call `resume()` afterwards either way.
    @discardableResult
    func suspend() -> Bool {
        guard TerminalSession.canSuspend else { return false }
        TerminalSession.restoreFromAnywhere()
        TerminalSession.continued = 0
        signal(SIGTSTP, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTSTP)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        // The whole process group, as the key would have stopped it in line mode.
        kill(0, SIGTSTP)
        // Continued: the SIGCONT handler may run on another thread, a moment after this one goes
        // on; an orphaned group never stopped and sees no SIGCONT.
        for _ in 0..<100 where TerminalSession.continued == 0 { usleep(1000) }
        TerminalSession.installStopHandler()
        return TerminalSession.continued != 0
    }

    /// After SIGCONT (or `suspend` returning): raw mode, the alternate screen, mouse reporting and
    /// the hidden cursor again. When the terminal had been restored, the settings found now are
    /// the ones put back at the end (a `stty` change made while stopped is kept); when it had not
    /// (a SIGSTOP from outside, which cannot be caught), the shell may have reset the modes, so
    /// they are all set again. From the background, tcsetattr stops the process (SIGTTOU) until
    /// `fg`, as it should.
    func resume() {
        if TerminalSession.active == 0 {
            var current = termios()
            guard tcgetattr(STDIN_FILENO, &current) == 0 else { return }
            TerminalSession.saved.pointee = current
        }
        var raw = TerminalSession.makeRaw(TerminalSession.saved.pointee)
        while tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) != 0 && errno == EINTR {}
        TerminalSession.active = 1
        TerminalSession.write(TerminalSession.enterSequence)
    }

    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if n > 0 {
                offset += n
            } else if n < 0 && (errno == EINTR || errno == EAGAIN) {
                continue
            } else {
                return
            }
        }
    }

    /// The terminal's size now (columns, rows); 80 x 24 when it cannot say.
    static func size() -> (width: Int, height: Int) {
        var ws = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 else { return (80, 24) }
        return (Int(ws.ws_col), Int(ws.ws_row))
    }

    private static func installHandlers() {
        // Signals the editor handles itself: each becomes one byte (its number) on the pipe.
        for sig in [SIGWINCH, SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGCONT] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { sig in
                if sig == SIGCONT { TerminalSession.continued = 1 }
                var byte = UInt8(truncatingIfNeeded: sig)
                _ = Glibc.write(TerminalSession.signalPipe.write, &byte, 1)
            }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(sig, &action, nil)
        }
        installStopHandler()
        // Crashes (a Swift runtime trap is SIGILL or SIGTRAP): put the terminal back, then let the
        // signal do what it would have done.
        for sig in [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { sig in
                TerminalSession.restoreFromAnywhere()
                signal(sig, SIG_DFL)
                raise(sig)
            }
            action.sa_flags = Int32(bitPattern: UInt32(SA_RESETHAND))
            sigemptyset(&action.sa_mask)
            sigaction(sig, &action, nil)
        }
    }

    /// SIGTSTP from outside (`kill -TSTP`; the key itself is a byte in raw mode) becomes a byte on
    /// the pipe: the editor suspends from its loop, between two frames. Left alone when it was
    /// ignored at start.
    private static func installStopHandler() {
        guard canSuspend else { return }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { sig in
            var byte = UInt8(truncatingIfNeeded: sig)
            _ = Glibc.write(TerminalSession.signalPipe.write, &byte, 1)
        }
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        sigaction(SIGTSTP, &action, nil)
    }
}
