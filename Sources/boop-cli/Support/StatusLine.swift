import Glibc
import PixelBoopCore

/// A live status line redrawn in place (`\r`, the line, clear to its end). A line wider than the
/// terminal wraps, and `\r` then only returns to the start of its last row: every refresh would
/// leave a new row behind. So each line is fitted to the terminal's width at each refresh (read
/// from the terminal each time, which also follows a resized window without a SIGWINCH handler):
/// the least important fields are dropped first, and what still does not fit is cut.
struct StatusField {
    var text: String
    /// 0 is kept longest; a field with a higher number goes first.
    var priority: Int

    init(_ text: String, priority: Int) {
        self.text = text
        self.priority = priority
    }
}

enum StatusLine {
    /// The columns of the terminal on `fd`; nil when it is not a terminal or does not say.
    static func columns(of fd: Int32) -> Int? { TerminalSession.columns(of: fd) }

    /// The fields joined by `separator`, fitted into `columns` (nil: no limit). One column is left
    /// free: a character in the last column leaves some terminals waiting to wrap.
    /// Every character counts one column (the lines use ASCII, block and middle-dot characters).
    static func fit(_ fields: [StatusField], separator: String = "  ", columns: Int?) -> String {
        var kept = fields.filter { !$0.text.isEmpty }
        func joined() -> String { kept.map(\.text).joined(separator: separator) }
        guard let columns else { return joined() }
        let room = max(1, columns - 1)
        while kept.count > 1 && joined().count > room {
            // The least important field; of equals, the rightmost.
            let worst = kept.indices.max { a, b in
                kept[a].priority != kept[b].priority ? kept[a].priority < kept[b].priority : a < b
            }!
            kept.remove(at: worst)
        }
        let line = joined()
        return line.count > room ? String(line.prefix(room)) : line
    }
}
