import ArgumentParser
import Glibc
import PixelBoopCore

struct TrainIntervalCommand: ParsableCommand, EarSessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "interval",
        abstract: "Interval discrimination: was the second interval wider or narrower than the first?",
        discussion: """
            Each trial plays two melodic intervals of the same kind (--interval, default P5), one \
            wider than the other; the second starts on a note up to 3 semitones from the first's, so \
            only the widths compare. Answer with one key: w or up (wider), n or down (narrower); r \
            replays, q ends; keys pressed while the notes play do not count. The \
            psi-marginal procedure finds the difference in cents you judge right 75 % of the time, \
            with a 68 % credible interval; differences go up to --max-cents (default 100, at most \
            the interval's width and 400), and a threshold beyond them, or answers at chance, is said \
            so rather than measured. --json prints {"trial","first_hz":[F1,F2],"second_hz":[F3,F4]} \
            and reads wider, narrower or quit; at the end \
            {"threshold_cents","low_cents","high_cents","above_range","at_chance","max_cents","trials"}.
            """)

    @Option(name: .long, help: "The interval: \(SungInterval.names.dropFirst().joined(separator: ", ")).")
    var interval: String = "P5"

    @Option(name: .long, help: "Lower notes of the first interval: LOW..HIGH (default C4..C5).")
    var range: String?

    @Option(
        name: .long,
        help:
            "The largest difference in width played, in cents (\(Limits.text(Limits.trainIntervalCents.lowerBound)) ... the interval's width, at most \(Limits.text(Limits.trainIntervalCents.upperBound)))."
    )
    var maxCents: Double = IntervalRun.defaultMaxCents

    @Flag(name: .long, help: "Say right or wrong after each answer.")
    var feedback = false

    @OptionGroup var session: EarSessionOptions

    static let sessionDefaults = (trials: 40, duration: 0.5)

    mutating func validate() throws {
        guard let i = SungInterval(interval), i.semitones > 0, i.direction > 0 else {
            throw ValidationError(
                "--interval \(OneLine.escape(interval)): expected one of \(SungInterval.names.dropFirst().joined(separator: ", "))"
            )
        }
        let widest = IntervalRun.widestCents(semitones: i.semitones)
        if !(PsiReport.narrowestCents...widest).contains(maxCents) {
            throw ValidationError(
                String(
                    cFormat: "--max-cents %@: expected %@...%.0f cents for %@", "\(maxCents)",
                    Limits.text(PsiReport.narrowestCents), widest, i.name))
        }
        _ = try notes()
    }

    func notes() throws -> ClosedRange<Int> { try TrainingNotes.range(range, fallback: 60...72) }

    func run() throws {
        runReportingErrors {
            let loop = CommandLoop(keys: !json)
            let keys = try AnswerKeys.forSession(loop, json: json, exercise: "train interval")
            defer { loop.restore() }
            if let output { try checkOutput(output) }
            Signals.install()
            let seed = session.seedOrDrawn()
            var run = IntervalRun(
                semitones: SungInterval(interval)!.semitones, notes: try notes(), seed: seed, maxCents: maxCents)
            let store = try history.open(forWriting: true)
            let id = try Self.storing { try store.beginSession(settings: settingsJSON(seed), exercise: .interval) }
            let sound = try EarSound(duration: duration, output: output, deviceOptions: deviceOptions)
            while run.answered < trials && !loop.stopped {
                let plan = run.nextTrial()
                say(json ? Self.jsonTrial(plan) : "trial \(plan.number)/\(trials)")
                // Keys typed while the notes played are a guess, not an answer: dropped; the
                // answer is timed from the end of the second interval (of its last replay).
                var asked = Timestamp()
                var outcome = AnswerKeys.Outcome<Bool>.replay
                while case .replay = outcome {
                    try sound.play(plan, loop: loop)
                    try keys?.discardTyped()
                    asked = Timestamp()
                    outcome = try answer(plan, keys)
                }
                guard case .answer(let wider) = outcome else { break }
                let correct = run.answer(secondWider: wider)
                let record = IntervalTrialRecord(
                    session: id, trial: plan.number, time: Timestamp(), interval: SungInterval(interval)!.name, plan: plan,
                    secondWider: wider,
                    responseMilliseconds: Int(Timestamp().timeIntervalSince(asked) * 1000))
                try Self.storing { try store.add(record) }
                if feedback && !json { say(correct ? "  right" : "  wrong") }
            }
            // Beyond the range or at chance: no threshold stored, as none was measured.
            try? store.endSession(id, estimate: run.result?.measured)
            try sound.finish(keep: run.answered > 0)
            report(run)
            if !json && run.result?.measured != nil { compare(with: store, current: id) }
        }
    }

    /// A history write, its failure as the one line and status of the history's errors.
    static func storing<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as TrainingStoreError {
            throw BoopExit(error)
        }
    }

    private func settingsJSON(_ seed: UInt64) -> String {
        let settings: [String: Any] = [
            "interval": interval, "trials": trials, "range": range ?? "C4..C5", "duration": duration, "seed": seed,
            "max_cents": maxCents
        ]
        return JSONText.encode(settings) ?? ""
    }

    static func jsonTrial(_ p: IntervalTrialPlan) -> String {
        String(
            cFormat: "{\"trial\":%d,\"first_hz\":[%.6f,%.6f],\"second_hz\":[%.6f,%.6f]}", p.number, p.first.0, p.first.1,
            p.second.0, p.second.1)
    }

    /// .answer(true): "the second was wider"; .quit: the session ends.
    private func answer(_ plan: IntervalTrialPlan, _ keys: AnswerKeys?) throws -> AnswerKeys.Outcome<Bool> {
        if let keys {
            say("  second interval wider (w/up) or narrower (n/down)? r replays, q ends")
            return try keys.next { event -> Bool? in
                switch event {
                case .arrow(.up), .char("w"): return true
                case .arrow(.down), .char("n"): return false
                default: return nil
                }
            }
        }
        guard let line = try InputLine.answer(trial: plan.number, expected: "wider, narrower or quit") else {
            return .quit
        }
        switch line {
        case "wider", "w": return .answer(true)
        case "narrower", "n": return .answer(false)
        case "quit", "q": return .quit
        default:
            throw BoopExit(
                .dataError,
                "stdin, trial \(plan.number): expected wider, narrower or quit, got \"\(OneLine.escape(String(line.prefix(40))))\""
            )
        }
    }

    private func report(_ session: IntervalRun) {
        if json {
            say(PsiReport.json(session.result, maxCents: maxCents))
            return
        }
        guard let result = session.result else {
            say("No answers: nothing to estimate.")
            return
        }
        let widest = IntervalRun.widestCents(semitones: session.semitones)
        say(PsiReport.text(result, label: "\(interval) threshold", limit: widest, fewTrials: 20) + ".")
    }

    /// The last sessions of the same interval, as `boop train` compares its own.
    private func compare(with store: TrainingStore, current: Int64) {
        guard let sessions = try? store.sessions(), let trials = try? store.intervalTrials() else { return }
        let same = Set(trials.filter { $0.interval == interval }.map(\.session))
        let earlier = sessions.filter { $0.id != current && same.contains($0.id) && $0.threshold != nil }.suffix(5)
        guard !earlier.isEmpty, let now = session(current, in: sessions)?.threshold else { return }
        let list = earlier.map { String(cFormat: "%.1f", $0.threshold!) }.joined(separator: ", ")
        let best = earlier.map { $0.threshold! }.min()!
        say("Your last \(interval) sessions: \(list) cents" + (now < best ? " - a new best." : "."))
    }

    private func session(_ id: Int64, in sessions: [TrainingSession]) -> TrainingSession? {
        sessions.first { $0.id == id }
    }

    func say(_ line: String) {
        let line = json ? line : TextWrap.wrap(line)
        if let failure = StandardOutput.send(line + "\n") { StandardOutput.exit(for: failure, also: "") }
    }
}
