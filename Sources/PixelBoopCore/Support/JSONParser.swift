/// The recursive-descent parser behind `JSONReader`: the grammar, the offsets and the messages of
/// the parser in Foundation's JSONSerialization (swift-corelibs-foundation), so a file refused
/// before is refused now with the same words.
struct JSONParser {
    struct Failure: Error {
        let reason: String
        static let endOfFile = Failure(reason: "Unexpected end of file during JSON parse.")
        static func unexpected(at index: Int) -> Failure { Failure(reason: "Invalid value around character \(index).") }
    }

    let bytes: [UInt8]
    var index = 0
    var depth = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func document() throws(Failure) -> Any {
        _ = try nextNonWhitespace()
        let value = try parseValue()
        while index < bytes.count {
            guard JSONParser.isWhitespace(bytes[index]) else { throw .unexpected(at: index) }
            index += 1
        }
        return value
    }

    static func isWhitespace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    /// Skips whitespace and returns the byte there (not consumed); the end is an error.
    mutating func nextNonWhitespace() throws(Failure) -> UInt8 {
        while index < bytes.count {
            if !JSONParser.isWhitespace(bytes[index]) { return bytes[index] }
            index += 1
        }
        throw .endOfFile
    }

    mutating func parseValue() throws(Failure) -> Any {
        let byte = try nextNonWhitespace()
        switch byte {
        case UInt8(ascii: "\""): return try parseString()
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "t"): return try literal("true", true)
        case UInt8(ascii: "f"): return try literal("false", false)
        case UInt8(ascii: "n"): return try literal("null", JSONNull())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw .unexpected(at: index)
        }
    }

    /// `true`, `false`, `null`: a wrong letter is reported where it stands, unless the document
    /// ended there or just after it (Foundation read one byte past the mismatch).
    mutating func literal(_ word: String, _ value: Any) throws(Failure) -> Any {
        for expected in word.utf8 {
            guard index < bytes.count else { throw .endOfFile }
            let b = bytes[index]
            index += 1
            if b != expected {
                guard index < bytes.count else { throw .endOfFile }
                throw .unexpected(at: index - 1)
            }
        }
        return value
    }

    mutating func enter() throws(Failure) {
        guard depth < 512 else {
            throw Failure(reason: "Too many nested arrays or dictionaries around character \(index + 1).")
        }
        depth += 1
    }

    /// True when the next byte is `close` (then consumed): an empty container, or one closed after
    /// a trailing comma, as Foundation allowed.
    mutating func closes(_ close: UInt8) throws(Failure) -> Bool {
        guard try nextNonWhitespace() == close else { return false }
        index += 1
        return true
    }

    /// After a member: true at `close` (consumed); past the comma otherwise, and true again when
    /// `close` follows it. Anything else is refused where it stands.
    mutating func endsAfterMember(_ close: UInt8) throws(Failure) -> Bool {
        if try closes(close) { return true }
        guard bytes[index] == UInt8(ascii: ",") else { throw .unexpected(at: index) }
        index += 1
        return try closes(close)
    }

    mutating func parseArray() throws(Failure) -> [Any] {
        try enter()
        defer { depth -= 1 }
        index += 1
        var array: [Any] = []
        if try closes(UInt8(ascii: "]")) { return array }
        while true {
            array.append(try parseValue())
            if try endsAfterMember(UInt8(ascii: "]")) { return array }
        }
    }

    mutating func parseObject() throws(Failure) -> [String: Any] {
        try enter()
        defer { depth -= 1 }
        index += 1
        var object: [String: Any] = [:]
        if try closes(UInt8(ascii: "}")) { return object }
        while true {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                guard index < bytes.count else { throw .endOfFile }
                throw .unexpected(at: index)
            }
            let key = try parseString()
            guard try nextNonWhitespace() == UInt8(ascii: ":") else { throw .unexpected(at: index) }
            index += 1
            object[key] = try parseValue()
            if try endsAfterMember(UInt8(ascii: "}")) { return object }
        }
    }
}
