import Glibc

/// A mutex (pthread's, not recursive): what boop used NSLock for.
public final class Lock: @unchecked Sendable {
    fileprivate let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    public init() { pthread_mutex_init(mutex, nil) }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }

    public func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A lock box: `value` is reachable only through `withLock`, under a pthread mutex. The one lock
/// box of the Swift sources, not the standard library's `Synchronization.Mutex`: ThreadSanitizer cannot
/// see that Mutex's hand-over on Linux (a priority-inheriting futex passes the lock to the waiter
/// in the kernel), and reports a race on a counter only ever touched under it.
///
/// `@unchecked Sendable` on the box alone: the mutex guards `value`.
public final class LockedBox<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    public func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        try lock.withLock { () throws(E) -> R in try body(&value) }
    }
}

/// A mutex with a condition variable, what boop used NSCondition for: `wait(until:)` sleeps
/// until signalled or until the wall-clock deadline (pthread's default clock, as NSCondition's),
/// and returns false when the deadline passed.
public final class Condition: @unchecked Sendable {
    private let lockStorage = Lock()
    private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() { pthread_cond_init(cond, nil) }

    deinit {
        pthread_cond_destroy(cond)
        cond.deallocate()
    }

    public func lock() { lockStorage.lock() }
    public func unlock() { lockStorage.unlock() }
    public func signal() { pthread_cond_signal(cond) }
    public func broadcast() { pthread_cond_broadcast(cond) }
    public func wait() { pthread_cond_wait(cond, lockStorage.mutex) }

    public func wait(until deadline: Timestamp) -> Bool {
        let t = deadline.timeIntervalSince1970
        guard t.isFinite else {
            if t > 0 { wait() }
            return t > 0
        }
        let seconds = t.rounded(.down)
        var ts = timespec(tv_sec: Int(seconds), tv_nsec: min(Int((t - seconds) * 1e9), 999_999_999))
        return pthread_cond_timedwait(cond, lockStorage.mutex, &ts) != ETIMEDOUT
    }

    public func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        try lockStorage.withLock(body)
    }
}

public enum Threads {
    /// Address space (MiB) a new thread needs beside what is mapped: its 8 MiB stack and room for
    /// its first allocations (`listen`'s reader died in the Swift runtime with 8 MiB left and ran
    /// with 14).
    static let minimumRoomMiB = 12

    /// Runs `body` on a new detached thread (the default stack size), named `name` as far as the
    /// kernel's 15 bytes allow (what `top -H` and a debugger show). Returns 0, or pthread_create's
    /// error when no thread could start (`ulimit -v`, the thread count): then `body` never runs.
    /// Under an address-space limit that leaves a new thread too little room to allocate in (its
    /// stack, then glibc's malloc finding nothing left for its first buffer), it does not start
    /// either (EAGAIN): a thread that started would end the process in the Swift runtime's
    /// allocation failure instead of the caller's one line.
    @discardableResult
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) -> Int32 {
        if let room = AddressSpace.room(), room.free < minimumRoomMiB { return EAGAIN }
        final class Box: @unchecked Sendable {
            let name: String
            let body: @Sendable () -> Void
            init(_ name: String, _ body: @escaping @Sendable () -> Void) {
                self.name = name
                self.body = body
            }
        }
        let box = Unmanaged.passRetained(Box(name, body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { raw in
                let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
                Threads.setName(box.name)
                box.body()
                return nil
            }, box)
        guard status == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            return status
        }
        pthread_detach(thread)
        return 0
    }

    /// The calling thread's name (`comm`), cut to the kernel's 15 bytes; best effort.
    private static func setName(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// Sleeps `seconds` (nanosleep, resumed after a signal), as Thread.sleep(forTimeInterval:).
    public static func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        let whole = seconds.rounded(.down)
        var request = timespec(tv_sec: Int(min(whole, Double(Int32.max))), tv_nsec: Int((seconds - whole) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }
}
