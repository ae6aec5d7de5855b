import CAudioEngine
import CTerminal
import Glibc

/// The one terminal session of the boop tool (its state and signal handlers are in CTerminal,
/// where a signal handler can reach them safely): key mode for the commands that play (single
/// keys, Ctrl-C and Ctrl-Z still signals), full screen for the editor (raw input, the alternate
/// screen, SGR mouse reporting, bracketed paste). Whatever ends the process (a return, `exit`, a
/// crash signal, a second Ctrl-C) puts the terminal back as it was found.
///
/// Job control: in key mode Ctrl-Z restores the terminal and stops from the signal handler, and
/// SIGCONT enters key mode again (`resumeCount` grows, and SIGCONT arrives as an event); in full
/// screen SIGTSTP arrives as an event and the editor calls `suspend()` then `resume()` between two
/// frames. The value holds no state of its own: it is a handle on the process's one session.
public struct TerminalSession: Sendable {
    public enum Mode: Sendable, Equatable {
        /// `hideCursor`: a view drawn on the screen hides it while the session is on.
        case keys(hideCursor: Bool)
        case fullScreen
    }

    public let mode: Mode

    /// Nil when stdin is not a terminal (pipes, CI), or full screen without a terminal on
    /// `screen`. `screen` is the descriptor the session's views draw on (1 or 2).
    public static func start(_ mode: Mode, screen: Int32 = STDOUT_FILENO) -> TerminalSession? {
        let status: Int32
        switch mode {
        case .keys(let hide): status = boop_term_start(BOOP_TERM_KEYS, screen, hide ? 1 : 0)
        case .fullScreen: status = boop_term_start(BOOP_TERM_FULLSCREEN, screen, 1)
        }
        guard status == 0 else { return nil }
        // A second stop signal ends the process from the engine's handler: it puts the terminal
        // back through the session, the one place that sets its modes.
        boop_stop_signals_set_restore(boop_term_restore)
        return TerminalSession(mode: mode)
    }

    /// The terminal as it was found (idempotent).
    public func restore() { boop_term_restore() }

    /// False when SIGTSTP was ignored at start (a shell without job control).
    public var canSuspend: Bool { boop_term_can_suspend() != 0 }

    /// Full screen: the terminal restored and the process group stopped; returns once continued,
    /// false when nothing stopped it (an orphaned group). Call `resume()` afterwards either way.
    @discardableResult
    public func suspend() -> Bool { boop_term_suspend() != 0 }

    /// The session's mode and screen settings again (after `suspend()` or a SIGCONT event).
    public func resume() { boop_term_resume() }

    /// Readable when terminal signals came; `takeEvents()` reads them.
    public var eventDescriptor: Int32 { boop_term_event_fd() }

    /// The screen's own non-blocking descriptor, or a blocking duplicate of the inherited one on a
    /// terminal this process may not open again (-1 when the screen is not a terminal).
    public var screenDescriptor: Int32 { boop_term_screen_fd() }

    /// Grows each time the terminal came back after a stop.
    public var resumeCount: UInt32 { boop_term_resume_count() }

    /// The signals that came since the last call, in order (SIGWINCH, SIGCONT; full screen also
    /// SIGTSTP, SIGINT, SIGTERM, SIGHUP, SIGQUIT).
    public func takeEvents() -> [Int32] {
        var events: [Int32] = []
        var bytes = [UInt8](repeating: 0, count: 64)
        while true {
            let n = read(eventDescriptor, &bytes, bytes.count)
            guard n > 0 else { break }
            events += bytes[0..<n].map { Int32($0) }
        }
        return events
    }

    /// The key bytes waiting on stdin (none: empty); nil at end of input (the terminal went away).
    public func takeKeys() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = read(STDIN_FILENO, &buffer, buffer.count)
        if n > 0 { return Array(buffer[0..<n]) }
        if n == 0 {
            // In this mode (VMIN 0) a read with nothing typed returns 0 too: only a poll that
            // says hang-up tells the end.
            var fds = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            _ = poll(&fds, 1, 0)
            return fds.revents & Int16(POLLHUP) != 0 ? nil : []
        }
        return errno == EIO ? nil : []
    }

    /// Drops what was typed and not yet read.
    public func discardTypedKeys() { tcflush(STDIN_FILENO, TCIFLUSH) }

    /// The screen's columns and rows now; 80 x 24 when it cannot say. At most `maxSize`: the
    /// editor keeps a cell per position, and a window of 65535 x 65535 (any program may set that)
    /// asked for 100 GB; a larger window shows the screen in its top-left corner.
    public static func size() -> (width: Int, height: Int) {
        var columns: Int32 = 0
        var rows: Int32 = 0
        boop_term_size(&columns, &rows)
        return (min(Int(columns), maxSize.width), min(Int(rows), maxSize.height))
    }

    public static let maxSize = (width: 1024, height: 512)

    /// The columns of the terminal on `fd`; nil when it is not a terminal or does not say.
    public static func columns(of fd: Int32) -> Int? {
        let columns = Int(boop_term_columns(fd))
        return columns > 0 ? columns : nil
    }
}
