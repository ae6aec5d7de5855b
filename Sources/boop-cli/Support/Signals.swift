import CAudioEngine
import Glibc
import PixelBoopCore
import Synchronization

/// Ctrl-C, SIGTERM, SIGHUP (a closed terminal) and SIGQUIT for the live commands (play, tone,
/// listen, ambient) and renders.
///
/// The handlers are plain sigaction ones in the engine's C part (`boop_stop_signals_*`), put in
/// place before `main` runs and again first thing in it (`installEarly`): no libdispatch, which
/// hangs for ever when it cannot start a thread (`ulimit -v`), and no window in which SIGQUIT
/// brings the runtime's crash report. Until a command asks for a graceful stop (`install`), a
/// signal removes any temporary file and ends the process as SIGTERM does.
///
/// Once installed, the first signal asks for a graceful stop: `interrupted` becomes true, the
/// wake descriptor becomes readable, and the handler given to `install` runs on a thread of its
/// own (never in signal context, never on an audio thread), so it may fade the engine out,
/// finalise a recording and so on. A second signal means "now": in the signal handler, the
/// terminal is restored, every temporary file is removed and the process exits 130.
enum Signals {
    /// True once a stop signal has arrived (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2,
    /// SIGALRM, SIGVTALRM, SIGXCPU; any thread).
    static var interrupted: Bool { boop_stop_signals_count() > 0 }

    /// Which signal stopped us first, or 0.
    static var firstSignal: Int32 { boop_stop_signals_first() }

    /// Readable once a stop signal has arrived (and from then on), so a control loop sleeping in
    /// poll(2) wakes at once (the handlers restart system calls rather than interrupt them).
    static var wakeDescriptor: Int32 { wakeRead.load(ordering: .acquiring) }

    /// The wake pipe's read end (its write end is the C handler's), set once in `installEarly`.
    private static let wakeRead = Atomic<Int32>(-1)
    private static let watcherStarted = Atomic<Bool>(false)
    /// Set before the watcher thread starts and read by it.
    private static let handler = LockedBox<(@Sendable () -> Void)?>(nil)

    /// First thing in `main`: the handlers (not armed) and the wake pipe.
    static func installEarly() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
            wakeRead.store(ends[0], ordering: .releasing)
        }
        _ = boop_stop_signals_install(ends[1])
    }

    /// Arms graceful stopping (idempotent): from now on the first signal only sets `interrupted`
    /// and wakes the control loop, which the caller polls.
    static func install() {
        boop_stop_signals_arm()
    }

    /// As `install()`, and `onStop` runs once, on a thread of its own, at the first signal (one
    /// command installs one). Throws BoopExit(.ioError) when that thread cannot be started (no
    /// memory for its stack, the thread limit reached).
    static func install(onStop: @escaping @Sendable () -> Void) throws {
        boop_stop_signals_arm()
        guard !watcherStarted.load(ordering: .acquiring) else { return }
        handler.withLock { $0 = onStop }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        // It only waits and calls one function: a small stack fits where memory is limited.
        pthread_attr_setstacksize(&attributes, 256 * 1024)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let status = pthread_create(
            &thread, &attributes,
            { _ in
                Signals.watch()
                return nil
            }, nil)
        guard status == 0 else {
            throw BoopExit(
                .ioError,
                "cannot start the thread that handles Ctrl-C (\(String(cString: strerror(status)))); is memory or the thread count limited?"
            )
        }
        watcherStarted.store(true, ordering: .releasing)
    }

    /// Starts three threads at once as the runtime's worker threads are made (default attributes,
    /// so the default stack), then joins them: throws BoopExit(.ioError) when they cannot start,
    /// where the runtime would wait for ever. Three, not one: the C library keeps a joined
    /// thread's stack for the next thread, so one probe proved only that the runtime's first
    /// thread starts, and it hung starting its second (the static build under `ulimit -v`).
    static func checkThreadsCanStart() throws(BoopExit) {
        var threads: [pthread_t] = []
        var status: Int32 = 0
        for _ in 0..<3 where status == 0 {
            var thread = pthread_t()
            status = pthread_create(&thread, nil, { _ in nil }, nil)
            if status == 0 { threads.append(thread) }
        }
        for thread in threads { pthread_join(thread, nil) }
        guard status == 0 else {
            throw BoopExit(
                .ioError,
                "cannot start a thread (\(String(cString: strerror(status)))); is memory or the thread count limited?")
        }
    }

    /// The watcher thread: sleeps until the first signal, then runs the handler once. Without a
    /// wake pipe (none could be made) nothing can wake it, so it looks every 50 ms.
    private static func watch() {
        var fds = pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)
        while !interrupted {
            _ = poll(&fds, 1, fds.fd >= 0 ? -1 : 50)
        }
        handler.withLock { $0 }?()
    }
}
