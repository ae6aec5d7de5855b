import Foundation
import PixelBoopCore

/// One line of a program's answers on stdin, read with a bound: `readLine` keeps reading until a
/// newline, so stdin from /dev/zero or a file without newlines grew without end (until the kernel
/// killed boop for memory). An answer is a word; a line longer than `limit` bytes is reported as
/// such, without reading the rest of it.
enum InputLine {
    static let limit = 4096

    enum Result: Equatable {
        case line(String)
        /// The line's first `limit` bytes, decoded for the error message.
        case tooLong(String)
    }

    /// The next line without its newline; nil at the end of input (a last line without a newline is
    /// still a line).
    static func read(limit: Int = InputLine.limit) -> Result? {
        var bytes: [UInt8] = []
        while true {
            let c = getchar_unlocked()
            if c == EOF { return bytes.isEmpty ? nil : .line(decoded(bytes)) }
            if c == 0x0A { return .line(decoded(bytes)) }
            if bytes.count == limit { return .tooLong(decoded(bytes)) }
            bytes.append(UInt8(truncatingIfNeeded: c))
        }
    }

    /// The line as an answer (spaces around it ignored), or a 65 naming the trial and what came.
    static func answer(trial: Int, expected: String) throws -> String? {
        guard let result = read() else { return nil }
        switch result {
        case .line(let line): return line.trimmingCharacters(in: .whitespaces)
        case .tooLong(let start):
            throw BoopExit(
                .dataError,
                "stdin, trial \(trial): expected \(expected), got a line longer than \(limit) bytes starting \"\(OneLine.escape(String(start.prefix(40))))\""
            )
        }
    }

    private static func decoded(_ bytes: [UInt8]) -> String {
        var bytes = bytes
        if bytes.last == 0x0D { bytes.removeLast() }   // CRLF, as readLine(strippingNewline:) takes it
        return String(decoding: bytes, as: UTF8.self)
    }
}
