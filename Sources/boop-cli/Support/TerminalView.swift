import Foundation

/// A redrawable block of lines at the bottom of a terminal. Each frame is written in one write()
/// with the cursor moved back up over the previous frame and each line cleared to its end — no
/// full-screen clear, so nothing flickers.
final class TerminalView {
    private var linesDrawn = 0
    let isTerminal = isatty(STDOUT_FILENO) == 1

    /// Nil when drawn; else why the write failed (the caller stops and exits as StandardOutput says).
    @discardableResult
    func draw(_ lines: [String]) -> StandardOutput.Failure? {
        var frame = linesDrawn > 0 ? "\u{1B}[\(linesDrawn)F" : ""
        for line in lines { frame += line + "\u{1B}[K\n" }
        linesDrawn = lines.count
        return StandardOutput.send(frame)
    }

    static func hideCursor() { FileHandle.standardOutput.send(Data("\u{1B}[?25l".utf8)) }
    static func showCursor() { FileHandle.standardOutput.send(Data("\u{1B}[?25h".utf8)) }
}
