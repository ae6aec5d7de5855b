import PixelBoopCore

/// The answer keys of an ear-training session in a terminal: one key answers (no Enter), the keys
/// typed while the tones played are dropped, r replays the trial and q, Esc or Ctrl-C end the
/// session. `boop train` and `boop train interval` answer through it.
final class AnswerKeys {
    /// What a key press meant.
    enum Outcome<Answer> {
        case answer(Answer)
        case replay
        case quit
    }

    private let terminal: TerminalSession
    private let loop: LiveLoop
    /// q was typed while the tones played: the session ends at the next question.
    private var quitTyped = false

    /// nil when stdin is not a terminal (the caller then reads answers from lines).
    init?() {
        guard let terminal = TerminalSession.start(.keys(hideCursor: false)) else { return nil }
        self.terminal = terminal
        loop = LiveLoop(terminal: terminal, screen: nil)
        loop.watch(Signals.wakeDescriptor) { .stop }
    }

    func restore() { terminal.restore() }

    /// An answer before the tones ended is a guess (or a key held from the last trial), and its
    /// response time would be 0: the keys typed meanwhile are read and dropped, the terminal's
    /// input queue flushed and a half-read escape sequence forgotten. A q among them still ends
    /// the session.
    func discardTyped() {
        while let bytes = terminal.takeKeys(), !bytes.isEmpty {
            if bytes.contains(UInt8(ascii: "q")) || bytes.contains(UInt8(ascii: "Q")) { quitTyped = true }
        }
        terminal.discardTypedKeys()
        loop.resetInput()
    }

    /// Waits for a key that `meaning` maps to an answer, for r, or for the session's end (q, Esc,
    /// Ctrl-C, a hang-up, a stop signal). Other keys are ignored.
    func next<Answer>(_ meaning: @escaping (InputEvent) -> Answer?) throws -> Outcome<Answer> {
        var outcome: Outcome<Answer>?
        loop.onKeys = { events in
            for event in events {
                switch event {
                case .char("r"): outcome = .replay
                case .char("q"), .char("Q"), .control("c"), .escape: outcome = .quit
                default:
                    guard let answer = meaning(event) else { continue }
                    outcome = .answer(answer)
                }
                return .stop
            }
            return .carryOn
        }
        loop.onHangUp = {
            outcome = .quit
            return .stop
        }
        while !Signals.interrupted && !quitTyped {
            try loop.turn(maxWait: 1)
            if let outcome { return outcome }
        }
        return .quit
    }
}
