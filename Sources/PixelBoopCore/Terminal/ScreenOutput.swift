import Glibc

/// The screen, written without ever blocking: bytes go to the session's own non-blocking
/// descriptor (stdout's flags, shared with the shell, stay untouched), and what the terminal does
/// not take now waits here. A view asks `isBusy` before it makes a frame: while the terminal is
/// behind, no frame is made at all, and once it has taken the rest, the next frame is made from
/// the state then — frames are coalesced into the latest, never queued, so a terminal that stops
/// reading for a minute costs one frame's bytes and never stops the loop.
///
/// A terminal the process may not open again (another user's, after `su` or `setpriv`) is
/// written through the descriptor it inherited, which stays blocking as the shell left it: then
/// a thread of its own does the writes (BlockingScreenWriter), and the rest is the same.
public final class ScreenOutput {
    public let descriptor: Int32
    private var pending: [UInt8] = []
    private var written = 0
    private var failed: Int32?
    private let thread: BlockingScreenWriter?
    private let ownsDescriptor: Bool

    /// `descriptor`: the screen (TerminalSession.screenDescriptor), non-blocking, or blocking
    /// (then written from a thread of its own); it stays open after this output ends.
    public convenience init(descriptor: Int32) { self.init(descriptor, owned: false) }

    private init(_ descriptor: Int32, owned: Bool) {
        self.descriptor = descriptor
        ownsDescriptor = owned
        let blocking = fcntl(descriptor, F_GETFL) & O_NONBLOCK == 0
        thread = blocking ? BlockingScreenWriter(descriptor: descriptor, owned: owned) : nil
    }

    /// The terminal on `fd` (1 or 2) opened anew as its own non-blocking open file description,
    /// or when that open is refused a duplicate of `fd` written from a thread; nil when `fd` is
    /// not a terminal.
    public convenience init?(reopening fd: Int32) {
        guard isatty(fd) == 1 else { return nil }
        var own = open("/proc/self/fd/\(fd)", O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        if own < 0 { own = fcntl(fd, F_DUPFD_CLOEXEC, 3) }
        guard own >= 0 else { return nil }
        self.init(own, owned: true)
    }

    deinit {
        if let thread {
            thread.finish()   // it closes an owned descriptor once it has ended
        } else if ownsDescriptor {
            close(descriptor)
        }
    }

    /// The errno of a failed write (EIO: the terminal went away); nothing is written after it.
    public var failure: Int32? { thread?.failure ?? failed }

    /// True while bytes of an earlier frame wait for the terminal.
    public var isBusy: Bool { thread?.isBusy ?? (written < pending.count) }

    /// What the loop polls while `isBusy`: ready once the terminal has taken more (call `flush()`).
    public var readiness: pollfd {
        if let thread { return pollfd(fd: thread.doneDescriptor, events: Int16(POLLIN), revents: 0) }
        return pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
    }

    /// Queues `text` after what waits and writes what the terminal takes now.
    public func write(_ text: String) {
        guard failure == nil, !text.isEmpty else { return }
        if let thread {
            thread.takeNotices()   // of earlier frames, all written
            return thread.write(text.utf8)
        }
        if !isBusy {
            pending.removeAll(keepingCapacity: true)
            written = 0
        }
        pending.append(contentsOf: text.utf8)
        flush()
    }

    /// Writes what the terminal takes now (call when `readiness` is ready).
    public func flush() {
        if let thread { return thread.takeNotices() }
        guard failed == nil, let failure = Self.write(pending, from: &written, to: descriptor), failure != EAGAIN else {
            return
        }
        failed = failure
    }

    /// Writes `bytes` from `written` on (advancing it, a write interrupted by a signal tried
    /// again) until all are written: nil, or until the descriptor would block (EAGAIN) or a write
    /// fails (its errno; EIO when it took nothing).
    static func write(_ bytes: [UInt8], from written: inout Int, to descriptor: Int32) -> Int32? {
        while written < bytes.count {
            let offset = written
            let n = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if n > 0 {
                written += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                return n < 0 ? errno : EIO
            }
        }
        return nil
    }

    /// Waits up to `seconds` for what waits to go out (before the session ends): a terminal that
    /// does not read in that time loses it.
    public func drain(seconds: Double) {
        var left = Int32(seconds * 1000)
        while isBusy, failure == nil, left > 0 {
            var fds = readiness
            _ = poll(&fds, 1, min(left, 50))
            left -= 50
            flush()
        }
    }
}
