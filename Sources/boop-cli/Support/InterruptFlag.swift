import Foundation

/// A Ctrl-C flag for work that polls between blocks (offline renders). The handler only stores
/// to a sig_atomic_t, the one thing a signal handler may safely do; a second Ctrl-C exits at once.
final class InterruptFlag: @unchecked Sendable {
    nonisolated(unsafe) private static var count: sig_atomic_t = 0

    var isSet: Bool { InterruptFlag.count > 0 }

    static func install() -> InterruptFlag {
        signal(SIGINT) { _ in
            InterruptFlag.count += 1
            if InterruptFlag.count > 1 { _exit(130) }
        }
        return InterruptFlag()
    }
}
