import Dispatch
import Glibc

/// The screen's writes on a thread of their own, for a terminal written through the descriptor
/// the process inherited (one it may not open again: another user's, after `su` or `setpriv`).
/// That descriptor's open file description is the shell's too, so it stays blocking (O_NONBLOCK
/// there would reach the shell and every other process on the terminal); a write that blocks
/// because the terminal stopped reading blocks this thread only, never the command's loop, which
/// sees `isBusy` and makes no frame meanwhile, as with a non-blocking descriptor.
///
/// Sendable: the bytes handed over, the busy flag and a failure are shared through `state`'s
/// lock; the semaphore and the pipe are safe to use from any thread.
final class BlockingScreenWriter: Sendable {
    private struct State {
        var bytes: [UInt8] = []
        var busy = false
        var failure: Int32?
        var closing = false
    }

    private let state = LockedBox(State())
    private let work = DispatchSemaphore(value: 0)
    /// Readable (a byte) each time the thread has written all it was given, or failed.
    let doneDescriptor: Int32
    private let doneWrite: Int32

    /// `descriptor`: the blocking screen, closed by the thread as it ends when `owned`. Nil when
    /// no pipe could be made.
    init?(descriptor: Int32, owned: Bool) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        doneDescriptor = ends[0]
        doneWrite = ends[1]
        let started = Threads.start(name: "screen") { [self] in
            run(descriptor)
            if owned { Glibc.close(descriptor) }
            Glibc.close(doneWrite)
            Glibc.close(doneDescriptor)
        }
        guard started == 0 else {   // no thread to be had (`ulimit -v`, the thread count)
            Glibc.close(ends[0])
            Glibc.close(ends[1])
            return nil
        }
    }

    /// True while bytes handed over are not all written.
    var isBusy: Bool { state.withLock { $0.busy } }

    /// The errno of a failed write (nothing is written after it).
    var failure: Int32? { state.withLock { $0.failure } }

    /// Hands `bytes` to the thread (after what it still holds).
    func write<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        let taken = state.withLock { s -> Bool in
            guard s.failure == nil, !s.closing else { return false }
            s.bytes.append(contentsOf: bytes)
            s.busy = true
            return true
        }
        if taken { work.signal() }
    }

    /// Reads the pipe's bytes (after poll said it was readable).
    func takeNotices() {
        var sink = [UInt8](repeating: 0, count: 64)
        while read(doneDescriptor, &sink, sink.count) > 0 {}
    }

    /// Ends the thread once it has written what it holds (at once when idle). The thread may stay
    /// blocked for ever on a terminal that never reads again; the process's exit ends it.
    func finish() {
        state.withLock { $0.closing = true }
        work.signal()
    }

    private func run(_ descriptor: Int32) {
        while true {
            work.wait()
            let (batch, closing) = state.withLock { s -> ([UInt8], Bool) in
                defer { s.bytes.removeAll(keepingCapacity: true) }
                return (s.bytes, s.closing)
            }
            let failure = Self.writeAll(batch, to: descriptor)
            state.withLock { s in
                if let failure { s.failure = failure }
                if s.bytes.isEmpty || s.failure != nil { s.busy = false }
            }
            var byte: UInt8 = 1
            _ = Glibc.write(doneWrite, &byte, 1)
            if closing { return }
        }
    }

    /// Writes all of `bytes` (blocking); the errno when a write fails.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var written = 0
        while let failure = ScreenOutput.write(bytes, from: &written, to: descriptor) {
            guard failure == EAGAIN else { return failure }
            // Another process made the shared description non-blocking: wait as a blocking write would.
            var fds = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&fds, 1, -1)
        }
        return nil
    }
}
