/// Writes JSON the way Foundation's JSONSerialization did for boop's documents: compact, keys in
/// order when asked (by code point: boop's keys are lowercase ASCII and `_`, where that is the
/// order Foundation's numeric, case-insensitive comparison gave), strings escaped as it escaped
/// them (`"`, `\`, `/` unless told not to, \b \f \n \r \t, other controls as \u00XX), Doubles as
/// Swift prints them without a trailing ".0" (440, 0.5, 1e-07). Pretty-printed as Foundation's
/// JSONEncoder printed a version-1 pattern: two spaces a level, `"key" : value`, and an empty
/// array or object opened and closed on lines of their own with an empty line between.
public enum JSONText {
    /// nil for what JSON cannot hold (an infinite or NaN number, a value of another type).
    public static func encode(_ value: Any, sortedKeys: Bool = true, escapeSlashes: Bool = true, pretty: Bool = false)
        -> String?
    {
        var out = ""
        let style = Style(sortedKeys: sortedKeys, escapeSlashes: escapeSlashes, pretty: pretty)
        return write(value, into: &out, style, depth: 0) ? out : nil
    }

    /// A string as a JSON string literal.
    public static func quote(_ s: String, escapeSlashes: Bool = true) -> String {
        var out = ""
        appendQuoted(s, to: &out, escapeSlashes: escapeSlashes)
        return out
    }

    private struct Style {
        var sortedKeys: Bool, escapeSlashes: Bool, pretty: Bool
    }

    private static func write(_ value: Any, into out: inout String, _ style: Style, depth: Int) -> Bool {
        let open = style.pretty ? "\n" + String(repeating: "  ", count: depth + 1) : ""
        let close = style.pretty ? "\n" + String(repeating: "  ", count: depth) : ""
        switch value {
        case let s as String: appendQuoted(s, to: &out, escapeSlashes: style.escapeSlashes)
        case let b as Bool: out += b ? "true" : "false"
        case let n as Int: out += String(n)
        case let n as Int64: out += String(n)
        case let n as Int32: out += String(n)
        case let n as UInt64: out += String(n)
        case let n as UInt32: out += String(n)
        case let n as UInt: out += String(n)
        case let d as Double:
            guard d.isFinite else { return false }
            var text = "\(d)"
            if text.hasSuffix(".0") { text.removeLast(2) }
            out += text
        case is JSONNull: out += "null"
        case let list as [Any]:
            out += "[" + (list.isEmpty && style.pretty ? "\n" : "")
            for (i, element) in list.enumerated() {
                out += (i > 0 ? "," : "") + open
                guard write(element, into: &out, style, depth: depth + 1) else { return false }
            }
            out += close + "]"
        case let object as [String: Any]:
            out += "{" + (object.isEmpty && style.pretty ? "\n" : "")
            let keys = style.sortedKeys ? object.keys.sorted() : Array(object.keys)
            for (i, key) in keys.enumerated() {
                out += (i > 0 ? "," : "") + open
                appendQuoted(key, to: &out, escapeSlashes: style.escapeSlashes)
                out += style.pretty ? " : " : ":"
                guard write(object[key]!, into: &out, style, depth: depth + 1) else { return false }
            }
            out += close + "}"
        default: return false
        }
        return true
    }

    private static func appendQuoted(_ s: String, to out: inout String, escapeSlashes: Bool) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/": out += escapeSlashes ? "\\/" : "/"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
