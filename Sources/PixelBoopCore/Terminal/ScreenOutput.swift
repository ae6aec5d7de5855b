import Glibc

/// The screen, written without ever blocking: bytes go to the session's own non-blocking
/// descriptor (stdout's flags, shared with the shell, stay untouched), and what the terminal does
/// not take now waits here. A view asks `isBusy` before it makes a frame: while the terminal is
/// behind, no frame is made at all, and once it has taken the rest, the next frame is made from
/// the state then — frames are coalesced into the latest, never queued, so a terminal that stops
/// reading for a minute costs one frame's bytes and never stops the loop.
public final class ScreenOutput {
    public let descriptor: Int32
    private var pending: [UInt8] = []
    private var written = 0
    /// The errno of a failed write (EIO: the terminal went away); nothing is written after it.
    public private(set) var failure: Int32?

    /// `descriptor` should be non-blocking (TerminalSession.screenDescriptor); a blocking one
    /// works but can block.
    public init(descriptor: Int32) { self.descriptor = descriptor }

    /// The terminal on `fd` (1 or 2) opened anew as its own non-blocking open file description;
    /// nil when `fd` is not a terminal.
    public convenience init?(reopening fd: Int32) {
        guard isatty(fd) == 1 else { return nil }
        let own = open("/proc/self/fd/\(fd)", O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard own >= 0 else { return nil }
        self.init(descriptor: own)
        ownsDescriptor = true
    }

    private var ownsDescriptor = false

    deinit { if ownsDescriptor { close(descriptor) } }

    /// True while bytes of an earlier frame wait for the terminal.
    public var isBusy: Bool { written < pending.count }

    /// Queues `text` after what waits and writes what the terminal takes now.
    public func write(_ text: String) {
        guard failure == nil, !text.isEmpty else { return }
        if !isBusy {
            pending.removeAll(keepingCapacity: true)
            written = 0
        }
        pending.append(contentsOf: text.utf8)
        flush()
    }

    /// Writes what the terminal takes now (call when the descriptor is writable).
    public func flush() {
        while written < pending.count, failure == nil {
            let n = pending.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if n > 0 {
                written += n
            } else if n < 0 && errno == EINTR {
                continue
            } else if n < 0 && errno == EAGAIN {
                return
            } else {
                failure = n < 0 ? errno : EIO
            }
        }
    }

    /// Waits up to `seconds` for what waits to go out (before the session ends): a terminal that
    /// does not read in that time loses it.
    public func drain(seconds: Double) {
        var left = Int32(seconds * 1000)
        while isBusy, failure == nil, left > 0 {
            var fds = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&fds, 1, min(left, 50))
            left -= 50
            flush()
        }
    }
}
