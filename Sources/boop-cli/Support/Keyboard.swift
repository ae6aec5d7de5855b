import CAudioEngine
import Foundation

/// Single keys from the terminal while something plays: space pauses, q quits.
///
/// When stdin is a TTY it is switched to non-canonical, no-echo mode (ISIG stays on, so Ctrl-C
/// still raises SIGINT and Ctrl-Z SIGTSTP); reads never block. The original settings come back on
/// `restore()`, on deinit, at normal process exit, and before a second Ctrl-C exits 130.
///
/// Job control: on SIGTSTP (Ctrl-Z) the terminal is put back (settings, and the cursor when a
/// status view hid it) before the process stops, so the shell gets a working line; on SIGCONT
/// (`fg`) key mode and the hidden cursor come back and the view starts a fresh block below what
/// the shell printed. All of it in the signal handlers, with async-signal-safe calls only.
final class Keyboard {
    enum Key: Equatable {
        case space
        case quit
        case other(UInt8)
    }

    // Read by the signal handlers: allocated before any handler is installed, never freed (a
    // termios kept in a Swift global is laid out 3 bytes short; see TerminalSession).
    private static let saved: UnsafeMutablePointer<termios> = {
        let p = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        p.initialize(to: termios())
        return p
    }()
    /// 1 while key mode is on and `saved` holds the settings to put back.
    nonisolated(unsafe) private static var active: Int32 = 0
    nonisolated(unsafe) private static var atexitInstalled = false
    nonisolated(unsafe) private static var handlersInstalled = false

    /// Nil when stdin is not a terminal (pipes, CI): callers then simply never see keys.
    static func open() -> Keyboard? {
        guard isatty(STDIN_FILENO) == 1 else { return nil }
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return nil }
        var raw = keyMode(original)
        guard tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0 else { return nil }
        saved.pointee = original
        active = 1
        // A second Ctrl-C exits from the signal handler, which puts these settings back itself.
        boop_stop_signals_set_terminal(&original)
        if !atexitInstalled {
            atexitInstalled = true
            atexit { Keyboard.restoreTerminal() }
        }
        installJobControl()
        return Keyboard()
    }

    private init() {}

    deinit { Keyboard.restoreTerminal() }

    private static func keyMode(_ original: termios) -> termios {
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        return raw
    }

    /// The next key pressed since the last call, or nil. Never blocks.
    func poll() -> Key? {
        var byte: UInt8 = 0
        let n = read(STDIN_FILENO, &byte, 1)
        guard n == 1 else { return nil }
        switch byte {
        case UInt8(ascii: " "): return .space
        case UInt8(ascii: "q"), UInt8(ascii: "Q"): return .quit
        default: return .other(byte)
        }
    }

    /// Waits up to `timeoutMilliseconds` for a key (also a loop's pacing); nil on timeout.
    func wait(timeoutMilliseconds: Int32) -> Key? {
        var fds = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard Glibc.poll(&fds, 1, timeoutMilliseconds) > 0 else { return nil }
        return poll()
    }

    func restore() { Keyboard.restoreTerminal() }

    /// Sleeps until a key arrives on `keyboard` (when there is one), one of `others` becomes
    /// readable, a signal interrupts, or `seconds` pass: a control loop's only wait, so it wakes
    /// for what is due and otherwise costs nothing.
    static func waitForInput(_ keyboard: Keyboard?, or others: [Int32] = [], seconds: Double) {
        var fds = others.filter { $0 >= 0 }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        if keyboard != nil { fds.append(pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)) }
        let milliseconds = Int32(min(max(seconds, 0), 3600) * 1000 + 0.999)
        _ = Glibc.poll(&fds, nfds_t(fds.count), max(milliseconds, 1))
    }

    /// Puts the terminal back as it was (safe to call repeatedly, from any thread, and from a
    /// signal handler: tcsetattr only).
    static func restoreTerminal() {
        guard active == 1 else { return }
        active = 0
        boop_stop_signals_set_terminal(nil)
        tcsetattr(STDIN_FILENO, TCSANOW, saved)
    }

    // MARK: Job control

    private static func installJobControl() {
        guard !handlersInstalled else { return }
        var old = sigaction()
        sigaction(SIGTSTP, nil, &old)
        // A shell without job control ignores SIGTSTP for us: then nothing may stop.
        guard unsafeBitCast(old.__sigaction_handler.sa_handler, to: Int.self) != unsafeBitCast(SIG_IGN, to: Int.self)
        else { return }
        handlersInstalled = true
        installStopHandler()
        handle(SIGCONT) { _ in Keyboard.continued() }
    }

    private static func installStopHandler() { handle(SIGTSTP) { _ in Keyboard.stop() } }

    private static func handle(_ signal: Int32, _ handler: @escaping @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        sigaction(signal, &action, nil)
    }

    /// The SIGTSTP handler: the terminal as found, then the stop SIGTSTP would have been.
    private static func stop() {
        let saveErrno = errno
        let wasActive = active == 1
        restoreTerminal()
        TerminalView.cursorForSuspend()
        signal(SIGTSTP, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTSTP)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(SIGTSTP)
        // Continued (fg or bg): the SIGCONT handler has already run; it could not know that key
        // mode was on, so it is turned on here.
        installStopHandler()
        if wasActive { enterAgain() }
        errno = saveErrno
    }

    /// The SIGCONT handler: after a stop that was not ours (SIGSTOP), the shell may have put its
    /// own settings back; key mode comes back (from the background tcsetattr stops us again with
    /// SIGTTOU until `fg`, as it should).
    private static func continued() {
        let saveErrno = errno
        if active == 1 {
            var raw = keyMode(saved.pointee)
            tcsetattr(STDIN_FILENO, TCSANOW, &raw)
            TerminalView.cursorForResume()
        }
        errno = saveErrno
    }

    /// After our own stop: the settings found now are the ones to put back later (a `stty`
    /// typed while stopped is kept), then key mode again.
    private static func enterAgain() {
        var current = termios()
        guard tcgetattr(STDIN_FILENO, &current) == 0 else { return }
        saved.pointee = current
        var raw = keyMode(current)
        guard tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0 else { return }
        active = 1
        boop_stop_signals_set_terminal(&current)
        TerminalView.cursorForResume()
    }
}
