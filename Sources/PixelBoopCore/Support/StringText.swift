extension String {
    /// The parts between occurrences of `separator` (empty parts kept: "a..b..".parts("..") is
    /// ["a", "b", ""]). Written here rather than taken from the standard library's
    /// `split(separator:)` for collections, which lives in _StringProcessing: one call to it links
    /// that module and the regex parser into boop (1.2 MB).
    public func parts(separatedBy separator: String) -> [String] {
        let text = Array(utf8)
        let sep = Array(separator.utf8)
        guard !sep.isEmpty else { return [self] }
        var parts: [String] = []
        var start = 0
        var i = 0
        while i + sep.count <= text.count {
            if text[i..<(i + sep.count)].elementsEqual(sep) {
                parts.append(String(decoding: text[start..<i], as: UTF8.self))
                i += sep.count
                start = i
            } else {
                i += 1
            }
        }
        parts.append(String(decoding: text[start...], as: UTF8.self))
        return parts
    }

    /// Whether `other` occurs in this text, byte for byte (as `parts(separatedBy:)`, without
    /// _StringProcessing).
    public func includes(_ other: String) -> Bool {
        parts(separatedBy: other).count > 1 || other.isEmpty
    }

    /// Cut or filled with spaces to `length` UTF-16 code units, as NSString's
    /// `padding(toLength:withPad: " ", startingAt: 0)` made it (one column per unit for boop's texts).
    public func padded(to length: Int) -> String {
        let units = utf16.count
        if units >= length { return String(decoding: utf16.prefix(max(length, 0)), as: UTF16.self) }
        return self + String(repeating: " ", count: length - units)
    }

    /// Without the spaces and tabs at either end (CharacterSet.whitespaces: tab and the Unicode
    /// space separators; newlines stay).
    public func trimmingWhitespace() -> String {
        func isSpace(_ s: Unicode.Scalar) -> Bool { s == "\t" || s.properties.generalCategory == .spaceSeparator }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isSpace($0) })!
        return String(scalars[first...last])
    }
}

/// "1 note", "6 notes", "1 entry", "3 entries": a count with its noun in the right number.
public func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
}
