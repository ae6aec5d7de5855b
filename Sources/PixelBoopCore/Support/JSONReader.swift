/// JSON's `null` in a parsed document (and for `JSONText` to write).
public struct JSONNull: Sendable, Equatable, CustomStringConvertible {
    public init() {}
    public var description: String { "null" }
}

/// Why a document is not JSON, in the words of Foundation's JSONSerialization (the parser boop
/// used before, whose messages users and tests know): "Invalid value around character 8." and
/// the like, the offset counted in bytes from 0 after a byte-order mark.
public struct JSONParseError: Error, Equatable, Sendable {
    public let reason: String
}

/// Reads a JSON document into plain values: `[String: Any]`, `[Any]`, `String`, `Double`, `Bool`
/// and `JSONNull`. It accepts what Foundation's JSONSerialization accepted (a top-level object
/// or array; trailing commas; UTF-8 with or without a byte-order mark, or UTF-16/32 detected as
/// it did) and refuses the rest with its messages; a number is the Double JSONSerialization's
/// NSNumber gave (a whole number through Int64 when it fits, so `-0` reads as 0).
public enum JSONReader {
    public static func parse(_ data: some Collection<UInt8>) throws(JSONParseError) -> Any {
        let bytes = Array(data)
        // Text that is not the UTF-16 or UTF-32 it looked like is read as it is (as Foundation did).
        var parser = JSONParser(bytes: (try? utf8(bytes)) ?? bytes)
        let value: Any
        do { value = try parser.document() } catch { throw JSONParseError(reason: error.reason) }
        guard value is [String: Any] || value is [Any] else {
            throw JSONParseError(reason: "JSON text did not start with array or object and option to allow fragments not set.")
        }
        return value
    }

    /// The document's bytes as UTF-8, without a byte-order mark.
    static func utf8(_ bytes: [UInt8]) throws(JSONParseError) -> [UInt8] {
        let b = bytes + [1, 1, 1, 1]   // padding, so the patterns below may look at 4 bytes
        switch (b[0], b[1], b[2], b[3]) {
        case (0xEF, 0xBB, 0xBF, _) where bytes.count >= 3: return Array(bytes.dropFirst(3))
        case (0, 0, 0xFE, 0xFF) where bytes.count >= 4: return try transcode(bytes.dropFirst(4), UTF32.self, bigEndian: true)
        case (0xFF, 0xFE, 0, 0) where bytes.count >= 4: return try transcode(bytes.dropFirst(4), UTF32.self, bigEndian: false)
        case (0xFF, 0xFE, _, _) where bytes.count >= 2: return try transcode(bytes.dropFirst(2), UTF16.self, bigEndian: false)
        case (0xFE, 0xFF, _, _) where bytes.count >= 2: return try transcode(bytes.dropFirst(2), UTF16.self, bigEndian: true)
        case (0, 0, 0, _) where bytes.count >= 4: return try transcode(bytes[...], UTF32.self, bigEndian: true)
        case (_, 0, 0, 0) where bytes.count >= 4: return try transcode(bytes[...], UTF32.self, bigEndian: false)
        case (0, _, 0, _) where bytes.count >= 4: return try transcode(bytes[...], UTF16.self, bigEndian: true)
        case (_, 0, _, 0) where bytes.count >= 4: return try transcode(bytes[...], UTF16.self, bigEndian: false)
        case (0, _, _, _) where bytes.count == 2 || bytes.count == 3:
            return try transcode(bytes[...], UTF16.self, bigEndian: true)
        case (_, 0, _, _) where bytes.count == 2 || bytes.count == 3:
            return try transcode(bytes[...], UTF16.self, bigEndian: false)
        default: return bytes
        }
    }

    private static func transcode<C: UnicodeCodec>(_ bytes: ArraySlice<UInt8>, _ codec: C.Type, bigEndian: Bool)
        throws(JSONParseError) -> [UInt8] where C.CodeUnit: FixedWidthInteger
    {
        let width = C.CodeUnit.bitWidth / 8
        guard bytes.count % width == 0 else {
            throw JSONParseError(reason: "Cannot convert input string to valid utf8 input.")
        }
        var units: [C.CodeUnit] = []
        var i = bytes.startIndex
        while i < bytes.endIndex {
            var unit: C.CodeUnit = 0
            for k in 0..<width { unit |= C.CodeUnit(bytes[i + k]) << (8 * (bigEndian ? width - 1 - k : k)) }
            units.append(unit)
            i += width
        }
        var out: [UInt8] = []
        let failed = Swift.transcode(units.makeIterator(), from: C.self, to: UTF8.self, stoppingOnError: true) {
            out.append($0)
        }
        guard !failed else { throw JSONParseError(reason: "Cannot convert input string to valid utf8 input.") }
        return out
    }
}
