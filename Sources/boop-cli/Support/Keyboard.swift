import CAudioEngine
import Foundation

/// Single keys from the terminal while something plays: space pauses, q quits.
///
/// When stdin is a TTY it is switched to non-canonical, no-echo mode (ISIG stays on, so Ctrl-C
/// still raises SIGINT); reads never block. The original settings come back on `restore()`, on
/// deinit, at normal process exit, and before a second Ctrl-C exits 130.
final class Keyboard {
    enum Key: Equatable {
        case space
        case quit
        case other(UInt8)
    }

    nonisolated(unsafe) private static var saved: termios?
    nonisolated(unsafe) private static var atexitInstalled = false

    /// Nil when stdin is not a terminal (pipes, CI): callers then simply never see keys.
    static func open() -> Keyboard? {
        guard isatty(STDIN_FILENO) == 1 else { return nil }
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return nil }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0 else { return nil }
        saved = original
        // A second Ctrl-C exits from the signal handler, which puts these settings back itself.
        boop_stop_signals_set_terminal(&original)
        if !atexitInstalled {
            atexitInstalled = true
            atexit { Keyboard.restoreTerminal() }
        }
        return Keyboard()
    }

    private init() {}

    deinit { Keyboard.restoreTerminal() }

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

    /// Puts the terminal back as it was (safe to call repeatedly, from any thread).
    static func restoreTerminal() {
        guard var original = saved else { return }
        boop_stop_signals_set_terminal(nil)
        tcsetattr(STDIN_FILENO, TCSANOW, &original)
        saved = nil
    }
}
