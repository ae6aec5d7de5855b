import Glibc
import PixelBoopCore

/// `q` from the terminal for the commands that play or listen with no screen of their own (`tone`,
/// `listen`): the terminal in key mode while they run (no echo, keys read as typed; Ctrl-C and
/// Ctrl-Z still signal), and `q` or `Q` ends them as Ctrl-C does. Without a terminal on stdin
/// (a pipe, a script) nothing changes.
final class QuitKey {
    private let terminal: TerminalSession?
    private var typed = false
    /// Other keys typed since the last `takeKeys()` (the steering keys of `train match`), at most
    /// 16: a command that does not ask for them keeps only the newest.
    private var others: [UInt8] = []

    init() {
        terminal = isatty(STDIN_FILENO) == 1 ? TerminalSession.start(.keys(hideCursor: false)) : nil
    }

    /// What to wake on besides the stop signals: stdin, while keys are read.
    var descriptors: [Int32] { terminal == nil ? [] : [STDIN_FILENO] }

    /// True once q was typed (what waits is read without blocking; other keys are dropped), or
    /// once the terminal went away (its end of input would wake the caller for ever).
    func pressed() -> Bool {
        guard !typed, let terminal else { return typed }
        while true {
            guard let bytes = terminal.takeKeys() else {
                typed = true
                break
            }
            if bytes.isEmpty { break }
            if bytes.contains(UInt8(ascii: "q")) || bytes.contains(UInt8(ascii: "Q")) { typed = true }
            others = Array((others + bytes).suffix(16))
        }
        return typed
    }

    /// The keys other than q typed since the last call, in order.
    func takeKeys() -> [UInt8] {
        _ = pressed()
        defer { others.removeAll() }
        return others
    }

    func restore() { terminal?.restore() }
}
