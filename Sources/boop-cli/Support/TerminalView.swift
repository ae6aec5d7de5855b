import Foundation

/// A redrawable block of lines at the bottom of a terminal. Each frame is written in one write()
/// with the cursor moved back up over the previous frame and each line cleared to its end — no
/// full-screen clear, so nothing flickers.
final class TerminalView {
    private var linesDrawn = 0
    let isTerminal = isatty(STDOUT_FILENO) == 1

    func draw(_ lines: [String]) {
        var frame = linesDrawn > 0 ? "\u{1B}[\(linesDrawn)F" : ""
        for line in lines { frame += line + "\u{1B}[K\n" }
        linesDrawn = lines.count
        FileHandle.standardOutput.write(Data(frame.utf8))
    }

    static func hideCursor() { FileHandle.standardOutput.write(Data("\u{1B}[?25l".utf8)) }
    static func showCursor() { FileHandle.standardOutput.write(Data("\u{1B}[?25h".utf8)) }
}

/// Raw, non-blocking single-key input from a terminal; the terminal is restored by `restore()`
/// (and at exit, so an error path never leaves it raw).
final class KeyInput {
    private var saved = termios()
    private(set) var active = false
    nonisolated(unsafe) private static var restoreAtExit: termios?

    init() {
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &saved) == 0 else { return }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0 else { return }
        active = true
        KeyInput.restoreAtExit = saved
        atexit {
            if var t = KeyInput.restoreAtExit { tcsetattr(STDIN_FILENO, TCSANOW, &t) }
        }
    }

    /// The next key pressed, if any (never blocks).
    func poll() -> UInt8? {
        guard active else { return nil }
        var byte: UInt8 = 0
        return read(STDIN_FILENO, &byte, 1) == 1 ? byte : nil
    }

    func restore() {
        guard active else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
        active = false
        KeyInput.restoreAtExit = nil
    }

    deinit { restore() }

    /// Only async-signal-safe calls (tcsetattr, write): used on the second Ctrl-C before _exit.
    static func restoreTerminalFromSignalHandler() {
        if var t = restoreAtExit { tcsetattr(STDIN_FILENO, TCSANOW, &t) }
        let showCursor: [UInt8] = Array("\u{1B}[?25h\n".utf8)
        _ = showCursor.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }
}
