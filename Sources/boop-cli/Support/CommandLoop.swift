import Glibc
import PixelBoopCore

/// The live loop of the commands that play or listen without a screen of their own (`tone`,
/// `listen`, every `train` exercise): one `LiveLoop` that sleeps until something is due (the
/// deadline its caller names, a key, a stop signal, a watched descriptor such as the capture's),
/// so q ends them as Ctrl-C does, at once, wherever they wait. The terminal is put in key mode (no
/// echo, keys read as typed; Ctrl-C and Ctrl-Z still signal) by the one terminal session; without
/// a terminal on stdin (a pipe, a script) no key is read and only the stop signals end the wait.
final class CommandLoop {
    let loop: LiveLoop
    private let terminal: TerminalSession?
    /// q or Q was typed, or the terminal went away (its end of input would wake the loop for ever).
    private(set) var quitTyped = false
    /// Keys other than q since the last `takeKeys()`, the newest 16 (a command that asks for none
    /// keeps only the newest).
    private var typed: [InputEvent] = []

    /// `keys`: false for a command that reads its answers from stdin lines (`--json`); `clock`:
    /// where the loop reads the time and waits (a test's virtual one).
    init(keys: Bool = true, clock: LoopClock = .real) {
        terminal = keys && isatty(STDIN_FILENO) == 1 ? TerminalSession.start(.keys(hideCursor: false)) : nil
        loop = LiveLoop(terminal: terminal, screen: nil, clock: clock)
        loop.secondsUntilDue = { .infinity }   // the callers name their deadlines
        loop.watch(Signals.wakeDescriptor) { .stop }
        loop.onKeys = { [unowned self] events in take(events) }
        loop.onHangUp = { [unowned self] in
            quitTyped = true
            return .stop
        }
    }

    /// True when keys are read (a terminal on stdin).
    var readsKeys: Bool { terminal != nil }

    /// q, the terminal gone, or a stop signal: the command ends (as after Ctrl-C).
    var stopped: Bool { quitTyped || Signals.interrupted }

    /// Sleeps until `seconds` have passed, a key came, a stop signal or a watched descriptor woke
    /// it; true when the command is to stop.
    func wait(seconds: Double) throws -> Bool {
        if !stopped { _ = try loop.wait(seconds: seconds) }
        return stopped
    }

    /// Wakes the loop when `fd` is readable; `handler` must read what woke it.
    func watch(_ fd: Int32, _ handler: @escaping () throws -> LiveLoop.Next) { loop.watch(fd, handler) }

    /// The keys other than q typed since the last call, in order.
    func takeKeys() -> [InputEvent] {
        defer { typed.removeAll() }
        return typed
    }

    /// Reads what was typed and drops it (keys typed while the tones played are no answer), the
    /// terminal's input queue flushed and a half-read escape sequence forgotten; a q among them
    /// still ends the command.
    func discardTyped() throws {
        _ = try wait(seconds: 0)
        typed.removeAll()
        terminal?.discardTypedKeys()
        loop.resetInput()
    }

    func restore() { terminal?.restore() }

    private func take(_ events: [InputEvent]) -> LiveLoop.Next {
        for event in events {
            switch event {
            case .char("q"), .char("Q"):
                quitTyped = true
                return .stop
            default: typed.append(event)
            }
        }
        if typed.count > 16 { typed.removeFirst(typed.count - 16) }
        return typed.isEmpty ? .carryOn : .stop
    }
}
