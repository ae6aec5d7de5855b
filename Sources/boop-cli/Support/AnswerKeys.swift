import PixelBoopCore

/// The answer keys of an ear-training session in a terminal: one key answers (no Enter), the keys
/// typed while the tones played are dropped, r replays the trial and q, Esc or Ctrl-C end the
/// session. Every `train` exercise answered from the keyboard reads its keys through it, in the
/// session's one `CommandLoop` (the loop the tones wait in too, so q ends them at once).
final class AnswerKeys {
    /// What a key press meant.
    enum Outcome<Answer> {
        case answer(Answer)
        case replay
        case quit
    }

    let loop: CommandLoop

    /// nil when `loop` reads no keys (stdin is not a terminal, or `--json`: the caller then reads
    /// answers from lines).
    init?(_ loop: CommandLoop) {
        guard loop.readsKeys else { return nil }
        self.loop = loop
    }

    /// The keys of an exercise's session, nil with --json (its answers are then lines on stdin).
    /// Without a terminal and without --json nothing could answer: one line naming the exercise
    /// (`train interval`, ...), and 64.
    static func forSession(_ loop: CommandLoop, json: Bool, exercise: String) throws -> AnswerKeys? {
        let keys = AnswerKeys(loop)
        if !json && keys == nil {
            throw BoopExit(.usage, "\(exercise): answers come from the keyboard; use --json to answer from a program")
        }
        return keys
    }

    /// An answer before the tones ended is a guess (or a key held from the last trial), and its
    /// response time would be 0: the keys typed meanwhile are dropped; a q among them still ends
    /// the session.
    func discardTyped() throws { try loop.discardTyped() }

    /// Waits for a key that `meaning` maps to an answer, for r, or for the session's end (q, Esc,
    /// a hang-up, a stop signal). Other keys are ignored.
    func next<Answer>(_ meaning: (InputEvent) -> Answer?) throws -> Outcome<Answer> {
        while !loop.stopped {
            for event in loop.takeKeys() {
                switch event {
                case .char("r"): return .replay
                case .control("c"), .escape: return .quit
                default: if let answer = meaning(event) { return .answer(answer) }
                }
            }
            _ = try loop.wait(seconds: .infinity)
        }
        return .quit
    }
}
