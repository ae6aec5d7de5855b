/// A one-line text entry on the editor's message line: the path to save to (`W`, or after a
/// save failed), a tempo, a scale, a name. The line opens with a proposal (the current value)
/// selected, as a dialog's field does: the first character typed replaces it, while Backspace,
/// → or End keep it for editing. Printable characters are typed at the end, Backspace deletes one,
/// Ctrl-U clears, Ctrl-W deletes the last path component, Enter gives the text, Esc (or Ctrl-C)
/// gives up.
public struct PathPrompt: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        case editing
        case done(String)
        case cancelled
    }

    /// What the line asks, before the text ("save as").
    public var label: String
    public private(set) var text: String
    /// The proposal is still selected: the next character typed replaces it.
    public private(set) var selected: Bool
    /// Paths longer than this are not typed further (PATH_MAX).
    public static let maxLength = 4096

    public init(label: String, text: String = "") {
        self.label = label
        self.text = String(text.prefix(PathPrompt.maxLength))
        selected = !text.isEmpty
    }

    public mutating func apply(_ event: InputEvent) -> Outcome {
        defer { if case .enter = event {} else { selected = false } }
        switch event {
        case .char(let c):
            if selected { text = "" }
            if text.count < PathPrompt.maxLength { text.append(c) }
        case .backspace:
            if !text.isEmpty { text.removeLast() }
        case .control("u"): text = ""
        case .control("w"):
            // The last path component (and the slashes after it), as shells do.
            while text.last == "/" { text.removeLast() }
            while let last = text.last, last != "/" { text.removeLast() }
        case .enter:
            let trimmed = text.trimmingSpaces
            return trimmed.isEmpty ? .editing : .done(trimmed)
        case .escape, .control("c"): return .cancelled
        default: break
        }
        return .editing
    }

    /// The line as shown in `width` columns: the label, then as much of the end of the text as
    /// fits (the end is where one types), then the cursor mark.
    public func line(width: Int, ascii: Bool = false) -> String {
        let head = label + ": "
        let more = ascii ? "..." : "…"
        let cursor = ascii ? "_" : "▏"
        let hint = ascii ? "  (typing replaces it; -> edits it)" : "  (typing replaces it; → edits it)"
        if selected, head.count + text.count + 1 + hint.count <= width { return head + text + cursor + hint }
        let room = max(0, width - head.count - 1)
        let shown = text.count > room ? more + text.suffix(max(0, room - more.count)) : Substring(text)
        return head + shown + cursor
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
