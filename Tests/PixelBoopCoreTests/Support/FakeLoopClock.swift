import Glibc
import Synchronization

@testable import PixelBoopCore

/// A LoopClock for tests: its time moves only when the loop waits. A wait asks the real
/// descriptors what is ready now (poll with no timeout): when something is, it returns at once and
/// no time passes; when nothing is, the whole timeout passes at once. So a loop's test neither
/// sleeps nor depends on the machine's speed, and reads exactly when the loop chose to wake.
final class FakeLoopClock: Sendable {
    struct State {
        /// Milliseconds, whole, so every reading is exact (the loop waits in whole milliseconds).
        var nowMs: Int64 = 0
        /// Each wait's timeout in ms, in turn.
        var waits: [Int32] = []
    }

    let state = Mutex(State())

    var now: Double { state.withLock { Double($0.nowMs) / 1000 } }
    var waits: [Int32] { state.withLock { $0.waits } }

    /// Moves the time on by hand (time passing between two calls of the loop).
    func advance(ms: Int64) { state.withLock { $0.nowMs += ms } }

    var clock: LoopClock {
        LoopClock(
            now: { self.now },
            poll: { fds, count, timeout in
                let ready = Glibc.poll(fds, count, 0)
                self.state.withLock { s in
                    s.waits.append(timeout)
                    if ready == 0 && timeout > 0 { s.nowMs += Int64(timeout) }
                }
                return ready
            })
    }
}
