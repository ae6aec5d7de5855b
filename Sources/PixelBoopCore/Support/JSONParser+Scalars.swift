/// Strings and numbers, as Foundation's JSONSerialization read them.
extension JSONParser {
    /// At the opening quote. Control characters must be escaped; the text between escapes must
    /// be valid UTF-8.
    mutating func parseString() throws(Failure) -> String {
        index += 1
        var start = index
        var output = ""
        while index < bytes.count {
            let b = bytes[index]
            switch b {
            case UInt8(ascii: "\""):
                output += try text(start..<index)
                index += 1
                return output
            case 0...31:
                _ = try text(start..<(index + 1))
                throw Failure(reason: "Unescaped control character around character \(index).")
            case UInt8(ascii: "\\"):
                output += try text(start..<index)
                output += try parseEscape()
                start = index
            default:
                index += 1
            }
        }
        throw .endOfFile
    }

    private func text(_ range: Range<Int>) throws(Failure) -> String {
        guard let s = String(validating: bytes[range], as: UTF8.self) else {
            throw Failure(reason: "Invalid UTF-8 sequence \(range.count) bytes starting from character \(range.lowerBound).")
        }
        return s
    }

    /// At the backslash.
    private mutating func parseEscape() throws(Failure) -> String {
        index += 1
        guard index < bytes.count else { throw .endOfFile }
        let e = bytes[index]
        index += 1
        switch e {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"): return String(Character(try parseUnicodeEscape()))
        default: throw Failure(reason: "Invalid escape sequence around character \(index - 2).")
        }
    }

    /// After `\u`: four hex digits, and a second `\uXXXX` for a surrogate pair.
    private mutating func parseUnicodeEscape() throws(Failure) -> Unicode.Scalar {
        let unit = try hexQuad()
        if unit & 0xFC00 == 0xD800 {
            guard index + 2 <= bytes.count else {
                index = bytes.count
                throw .endOfFile
            }
            let lowSurrogateMissing = Failure(
                reason: "Unexpected end of file during string parse (expected low-surrogate code point but did not find one).")
            guard bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { throw lowSurrogateMissing }
            index += 2
            let low = try hexQuad()
            guard low & 0xFC00 == 0xDC00 else { throw lowSurrogateMissing }
            return Unicode.Scalar(0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00))!
        }
        guard let scalar = Unicode.Scalar(unit) else {
            throw Failure(reason: "Unable to convert hex escape sequence (no high character) to UTF8-encoded character.")
        }
        return scalar
    }

    private mutating func hexQuad() throws(Failure) -> UInt16 {
        guard index + 4 <= bytes.count else {
            index = bytes.count
            throw .endOfFile
        }
        let digits = bytes[index..<(index + 4)]
        guard let value = UInt16(String(decoding: digits, as: UTF8.self), radix: 16), digits.allSatisfy(JSONParser.isHex)
        else {
            throw Failure(reason: "Invalid hex encoded sequence in \"\(String(decoding: digits, as: UTF8.self))\" at \(index).")
        }
        index += 4
        return value
    }

    private static func isHex(_ b: UInt8) -> Bool {
        (0x30...0x39).contains(b) || (0x41...0x46).contains(b) || (0x61...0x66).contains(b)
    }
}

extension JSONParser {
    private enum NumberPart { case integer, fraction, exponent, exponentSign }

    /// At `-` or a digit. The grammar's errors name the offending byte; a number that is no
    /// finite Double is refused as Foundation did ("Number 1e999 is not representable in Swift.").
    mutating func parseNumber() throws(Failure) -> Double {
        let start = index
        var part = NumberPart.integer
        var digits = bytes[index] == UInt8(ascii: "-") ? 0 : 1
        var leadingZero = bytes[index] == UInt8(ascii: "0")
        var i = index + 1
        scan: while i < bytes.count {
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if leadingZero { throw Failure(reason: "Number with leading zero around character \(i).") }
                if b == UInt8(ascii: "0") && digits == 0 && part == .integer { leadingZero = true }
                digits += 1
            case UInt8(ascii: "."):
                guard digits > 0, part == .integer else { throw .unexpected(at: i) }
                (part, digits, leadingZero) = (.fraction, 0, false)
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard digits > 0, part == .integer || part == .fraction else { throw .unexpected(at: i) }
                (part, digits, leadingZero) = (.exponent, 0, false)
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                guard digits == 0, part == .exponent else { throw .unexpected(at: i) }
                part = .exponentSign
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"):
                guard digits > 0 else { throw .unexpected(at: i) }
                break scan
            default:
                throw .unexpected(at: i)
            }
            i += 1
        }
        guard digits > 0 else {
            index = bytes.count
            throw .endOfFile
        }
        index = i
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        if part == .integer, let whole = Int64(text) { return Double(whole) }
        guard let value = Double(text), value.isFinite else {
            throw Failure(reason: "Number \(text) is not representable in Swift.")
        }
        return value
    }
}
