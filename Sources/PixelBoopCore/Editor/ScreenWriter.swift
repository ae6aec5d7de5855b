/// Turns frames into terminal output, rewriting only the cells that changed since the last frame,
/// each update wrapped in synchronized output (DEC private mode 2026) so the terminal shows it
/// whole: no flicker, no half-drawn grid.
public struct ScreenWriter: Sendable {
    public let colorMode: ColorMode
    private var previous: ScreenFrame?

    public init(colorMode: ColorMode) { self.colorMode = colorMode }

    /// Forgets what is on screen (after a resize, or anything else that wiped it).
    public mutating func invalidate() { previous = nil }

    /// The bytes that bring the screen from the last frame to `frame` ("" when nothing changed).
    public mutating func update(to frame: ScreenFrame) -> String {
        var out = ""
        let full = previous.map { $0.width != frame.width || $0.height != frame.height } ?? true
        if full { out += "\u{1B}[0m\u{1B}[2J" }
        var current: CellStyle?
        for y in 0..<frame.height {
            var x = 0
            while x < frame.width {
                let cell = frame[x, y]
                if !full, let previous, previous[x, y] == cell {
                    x += 1
                    continue
                }
                // A run of changed cells: one cursor move, then the characters. A run never
                // starts in a wide character's second column: the character is sent again.
                if cell.isContinuation, x > 0, frame[x - 1, y].isWide { x -= 1 }
                out += "\u{1B}[\(y + 1);\(x + 1)H"
                while x < frame.width {
                    let c = frame[x, y]
                    if !full, let previous, previous[x, y] == c, !c.isContinuation { break }
                    if c.style != current {
                        out += sgr(c.style)
                        current = c.style
                    }
                    out.append(contentsOf: Self.sent(frame, x, y))
                    x += 1
                }
            }
        }
        previous = frame
        guard !out.isEmpty else { return "" }
        return "\u{1B}[?2026h" + out + "\u{1B}[0m\u{1B}[?2026l"
    }

    /// A cell's character as sent: one that would drive the terminal (a C0 or C1 control, DEL:
    /// a cell set directly, not through `ScreenFrame.put`, which escapes them) is sent as U+FFFD.
    /// What is sent for the cell at `x`: its character; nothing for a wide character's second
    /// column (the terminal moved two); a blank for half a wide character (a frame set cell by cell).
    static func sent(_ frame: ScreenFrame, _ x: Int, _ y: Int) -> String {
        let c = frame[x, y]
        if c.isContinuation { return x > 0 && frame[x - 1, y].isWide ? "" : " " }
        if c.isWide && !(x + 1 < frame.width && frame[x + 1, y].isContinuation) { return " " }
        return String(shown(c.char))
    }

    static func shown(_ char: Character) -> Character {
        for scalar in char.unicodeScalars where scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) {
            return "\u{FFFD}"
        }
        return char
    }

    func sgr(_ s: CellStyle) -> String {
        var codes = ["0"]
        if s.bold { codes.append("1") }
        if s.underline { codes.append("4") }
        if s.reverse { codes.append("7") }
        if let fg = color(s.fg) { codes.append("38;" + fg) }
        if let bg = color(s.bg) { codes.append("48;" + bg) }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    private func color(_ c: CellStyle.Color) -> String? {
        let rgb: (Int, Int, Int, Int)   // 24-bit, and the nearest 256-palette index
        switch c {
        case .none: return nil
        case .faint: rgb = (88, 88, 88, 240)
        case .dim: rgb = (138, 138, 138, 245)
        case .text: rgb = (200, 200, 200, 251)
        case .bright: rgb = (255, 255, 255, 15)
        case .normal: rgb = (80, 200, 120, 78)
        case .accent: rgb = (255, 176, 40, 214)
        case .sustain: rgb = (100, 160, 255, 75)
        case .playhead: rgb = (40, 44, 96, 17)
        case .cursorLine: rgb = (60, 60, 60, 237)
        case .title: rgb = (255, 110, 180, 205)
        }
        switch colorMode {
        case .none: return nil
        case .palette256: return "5;\(rgb.3)"
        case .truecolor: return "2;\(rgb.0);\(rgb.1);\(rgb.2)"
        }
    }
}
