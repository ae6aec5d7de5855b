import Foundation

/// A Ctrl-C (and SIGTERM) flag for work that polls: offline renders between blocks, live players
/// between scheduling passes. The handler only stores to a sig_atomic_t, the one thing a signal
/// handler may safely do; a second signal exits 130 at once.
final class InterruptFlag: @unchecked Sendable {
    nonisolated(unsafe) private static var count: sig_atomic_t = 0

    var isSet: Bool { InterruptFlag.count > 0 }

    static func install() -> InterruptFlag {
        for sig in [SIGINT, SIGTERM] {
            signal(sig) { _ in
                InterruptFlag.count += 1
                if InterruptFlag.count > 1 {
                    KeyInput.restoreTerminalFromSignalHandler()
                    _exit(130)
                }
            }
        }
        return InterruptFlag()
    }
}
