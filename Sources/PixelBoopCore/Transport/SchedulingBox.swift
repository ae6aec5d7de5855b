import Glibc

/// A live transport's lock box: its shared state and the thread that queues its events. The
/// state is reachable only through `locked` or the scheduling thread's step (which runs holding
/// the same lock), so the compiler, not a comment, keeps every access under the lock.
///
/// `@unchecked Sendable` on the box alone: `thread`'s mutex guards `value`.
final class SchedulingBox<Value>: @unchecked Sendable {
    private let thread = SchedulingThread()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` on the state, holding the lock.
    func locked<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        try thread.locked { () throws(E) -> R in try body(&value) }
    }

    /// Starts the scheduling thread once (later calls do nothing). `step` runs holding the lock:
    /// it queues what is due and returns the seconds until it is due again, or nil to end.
    func start(name: String, step: @escaping @Sendable (inout Value) -> Double?) {
        thread.start(name: name) { [self] in step(&value) }
    }

    /// Makes the thread run its step now (call without holding the lock: it is not recursive).
    func wake() { thread.wake() }

    /// Ends the thread; idempotent, needs no lock.
    func end() { thread.end() }
}
