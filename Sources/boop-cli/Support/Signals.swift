import Dispatch
import Foundation

/// Ctrl-C, SIGTERM, SIGHUP (a closed terminal) and SIGQUIT for the live commands (play, tone,
/// listen, ambient) and renders.
///
/// The first signal asks for a graceful stop: `interrupted` becomes true and the handler given
/// to `install` runs on a private serial control queue (never in signal context, never on an
/// audio thread), so it may fade the engine out, finalise a recording and so on. A second signal
/// means "now": the terminal is restored and the process exits 130 at once.
enum Signals {
    private static let queue = DispatchQueue(label: "boop.signals")
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
    nonisolated(unsafe) private static var handler: (@Sendable () -> Void)?
    private static let state = SignalState()

    /// True once SIGINT, SIGTERM, SIGHUP or SIGQUIT has arrived (any thread).
    static var interrupted: Bool { state.count > 0 }

    /// Which signal stopped us first, or 0.
    static var firstSignal: Int32 { state.first }

    /// Readable once a stop signal has arrived (and from then on), so a control loop sleeping in
    /// poll(2) wakes at once: the signals are taken by dispatch sources, which never interrupt it.
    static var wakeDescriptor: Int32 { wakePipe.read }

    private static let wakePipe: (read: Int32, write: Int32) = {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return (-1, -1) }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        return (ends[0], ends[1])
    }()

    /// Installs the handlers (idempotent; a later call replaces the handler). `onStop` runs once,
    /// on the control queue, at the first signal.
    static func install(onStop: (@Sendable () -> Void)? = nil) {
        queue.sync {
            handler = onStop
            guard sources.isEmpty else { return }
            let wake = wakePipe.write
            // SIGHUP (the terminal closed) and SIGQUIT (Ctrl-\\) stop like SIGTERM: a render
            // removes its temporary file and no crash report is printed.
            for sig in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
                signal(sig, SIG_IGN)   // delivery goes to the dispatch source instead
                let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
                source.setEventHandler {
                    let n = state.increment(signal: sig, by: Int(source.data))
                    if n >= 2 {
                        Keyboard.restoreTerminal()
                        _exit(130)
                    }
                    if n == 1 {
                        var byte: UInt8 = 1
                        if wake >= 0 { _ = write(wake, &byte, 1) }
                        handler?()
                    }
                }
                source.resume()
                sources.append(source)
            }
        }
    }
}

/// The counter behind `Signals`, read from any thread.
private final class SignalState: @unchecked Sendable {
    private let lock = NSLock()
    private var _count = 0
    private var _first: Int32 = 0

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return _count
    }

    var first: Int32 {
        lock.lock()
        defer { lock.unlock() }
        return _first
    }

    func increment(signal: Int32, by n: Int) -> Int {
        lock.lock()
        if _count == 0 { _first = signal }
        _count += max(1, n)
        let c = _count
        lock.unlock()
        return c
    }
}
