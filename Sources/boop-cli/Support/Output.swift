import Foundation
import PixelBoopCore

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

/// Standard error for the tool's messages: written with write(2), failures ignored, so a full or
/// closed stderr never changes the documented exit status.
enum StandardError {
    static func write(_ text: String) {
        FileHandle.standardError.send(Data(text.utf8))
    }

    /// One escaped line: `boop: <message>\n` (see `OneLine.escape`).
    static func line(_ message: String) {
        write("boop: \(OneLine.escape(message))\n")
    }
}
