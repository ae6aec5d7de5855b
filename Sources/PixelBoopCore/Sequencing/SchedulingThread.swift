import CAudioEngine
import Glibc
import Synchronization

/// A live transport's lock and the thread that queues its events under it.
///
/// The thread belongs to the transport, not to a command's loop, so nothing a command does (a
/// redraw, a write to a terminal that stopped reading, a slow key handler) can delay a note: it
/// sleeps until the next event comes within the lookahead (a deadline derived from the engine's
/// clock) or until `wake()` (an edit, a tempo change, new notes), never on a fixed short
/// interval. The transport's state is shared between that thread and the command's thread, and
/// both touch it only inside `locked`; the audio thread never takes this lock (the engine's
/// queue between them is lock-free).
///
/// `@unchecked Sendable`: its own state is atomic (`running`, `started`: `end()` may be called
/// from anywhere, even a deinit that runs inside a step, without the lock), and `condition` (a
/// mutex with a condition variable) guards the owner's state through `locked`.
public final class SchedulingThread: @unchecked Sendable {
    private let condition = Condition()
    private let running = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    /// The longest sleep: a safety net only (a wake-up or a deadline normally ends it first).
    public static let maxSleepSeconds = 0.5
    /// The real-time priority the thread asks for: above every ordinary thread, so a command run
    /// at the lowest CPU priority beside busy processes still queues its notes within the
    /// lookahead, and below the device's I/O thread (70 on ALSA; a JACK client's usually sits
    /// near jackd's 10), which it must never delay. Its work per wake-up is tiny and it never
    /// spins (every nap is at least a millisecond). Without permission it stays an ordinary thread.
    public static let realtimePriority: Int32 = 3

    public init() {}

    /// Runs `body` holding the lock.
    public func locked<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    /// Starts the thread once (later calls do nothing). `step` runs holding the lock: it queues
    /// what is due and returns the seconds until it is due again, or nil to end the thread.
    public func start(name: String, step: @escaping @Sendable () -> Double?) {
        guard started.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        running.store(true, ordering: .releasing)
        Threads.start(name: name) { [self] in
            _ = boop_thread_make_realtime(SchedulingThread.realtimePriority)
            run(step)
        }
    }

    /// Makes the thread run its step now: call after changing what is pending, without holding
    /// the lock (it is not recursive). The step holds the lock from its start to its sleep, so a
    /// wake-up is never lost between the two.
    public func wake() {
        condition.lock()
        condition.signal()
        condition.unlock()
    }

    /// Ends the thread (it finishes the step it may be in, then returns). Idempotent; needs no
    /// lock (a signal sent while the thread is in its step is not needed: it checks `running`
    /// before sleeping).
    public func end() {
        running.store(false, ordering: .releasing)
        condition.signal()
    }

    private func run(_ step: @Sendable () -> Double?) {
        condition.lock()
        defer { condition.unlock() }
        while running.load(ordering: .acquiring), let seconds = step() {
            guard running.load(ordering: .acquiring) else { break }
            // At least a millisecond: something due that the engine's full queue refused is
            // tried again soon, without spinning.
            let nap = min(max(seconds, 0.001), SchedulingThread.maxSleepSeconds)
            _ = condition.wait(until: Timestamp(timeIntervalSinceNow: nap))
        }
    }
}
