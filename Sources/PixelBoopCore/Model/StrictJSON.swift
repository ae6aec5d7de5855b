import Glibc

/// Why a pattern (or preset) file was refused. `message` is the one line a user sees: the file,
/// the field's path and what was expected.
public struct PatternError: Error, Equatable, CustomStringConvertible, Sendable {
    public enum Kind: Sendable, Equatable {
        case missingFile   // exit 66
        case invalid   // exit 65
    }
    public let kind: Kind
    /// One line always: control characters from file names and keys are escaped (`OneLine`).
    public let message: String
    public var description: String { message }

    /// The message with the chain entry it is about, numbered as the editor's chain panel numbers them.
    func inEntry(_ index: Int) -> PatternError { PatternError(kind, message + " (chain entry \(index + 1))") }

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = OneLine.escape(message)
    }
}

/// Reads JSON documents with the strictness a user deserves: every problem is reported with its
/// field path (`tracks.melody[3].pitch`) and what was expected, instead of a Codable stack of
/// coding keys. Shared by patterns and ambient presets.
public struct StrictJSON {
    public static let maxBytes = 1 << 20
    public static let maxDepth = 16

    public let file: String

    public init(file: String) { self.file = file }

    public func fail(_ path: String, _ expected: String, got value: Any? = nil) -> PatternError {
        var text = "\(file): \(path.isEmpty ? "(top level)" : path): expected \(expected)"
        if let value { text += ", got \(StrictJSON.describe(value))" }
        return PatternError(.invalid, text)
    }

    /// Reads and parses the file; missing file -> .missingFile, unreadable JSON -> .invalid.
    public static func load(path: String) throws(PatternError) -> (Any, StrictJSON) {
        let json = StrictJSON(file: path)
        return (try json.parse(try readInput(path, limit: maxBytes)), json)
    }

    /// Reads, parses and validates a file (a pattern, a preset): `validate` turns the parsed root
    /// into the document, naming fields through the reader it is given.
    static func load<Document>(
        path: String, _ validate: (Any, StrictJSON) throws(PatternError) -> Document
    ) throws(PatternError) -> Document {
        let (root, json) = try load(path: path)
        return try validate(root, json)
    }

    /// Parses and validates a document held in memory; `file` names it in messages.
    static func parse<Document>(
        _ data: Bytes, file: String, _ validate: (Any, StrictJSON) throws(PatternError) -> Document
    ) throws(PatternError) -> Document {
        let json = StrictJSON(file: file)
        return try validate(try json.parse(data), json)
    }

    /// At most `limit` + 1 bytes of an input: enough to refuse anything too large without reading
    /// it whole. The path's own bytes are opened (`RawBytes`: a name need not be UTF-8). A regular
    /// file or a pipe is read (`<(cat song.json)`, a FIFO being written); a FIFO is opened without
    /// blocking, so one that nobody writes to reads as empty at once instead of hanging in
    /// open(2). Devices, sockets and the like (`/dev/zero`, a terminal) are refused: they are
    /// no pattern and could block or never end. Missing, unreadable or a directory: .missingFile.
    /// `format` names what the file should hold in the messages ("JSON", "Scala").
    static func readInput(_ path: String, limit: Int, format: String = "JSON") throws(PatternError) -> Bytes {
        let fd = RawBytes.withPath(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) }
        guard fd >= 0 else {
            let err = errno
            if err == ENOENT || err == ENOTDIR { throw PatternError(.missingFile, "\(path): no such file") }
            throw PatternError(.missingFile, "\(path): cannot be read (\(String(cString: strerror(err))))")
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            throw PatternError(.missingFile, "\(path): cannot be read (\(String(cString: strerror(errno))))")
        }
        let isPipe = (st.st_mode & S_IFMT) == S_IFIFO
        switch st.st_mode & S_IFMT {
        case S_IFREG, S_IFIFO:
            // A FIFO with a writer is read as it comes, blocking like any pipe.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        case S_IFDIR:
            throw PatternError(.missingFile, "\(path): is a directory (expected a \(format) file)")
        default:
            throw PatternError(.invalid, "\(path): is a device or socket, not a file (expected a \(format) file)")
        }
        var data = Bytes()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while data.count <= limit {
            let n = read(fd, &buffer, buffer.count)
            if n < 0 {
                if errno == EINTR { continue }
                throw PatternError(.missingFile, "\(path): cannot be read (\(String(cString: strerror(errno))))")
            }
            if n == 0 { break }
            data.append(contentsOf: buffer[0..<n])
        }
        if data.isEmpty {
            let what = isPipe ? "nothing was written to the pipe" : "the file is empty"
            throw PatternError(.invalid, "\(path): not valid \(format) (\(what); expected a \(format) document)")
        }
        return data
    }

    public func parse(_ data: Bytes) throws(PatternError) -> Any {
        guard data.count <= StrictJSON.maxBytes else {
            throw PatternError(.invalid, "\(file): \(data.count) bytes: expected a JSON document of at most 1 MiB")
        }
        try scanStructure(data)
        do {
            return try JSONReader.parse(data)
        } catch {
            let reason = error.reason
            throw PatternError(.invalid, "\(file): not valid JSON\(StrictJSON.where(reason, in: data)) (\(reason.prefix(120)))")
        }
    }

    /// " at line L, column C" for a parser message that names a character offset ("around
    /// character 35"), counted in bytes from 1 as editors show them; "" when it names none.
    static func `where`(_ reason: String, in data: Bytes) -> String {
        var rest = Substring(reason)
        while !rest.isEmpty && !rest.hasPrefix("character ") { rest = rest.dropFirst() }
        guard !rest.isEmpty else { return "" }
        let digits = rest.dropFirst("character ".count).prefix { $0.isNumber }
        guard let offset = Int(digits), offset <= data.count else { return "" }
        var line = 1
        var column = 1
        for byte in data.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return " at line \(line), column \(column)"
    }

    /// One pass over the bytes before parsing. Depth: a pathological nest must not exhaust the
    /// parser's stack. Duplicate keys: Foundation silently keeps the last of `"bpm"` given twice,
    /// which would hide a user's mistake, so every object's keys are checked here. Keys are
    /// compared as the parser will see them: escapes decoded (`"b\u0070m"` is `"bpm"`) and as
    /// Swift strings (canonically equivalent spellings are one dictionary key). The message names
    /// the key's full path (`tracks.bass[0].pitch`). Malformed JSON is left for the parser.
    /// Also returns the keys of the objects inside the top-level object `orderOf` (a song's
    /// patterns), in the order written: the parsed dictionary has lost it.
    @discardableResult
    func scanStructure(_ encoded: Bytes, orderOf: String? = nil) throws(PatternError) -> [String] {
        let data = StrictJSON.utf8(encoded)
        let quote = UInt8(ascii: "\"")
        let backslash = UInt8(ascii: "\\")
        var stack: [ScanFrame] = []
        var keySets: [Set<String>] = []   // one per open container (empty for an array)
        var expectKey = false   // inside an object, after `{` or `,`
        var inString = false
        var escaped = false
        var stringIsKey = false
        var current: [UInt8] = []
        var order: [String] = []
        for byte in data {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == backslash {
                    escaped = true
                } else if byte == quote {
                    inString = false
                    if stringIsKey { try recordKey(current, &stack, &keySets, order: &order, of: orderOf) }
                    continue
                }
                if stringIsKey { current.append(byte) }
                continue
            }
            switch byte {
            case quote:
                inString = true
                stringIsKey = expectKey
                expectKey = false
                current.removeAll(keepingCapacity: true)
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                stack.append(byte == UInt8(ascii: "{") ? .object(key: nil) : .array(index: 0))
                keySets.append([])
                if stack.count > StrictJSON.maxDepth {
                    throw PatternError(
                        .invalid, "\(file): nesting deeper than \(StrictJSON.maxDepth) levels: expected a pattern object")
                }
                expectKey = byte == UInt8(ascii: "{")
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if !stack.isEmpty {
                    stack.removeLast()
                    keySets.removeLast()
                }
                expectKey = false
            case UInt8(ascii: ","):
                switch stack.last {
                case .object: expectKey = true
                case .array(let index):
                    stack[stack.count - 1] = .array(index: index + 1)
                    expectKey = false
                case nil: expectKey = false
                }
            default: break
            }
        }
        return order
    }

    /// A key has ended: it must be new in its object, and it names the object's current member.
    private func recordKey(
        _ bytes: [UInt8], _ stack: inout [ScanFrame], _ keySets: inout [Set<String>], order: inout [String],
        of orderOf: String?
    ) throws(PatternError) {
        defer {
            if let orderOf, stack.count == 2, case .object(orderOf) = stack[0], case .object(let k?) = stack[1] {
                order.append(k)
            }
        }
        guard case .object = stack.last else { return }
        let key = StrictJSON.decodeKey(bytes)
        if !keySets[keySets.count - 1].insert(key).inserted {
            let path = StrictJSON.path(of: stack.dropLast(), key: key)
            throw PatternError(.invalid, "\(file): \(path): duplicate key (expected each key once per object)")
        }
        stack[stack.count - 1] = .object(key: key)
    }

    /// An open container while scanning: an object's latest key, or an array's current index
    /// (for the path in a message).
    enum ScanFrame {
        case object(key: String?)
        case array(index: Int)
    }

    /// `tracks.bass[0].pitch`: the containers' current keys and indices, then `key`.
    static func path(of frames: ArraySlice<ScanFrame>, key: String) -> String {
        var out = ""
        for frame in frames {
            switch frame {
            case .object(let k): out += out.isEmpty ? (k ?? "?") : ".\(k ?? "?")"
            case .array(let i): out += "[\(i)]"
            }
        }
        return out.isEmpty ? key : "\(out).\(key)"
    }

    /// A key's bytes (between the quotes) with JSON's escapes decoded; a lone surrogate becomes
    /// U+FFFD and an unknown escape is kept as written (the parser refuses it anyway).
    static func decodeKey(_ bytes: [UInt8]) -> String {
        guard bytes.contains(UInt8(ascii: "\\")) else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var pendingHigh: UInt32?
        func append(_ scalar: UInt32) {
            let s = Unicode.Scalar(scalar) ?? "\u{FFFD}"
            out.append(contentsOf: Array(String(Character(s)).utf8))
        }
        func flushHigh() {
            if pendingHigh != nil { append(0xFFFD) }
            pendingHigh = nil
        }
        func hex(_ i: Int) -> UInt32? {
            guard i + 4 <= bytes.count else { return nil }
            return UInt32(String(decoding: bytes[i..<(i + 4)], as: UTF8.self), radix: 16)
        }
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            guard b == UInt8(ascii: "\\"), i + 1 < bytes.count else {
                flushHigh()
                out.append(b)
                i += 1
                continue
            }
            let e = bytes[i + 1]
            if e == UInt8(ascii: "u"), let u = hex(i + 2) {
                i += 6
                if (0xD800...0xDBFF).contains(u) {
                    flushHigh()
                    pendingHigh = u
                } else if (0xDC00...0xDFFF).contains(u) {
                    if let high = pendingHigh {
                        append(0x10000 + ((high - 0xD800) << 10) + (u - 0xDC00))
                        pendingHigh = nil
                    } else {
                        append(0xFFFD)
                    }
                } else {
                    flushHigh()
                    append(u)
                }
                continue
            }
            flushHigh()
            switch e {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            default: out.append(contentsOf: [b, e])
            }
            i += 2
        }
        flushHigh()
        return String(decoding: out, as: UTF8.self)
    }

    public func object(_ value: Any, _ path: String, allowed: Set<String>) throws(PatternError) -> [String: Any] {
        guard let dict = value as? [String: Any] else { throw fail(path, "an object", got: value) }
        for key in dict.keys.sorted() where !allowed.contains(key) {
            let name = path.isEmpty ? key : "\(path).\(key)"
            throw PatternError(
                .invalid, "\(file): \(name): unknown key (expected one of \(allowed.sorted().joined(separator: ", ")))")
        }
        return dict
    }

    public func array(_ value: Any, _ path: String, maxCount: Int) throws(PatternError) -> [Any] {
        guard let list = value as? [Any] else { throw fail(path, "an array", got: value) }
        guard list.count <= maxCount else { throw fail(path, "at most \(maxCount) entries", got: "\(list.count) entries") }
        return list
    }

    public func integer(_ value: Any, _ path: String, in range: ClosedRange<Int>) throws(PatternError) -> Int {
        let expected = "an integer \(range.lowerBound)...\(range.upperBound)"
        guard let number = StrictJSON.number(value) else { throw fail(path, expected, got: value) }
        guard number.isFinite, number == number.rounded(), abs(number) < 1e15 else { throw fail(path, expected, got: value) }
        let int = Int(number)
        guard range.contains(int) else { throw fail(path, expected, got: value) }
        return int
    }

    public func double(_ value: Any, _ path: String, in range: ClosedRange<Double>) throws(PatternError) -> Double {
        let expected = "a number \(StrictJSON.format(range.lowerBound))...\(StrictJSON.format(range.upperBound))"
        guard let number = StrictJSON.number(value), number.isFinite, range.contains(number) else {
            throw fail(path, expected, got: value)
        }
        return number
    }

    public func string(_ value: Any, _ path: String, maxLength: Int = 200) throws(PatternError) -> String {
        guard let s = value as? String else { throw fail(path, "a string", got: value) }
        guard s.count <= maxLength else { throw fail(path, "a string of at most \(maxLength) characters") }
        return s
    }

    /// JSON numbers only (JSONReader gives a Double; true and false are Bools).
    static func number(_ value: Any) -> Double? {
        value as? Double
    }

    static func format(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
    }

    static func describe(_ value: Any) -> String {
        switch value {
        case let s as String: return "\"\(s.prefix(40))\""
        case is JSONNull: return "null"
        case is [Any]: return "an array"
        case is [String: Any]: return "an object"
        case let b as Bool: return b ? "true" : "false"
        case let n as Double: return format(n)
        default: return "\(value)"
        }
    }
}
