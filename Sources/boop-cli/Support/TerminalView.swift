import Foundation

/// A redrawable block of lines at the bottom of a terminal. Each frame is written in one write()
/// with the cursor moved back up over the previous frame and each line cleared to its end — no
/// full-screen clear, so nothing flickers. After a suspend (Ctrl-Z, then `fg`) the next frame
/// starts a new block below what the shell printed, instead of moving up over it.
final class TerminalView {
    private var linesDrawn = 0
    let isTerminal = isatty(STDOUT_FILENO) == 1

    // Shared with Keyboard's signal handlers: plain words, written and read with async-signal-safe
    // code only.
    nonisolated(unsafe) private static var cursorHidden: Int32 = 0
    nonisolated(unsafe) private static var resumed: Int32 = 0

    /// Nil when drawn; else why the write failed (the caller stops and exits as StandardOutput says).
    @discardableResult
    func draw(_ lines: [String]) -> StandardOutput.Failure? {
        if TerminalView.resumed != 0 {
            TerminalView.resumed = 0
            linesDrawn = 0
        }
        var frame = linesDrawn > 0 ? "\u{1B}[\(linesDrawn)F" : ""
        for line in lines { frame += line + "\u{1B}[K\n" }
        linesDrawn = lines.count
        return StandardOutput.send(frame)
    }

    static func hideCursor() {
        cursorHidden = 1
        FileHandle.standardOutput.send(Data("\u{1B}[?25l".utf8))
    }

    static func showCursor() {
        cursorHidden = 0
        FileHandle.standardOutput.send(Data("\u{1B}[?25h".utf8))
    }

    /// From a SIGTSTP handler: the shell gets its cursor back.
    static func cursorForSuspend() {
        guard cursorHidden == 1 else { return }
        writeRaw("\u{1B}[?25h")
    }

    /// From a SIGCONT path: hidden again, and the next frame is a new block.
    static func cursorForResume() {
        resumed = 1
        guard cursorHidden == 1 else { return }
        writeRaw("\u{1B}[?25l")
    }

    /// write(2) of a literal: nothing allocated, so it is safe in a signal handler.
    private static func writeRaw(_ literal: StaticString) {
        _ = Glibc.write(STDOUT_FILENO, literal.utf8Start, literal.utf8CodeUnitCount)
    }
}
