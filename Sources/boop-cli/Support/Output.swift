import Foundation

extension FileHandle {
    /// Writes all of `data` with write(2): false when the descriptor is closed, full or its reader
    /// has gone (EPIPE; SIGPIPE is ignored). Unlike `write(_:)`, never traps, so a full or closed
    /// stderr (`2>/dev/full`, `2>&-`, a dead pipe under systemd) cannot change an exit status.
    @discardableResult
    func send(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw -> Bool in
            guard var p = raw.baseAddress else { return true }
            var left = raw.count
            while left > 0 {
                let n = Foundation.write(fileDescriptor, p, left)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                p += n
                left -= n
            }
            return true
        }
    }
}

/// Makes text safe for a one-line message on a terminal: newlines, tabs, escapes and every other
/// control character (C0, DEL, C1) become visible escapes (`\n`, `\t`, `\u{1B}`), so a file name,
/// JSON key, note or device name can neither break the one-line contract nor drive the terminal.
func escapedForTerminal(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case "\u{00}"..."\u{1F}", "\u{7F}"..."\u{9F}", "\u{2028}", "\u{2029}":
            out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}

/// One line on stderr, escaped; failures to write are ignored.
func printError(_ line: String) {
    FileHandle.standardError.send(Data((escapedForTerminal(line) + "\n").utf8))
}
