import Glibc
import PixelBoopCore

/// One line of a program's answers on stdin, read with a bound: `readLine` keeps reading until a
/// newline, so stdin from /dev/zero or a file without newlines grew without end (until the kernel
/// killed boop for memory). An answer is a word; a line longer than `limit` bytes is reported as
/// such, without reading the rest of it. A stop signal ends the wait for a line at once, as it
/// does everywhere else: a program that drives boop and stops writing, or `timeout`'s SIGTERM,
/// must not leave boop blocked in a read until its writer goes away.
enum InputLine {
    static let limit = 4096

    enum Result: Equatable {
        case line(String)
        /// The line's first `limit` bytes, decoded for the error message.
        case tooLong(String)
    }

    /// The next line without its newline; nil at the end of input or once a stop signal came (a
    /// last line without a newline is still a line).
    static func read(limit: Int = InputLine.limit) -> Result? {
        var bytes: [UInt8] = []
        while true {
            guard let c = nextByte() else { return bytes.isEmpty || Signals.interrupted ? nil : .line(decoded(bytes)) }
            if c == 0x0A { return .line(decoded(bytes)) }
            if bytes.count == limit { return .tooLong(decoded(bytes)) }
            bytes.append(c)
        }
    }

    /// One byte of stdin; nil at its end, on a read error, or when a stop signal arrives. Read one
    /// byte at a time with read(2), after a poll that the signal's wake descriptor also ends (stdio
    /// would block in its own read); answers are a few bytes, and nothing past the line is taken
    /// from a stdin that other programs may share.
    private static func nextByte() -> UInt8? {
        var fds = [
            pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
            pollfd(fd: Signals.wakeDescriptor, events: Int16(POLLIN), revents: 0)
        ]
        while !Signals.interrupted {
            if poll(&fds, 2, -1) < 0 {
                if errno == EINTR { continue }
                return nil
            }
            guard fds[0].revents != 0 else { continue }
            var byte: UInt8 = 0
            let n = Glibc.read(STDIN_FILENO, &byte, 1)
            if n == 1 { return byte }
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            return nil
        }
        return nil
    }

    /// The line as an answer (spaces around it ignored), or a 65 naming the trial and what came.
    static func answer(trial: Int, expected: String) throws -> String? {
        guard let result = read() else { return nil }
        switch result {
        case .line(let line): return line.trimmingWhitespace()
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
