/// Writes JSON the way Foundation's JSONSerialization did for boop's documents: compact, keys in
/// order when asked (by code point: boop's keys are lowercase ASCII and `_`, where that is the
/// order Foundation's numeric, case-insensitive comparison gave), strings escaped as it escaped
/// them (`"`, `\`, `/` unless told not to, \b \f \n \r \t, other controls as \u00XX), Doubles as
/// Swift prints them without a trailing ".0" (440, 0.5, 1e-07).
public enum JSONText {
    /// nil for what JSON cannot hold (an infinite or NaN number, a value of another type).
    public static func encode(_ value: Any, sortedKeys: Bool = true, escapeSlashes: Bool = true) -> String? {
        var out = ""
        return write(value, into: &out, sortedKeys: sortedKeys, escapeSlashes: escapeSlashes) ? out : nil
    }

    /// A string as a JSON string literal.
    public static func quote(_ s: String, escapeSlashes: Bool = true) -> String {
        var out = ""
        appendQuoted(s, to: &out, escapeSlashes: escapeSlashes)
        return out
    }

    private static func write(_ value: Any, into out: inout String, sortedKeys: Bool, escapeSlashes: Bool) -> Bool {
        switch value {
        case let s as String: appendQuoted(s, to: &out, escapeSlashes: escapeSlashes)
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
            out += "["
            for (i, element) in list.enumerated() {
                if i > 0 { out += "," }
                guard write(element, into: &out, sortedKeys: sortedKeys, escapeSlashes: escapeSlashes) else { return false }
            }
            out += "]"
        case let object as [String: Any]:
            out += "{"
            let keys = sortedKeys ? object.keys.sorted() : Array(object.keys)
            for (i, key) in keys.enumerated() {
                if i > 0 { out += "," }
                appendQuoted(key, to: &out, escapeSlashes: escapeSlashes)
                out += ":"
                guard write(object[key]!, into: &out, sortedKeys: sortedKeys, escapeSlashes: escapeSlashes) else { return false }
            }
            out += "}"
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
