import Glibc

/// A pipe that wakes a thread sleeping in poll(2) (a `LiveLoop`, a player's wait): `wake()` from
/// any thread makes `descriptor` readable until `drain()`. Both ends are non-blocking and closed
/// on exec; a full pipe is already readable, so `wake()` never blocks.
/// Sendable: two descriptors of a pipe, which the kernel serialises.
public final class WakePipe: Sendable {
    /// The end to watch.
    public let descriptor: Int32
    private let writeEnd: Int32

    /// nil when no pipe can be made (the descriptor limit reached).
    public init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for fd in ends {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        descriptor = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(descriptor)
        close(writeEnd)
    }

    public func wake() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Reads every wake-up so far: the next wait sleeps again.
    public func drain() {
        var bytes = [UInt8](repeating: 0, count: 256)
        while read(descriptor, &bytes, bytes.count) > 0 {}
    }
}
