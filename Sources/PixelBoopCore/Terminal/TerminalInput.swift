/// What a terminal sends, decoded: keys, escape sequences and xterm SGR mouse reports (mode 1006).
public enum InputEvent: Sendable, Equatable {
    public enum Arrow: Sendable, Equatable { case up, down, left, right }
    public enum MouseButton: Sendable, Equatable { case left, middle, right, wheelUp, wheelDown }

    /// A printable character: ASCII, or any other valid UTF-8 character (typed into a path).
    case char(Character)
    case arrow(Arrow)
    /// An arrow with Shift held (xterm: ESC [ 1 ; 2 A ...).
    case shiftArrow(Arrow)
    /// The Insert key (ESC [ 2 ~).
    case insert
    /// The Delete key (ESC [ 3 ~).
    case delete
    case enter
    case tab
    case shiftTab
    case backspace
    case escape
    /// Ctrl plus a letter ("r" for Ctrl-R, "c" for Ctrl-C).
    case control(Character)
    /// Column and row are 1-based, as the terminal reports them. `drag` is motion with a button
    /// held; `pressed` false is the release.
    case mouse(button: MouseButton, column: Int, row: Int, pressed: Bool, drag: Bool)
}

/// Decodes the bytes read from a terminal in raw mode. Sequences split across reads are kept until
/// they are complete; a lone ESC is a key only when nothing follows it (`flush` after a short
/// wait). Unknown sequences are skipped whole, never typed as keys.
public struct TerminalInput: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    /// True while an incomplete sequence waits for more bytes.
    public var isWaiting: Bool { !pending.isEmpty }

    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [InputEvent] {
        pending.append(contentsOf: bytes)
        var events: [InputEvent] = []
        var i = 0
        while i < pending.count {
            guard let (event, used) = decode(at: i) else { break }   // incomplete: wait for more
            if let event { events.append(event) }
            i += used
        }
        pending.removeFirst(i)
        return events
    }

    /// Nothing more came: a waiting ESC was the Escape key (anything else incomplete is dropped).
    public mutating func flush() -> [InputEvent] {
        defer { pending.removeAll() }
        return pending.first == 0x1B ? [.escape] : []
    }

    /// One event (or nil for bytes to skip) and the bytes it used; nil when incomplete.
    private func decode(at i: Int) -> (InputEvent?, Int)? {
        let b = pending[i]
        switch b {
        case 0x1B: return escape(at: i)
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x09: return (.tab, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x01...0x1A: return (.control(Character(UnicodeScalar(b + 0x60))), 1)
        case 0x20...0x7E: return (.char(Character(UnicodeScalar(b))), 1)
        case 0xC2...0xF4:
            // A UTF-8 character: never a command key, but a path may hold it. Invalid or
            // non-printable sequences are skipped a byte at a time.
            let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
            guard pending.count - i >= length else { return nil }
            var bytes = pending[i..<(i + length)].makeIterator()
            var decoder = UTF8()
            guard case .scalarValue(let scalar) = decoder.decode(&bytes), bytes.next() == nil, scalar.value >= 0xA0
            else { return (nil, 1) }
            return (.char(Character(scalar)), length)
        default: return (nil, 1)
        }
    }

    private func escape(at i: Int) -> (InputEvent?, Int)? {
        guard i + 1 < pending.count else { return nil }
        let second = pending[i + 1]
        if second == UInt8(ascii: "O") {   // SS3: arrows in application cursor mode
            guard i + 2 < pending.count else { return nil }
            return (arrow(pending[i + 2]).map { .arrow($0) }, 3)
        }
        guard second == UInt8(ascii: "[") else {
            // ESC followed by something else: Alt+key or a stray ESC; the ESC is the key.
            return (.escape, 1)
        }
        // CSI: parameters 0x30-0x3F, intermediates 0x20-0x2F, one final byte 0x40-0x7E.
        var j = i + 2
        while j < pending.count, (0x20...0x3F).contains(pending[j]) { j += 1 }
        guard j < pending.count else {
            // A runaway sequence (no final byte in 64 bytes) is skipped rather than waited on.
            return j - i > 64 ? (nil, j - i) : nil
        }
        let final = pending[j]
        let params = String(decoding: pending[(i + 2)..<j], as: UTF8.self)
        let used = j - i + 1
        switch final {
        case UInt8(ascii: "A"), UInt8(ascii: "B"), UInt8(ascii: "C"), UInt8(ascii: "D"):
            // A modifier of 2 is Shift alone (1 + 1); others (Ctrl, Alt) move as plain arrows.
            if params == "1;2" { return (arrow(final).map { .shiftArrow($0) }, used) }
            return (arrow(final).map { .arrow($0) }, used)
        case UInt8(ascii: "~"): return (params == "3" ? .delete : params == "2" ? .insert : nil, used)
        case UInt8(ascii: "Z"): return (.shiftTab, used)
        case UInt8(ascii: "M"), UInt8(ascii: "m"):
            guard params.hasPrefix("<"), let fields = TerminalInput.mouseFields(params.utf8.dropFirst()) else {
                return (nil, used)
            }
            let code = fields[0]
            let button: InputEvent.MouseButton
            if code & 64 != 0 {
                button = code & 1 == 0 ? .wheelUp : .wheelDown
            } else {
                switch code & 3 {
                case 0: button = .left
                case 1: button = .middle
                case 2: button = .right
                default: return (nil, used)   // motion with no button held
                }
            }
            return (
                .mouse(
                    button: button, column: fields[1], row: fields[2], pressed: final == UInt8(ascii: "M"),
                    drag: code & 32 != 0), used
            )
        default: return (nil, used)
        }
    }

    /// The three numbers of an SGR mouse report: digits only (no sign), each saturated at 99 999
    /// (no screen is that wide), so no report can carry a number that overflows what uses it.
    static func mouseFields(_ bytes: some Collection<UInt8>) -> [Int]? {
        var fields: [Int] = [0]
        var digits = 0
        for b in bytes {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                fields[fields.count - 1] = min(fields[fields.count - 1] * 10 + Int(b - 48), 99_999)
                digits += 1
            case UInt8(ascii: ";"):
                guard digits > 0, fields.count < 3 else { return nil }
                fields.append(0)
                digits = 0
            default: return nil
            }
        }
        return fields.count == 3 && digits > 0 ? fields : nil
    }

    private func arrow(_ b: UInt8) -> InputEvent.Arrow? {
        switch b {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        default: nil
        }
    }
}
