import Foundation

/// A full-screen terminal session for the editor: raw input, the alternate screen, SGR mouse
/// reporting with button-event tracking, the cursor hidden. `restore()` undoes every one of them
/// and puts back the exact termios settings found at start; it runs on every exit path: normal
/// return, `exit()`, and fatal signals (a Swift runtime trap is SIGILL or SIGTRAP), from a signal
/// handler that uses only async-signal-safe calls.
final class TerminalSession {
    /// Modes turned on at start, in order; their resets are sent in reverse at restore.
    private static let enterSequence =
        "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1002h\u{1B}[?1006h\u{1B}[?7l\u{1B}[2J"
    private static let leaveSequence = "\u{1B}[0m\u{1B}[?7h\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?25h\u{1B}[?1049l"

    // Read by the signal handlers: set before any handler is installed, never freed.
    nonisolated(unsafe) private static var saved = termios()
    nonisolated(unsafe) private static var active: Int32 = 0
    nonisolated(unsafe) private static var leaveBytes: UnsafeMutablePointer<UInt8>?
    nonisolated(unsafe) private static var leaveCount = 0
    /// The write end of the self-pipe that turns SIGWINCH, SIGTERM, SIGHUP and SIGINT into bytes
    /// the editor's poll loop reads.
    nonisolated(unsafe) static var signalPipe: (read: Int32, write: Int32) = (-1, -1)

    /// Nil when stdin or stdout is not a terminal.
    static func start() -> TerminalSession? {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { return nil }
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return nil }
        saved = original
        let bytes = Array(leaveSequence.utf8)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
        buffer.initialize(from: bytes, count: bytes.count)
        leaveBytes = buffer
        leaveCount = bytes.count

        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        signalPipe = (fds[0], fds[1])

        var raw = original
        // Raw input: no line editing, no echo, no signals from keys (Ctrl-C arrives as a byte and
        // asks before quitting), no flow control, CR not turned into NL. Output keeps its newline
        // translation off too, so the screen is addressed cell by cell.
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else { return nil }
        active = 1
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
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
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
        for sig in [SIGWINCH, SIGTERM, SIGHUP, SIGINT, SIGQUIT] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { sig in
                var byte = UInt8(truncatingIfNeeded: sig)
                _ = Glibc.write(TerminalSession.signalPipe.write, &byte, 1)
            }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(sig, &action, nil)
        }
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
}
