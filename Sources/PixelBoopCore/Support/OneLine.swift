import Glibc
import Synchronization

/// Makes any text safe to print as part of a one-line message: control characters (newlines,
/// tabs, ESC and the rest of C0, DEL, the C1 range that some terminals also obey) and invalid
/// UTF-8 never reach the terminal raw. A file name, JSON key, note or device name carrying
/// `\n` or `\e[2J` is shown escaped, so an error is one line always and cannot drive the terminal.
/// A byte of a command-line argument that was not UTF-8 (see `RawBytes`) is shown as `\xE9`.
public enum OneLine {
    public static func escape(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let byte = RawBytes.byte(scalar) {
                out.append(contentsOf: String(cFormat: "\\x%02X", byte).unicodeScalars)
                continue
            }
            switch scalar.value {
            case 0x0A: out.append(contentsOf: "\\n".unicodeScalars)
            case 0x0D: out.append(contentsOf: "\\r".unicodeScalars)
            case 0x09: out.append(contentsOf: "\\t".unicodeScalars)
            case 0x1B: out.append(contentsOf: "\\e".unicodeScalars)
            // Bidirectional controls (U+202E turns "evil.json" into what reads as another name)
            // are shown as escapes too: a message must read as it is.
            case 0x00..<0x20, 0x7F..<0xA0, 0x2028, 0x2029, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                out.append(contentsOf: String(cFormat: "\\u{%X}", scalar.value).unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// `escape`, and no longer than `limit` characters: a longer text (an option given a 100 KB
    /// value) keeps its start and its end (where a message says what was expected) and says how
    /// much was left out between them.
    public static func escape(_ text: String, limit: Int) -> String {
        let escaped = escape(text)
        guard escaped.count > limit else { return escaped }
        let tail = limit / 3
        let head = limit - tail
        let omitted = escaped.count - head - tail
        return "\(escaped.prefix(head))... (\(omitted) characters left out) ...\(escaped.suffix(tail))"
    }
}

/// Command-line arguments are bytes, and a file name need not be UTF-8 (`lat\xe9.json` from a
/// Latin-1 system). `CommandLine.arguments` replaces such bytes with U+FFFD, so the file named
/// could not be opened and an output would get another name. Here each byte of a sequence that
/// is not UTF-8 becomes one scalar of a private-use block (U+10FE80...U+10FEFF, never produced
/// for valid UTF-8 input), the parser handles the argument as any string, and `withPath` gives the
/// original bytes back to the file system; messages show them as `\xE9` (`OneLine`).
public enum RawBytes {
    static let base: UInt32 = 0x10FE00

    /// Set once an argument held bytes that are not UTF-8: only then are the private-use scalars
    /// read back as bytes, so a name that really holds them is left alone in every other run.
    /// Atomic: messages are escaped on any thread.
    private static let used = Atomic<Bool>(false)
    public static var inUse: Bool { used.load(ordering: .relaxed) }

    /// The byte a scalar stands for, when it stands for one.
    static func byte(_ scalar: Unicode.Scalar) -> UInt8? {
        guard inUse, scalar.value >= base + 0x80, scalar.value <= base + 0xFF else { return nil }
        return UInt8(scalar.value - base)
    }

    /// One argument, its bytes as given (NUL-terminated C string).
    public static func argument(_ cString: UnsafePointer<CChar>) -> String {
        let bytes = UnsafeBufferPointer(
            start: UnsafeRawPointer(cString).assumingMemoryBound(to: UInt8.self), count: strlen(cString))
        return decode(bytes)
    }

    /// Valid UTF-8 as it is; each byte of an invalid sequence as its private-use scalar.
    public static func decode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        let array = Array(bytes)
        if let valid = String(validating: array, as: UTF8.self) { return valid }
        used.store(true, ordering: .relaxed)
        var scalars = String.UnicodeScalarView()
        var i = 0
        while i < array.count {
            if let (scalar, length) = scalarAt(array, i) {
                scalars.append(scalar)
                i += length
            } else {
                scalars.append(Unicode.Scalar(base + UInt32(array[i]))!)
                i += 1
            }
        }
        return String(scalars)
    }

    /// The well-formed UTF-8 sequence at `i` (no overlongs, surrogates or values past U+10FFFF).
    private static func scalarAt(_ b: [UInt8], _ i: Int) -> (Unicode.Scalar, Int)? {
        let lead = b[i]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length: Int
        let minimum: UInt32
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: (length, minimum, value) = (2, 0x80, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, minimum, value) = (3, 0x800, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (length, minimum, value) = (4, 0x10000, UInt32(lead & 0x07))
        default: return nil
        }
        guard i + length <= b.count else { return nil }
        for k in 1..<length {
            guard b[i + k] & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(b[i + k] & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }

    /// The bytes a path names on disk (NUL-terminated).
    public static func fileSystemBytes(_ path: String) -> [CChar] {
        var out: [CChar] = []
        out.reserveCapacity(path.utf8.count + 1)
        for scalar in path.unicodeScalars {
            if let byte = byte(scalar) {
                out.append(CChar(bitPattern: byte))
            } else {
                for unit in String(scalar).utf8 { out.append(CChar(bitPattern: unit)) }
            }
        }
        out.append(0)
        return out
    }

    /// Calls `body` with the path as the file system sees it.
    public static func withPath<T>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
        try fileSystemBytes(path).withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// The path's length in bytes on disk.
    public static func byteCount(_ path: String) -> Int { fileSystemBytes(path).count - 1 }
}

extension String {
    /// The text a C call wrote into a buffer of ours, up to its NUL (bytes that are not UTF-8
    /// shown as U+FFFD, as `String(cString:)` would; that initialiser is deprecated for arrays).
    init(cBuffer buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
