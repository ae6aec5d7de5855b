import CAudioEngine
import Glibc
import PixelBoopCore

/// A descriptor boop writes to (standard error, standard output).
struct OutputFile {
    let fileDescriptor: Int32
    static let standardError = OutputFile(fileDescriptor: STDERR_FILENO)

    /// Writes all of `data` with write(2): false when the descriptor is closed, full or its reader
    /// has gone (EPIPE; SIGPIPE is ignored). Unlike `write(_:)`, never traps, so a full or closed
    /// stderr (`2>/dev/full`, `2>&-`, a dead pipe under systemd) cannot change an exit status.
    @discardableResult
    func send(_ data: Bytes) -> Bool {
        data.withUnsafeBytes { raw -> Bool in
            guard var p = raw.baseAddress else { return true }
            var left = raw.count
            while left > 0 {
                let n = Glibc.write(fileDescriptor, p, left)
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
        OutputFile.standardError.send(Bytes(text.utf8))
    }

    /// The longest message line, in characters: a few screen lines, never a 100 KB value echoed.
    static let lineLimit = 600

    /// One escaped line: `boop: <message>\n` (see `OneLine.escape`), at most `lineLimit` long.
    static func line(_ message: String) {
        write("boop: \(OneLine.escape(message, limit: StandardError.lineLimit))\n")
    }
}

/// Standard output for everything a command prints there (tables, JSON, CSV, samples, live lines,
/// the play view): written with write(2), every failure seen. The contract: a reader that closed
/// the pipe (EPIPE; SIGPIPE is ignored) ends the command quietly with exit 0, the way `| head`
/// means "enough"; any other failure (`>/dev/full`, `ulimit -f`, a closed descriptor) is exit 74
/// with one line. `write` applies it at once; a command with something to finish first (a
/// recording to finalise, a device to close) uses `send` and applies it itself with `exit(for:)`.
enum StandardOutput {
    enum Failure: Error, Equatable {
        /// The reader went away (EPIPE).
        case closed
        /// Any other write failure, with its errno.
        case failed(Int32)

        /// The one line for a failure that is not `.closed`.
        var message: String {
            switch self {
            case .closed: return "stdout: the reader closed the pipe"
            case .failed(let err):
                let reason: String
                switch err {
                case EFBIG: reason = "file size limit exceeded (ulimit -f)"
                case ENOSPC: reason = "disk full (no space left on device)"
                case EBADF: reason = "standard output is closed"
                default: reason = String(cString: strerror(err))
                }
                return "stdout: write failed: \(reason)"
            }
        }
    }

    /// Writes all of `bytes`; nil when done, else why not. Waits when stdout is a non-blocking
    /// descriptor that is full.
    static func send(_ bytes: UnsafeRawBufferPointer) -> Failure? {
        // Closed when boop started: descriptor 1 is /dev/null now (see `boopEarlySignals`), and
        // output to it is still a failed write, as the user asked for no stdout.
        if boop_standard_descriptors_reserve() & 2 != 0 { return .failed(EBADF) }
        guard var p = bytes.baseAddress else { return nil }
        var left = bytes.count
        while left > 0 {
            let n = Glibc.write(STDOUT_FILENO, p, left)
            if n >= 0 {
                p += n
                left -= n
                continue
            }
            switch errno {
            case EINTR: continue
            case EAGAIN:
                var fds = pollfd(fd: STDOUT_FILENO, events: Int16(POLLOUT), revents: 0)
                _ = poll(&fds, 1, 1000)
            case EPIPE: return .closed
            case let err: return .failed(err)
            }
        }
        return nil
    }

    static func send(_ text: String) -> Failure? {
        var text = text
        return text.withUTF8 { send(UnsafeRawBufferPointer($0)) }
    }

    static func send(_ data: Bytes) -> Failure? {
        data.withUnsafeBytes { send($0) }
    }

    /// Writes `text` or ends the process as the contract says (0 for a closed pipe, 74 else).
    static func write(_ text: String) {
        if let failure = send(text) { exit(for: failure) }
    }

    /// Ends the process for a failed write: exit 0 quietly when the reader closed the pipe, else
    /// exit 74 with one line (`also` adds what became of the command's work, e.g. a recording).
    static func exit(for failure: Failure, also: String = "") -> Never {
        if failure == .closed {
            boop_temp_remove_all()   // unfinished, as in `fail`
            Glibc.exit(ExitStatus.ok.rawValue)
        }
        fail(BoopExit(.ioError, failure.message + also))
    }
}

/// Shows a name that came from a file or the command line (a pattern's or preset's `name`, a path)
/// on a terminal: control characters and ESC escaped (`OneLine`), so a name cannot drive the
/// terminal or break a progress line.
func shown(_ name: String) -> String { OneLine.escape(name) }
