import Glibc

/// The time and the waiting of a LiveLoop: CLOCK_MONOTONIC and poll(2) by default. A loop
/// only ever learns the time from `now` and only ever waits in `poll`, so a clock whose time moves
/// only by the waits it is asked for shows exactly when the loop chose to wake.
public struct LoopClock: Sendable {
    /// Seconds on a clock that never goes back.
    public var now: @Sendable () -> Double
    /// poll(2): waits at most `timeout` ms for one of the descriptors.
    public var poll: @Sendable (_ fds: UnsafeMutablePointer<pollfd>, _ count: nfds_t, _ timeout: Int32) -> Int32

    public init(
        now: @escaping @Sendable () -> Double,
        poll: @escaping @Sendable (UnsafeMutablePointer<pollfd>, nfds_t, Int32) -> Int32
    ) {
        self.now = now
        self.poll = poll
    }

    /// The system's: CLOCK_MONOTONIC and poll(2).
    public static let real = LoopClock(now: LoopClock.monotonicSeconds, poll: { Glibc.poll($0, $1, $2) })

    /// CLOCK_MONOTONIC in seconds.
    public static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
