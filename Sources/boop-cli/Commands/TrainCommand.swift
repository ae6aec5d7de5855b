import ArgumentParser
import Glibc
import PixelBoopCore

struct TrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract:
            "Ear and voice training: hear pitch differences, sing notes and intervals back, compare intervals, name intervals, chords and degrees; the history.",
        discussion: """
            `boop train` (run) is pitch discrimination: it finds the difference in cents you hear \
            right 75 % of the time. `boop train match` scores notes (or intervals, --interval) sung \
            back to a reference, live with a needle or from a recording; `boop train sing-interval` asks for \
            intervals above or below a reference, chosen by spaced repetition; `boop train interval` \
            compares the widths of two melodic intervals; `boop train identify` names intervals and chords, \
            `boop train degrees` scale degrees in a key; `boop train stats` shows the history. \
            In a discrimination session each trial plays two tones; say whether the second was higher (up arrow or k) or lower \
            (down arrow or j) once the second tone has ended (keys pressed while the tones play are \
            ignored); r replays, q or Ctrl-C ends the session (answers so far are kept); with --json \
            each trial is a JSON object and each answer a line: higher, lower or quit. A Bayesian \
            adaptive procedure (psi-marginal) picks each difference; the result is the 75 %-correct \
            threshold with a 68 % credible interval. Differences go up to --max-cents (default \
            100, at most 1200): a threshold beyond them is reported as not measured, and answers \
            no better than guessing as at chance, never as a number. --scl FILE [--kbm FILE] plays \
            the reference notes at their keys' pitches in that Scala tuning. Every answer is stored as it is given in SQLite: \
            --db PATH, by default $XDG_DATA_HOME/pixelboop/training.sqlite, or \
            ~/.local/share/pixelboop/training.sqlite when XDG_DATA_HOME is not set or not an absolute path. `boop train stats` \
            shows the history.
            """,
        subcommands: [
            TrainRunCommand.self, TrainMatchCommand.self, TrainSingIntervalCommand.self, TrainIntervalCommand.self,
            TrainIdentifyCommand.self, TrainDegreesCommand.self, TrainStatsCommand.self
        ],
        defaultSubcommand: TrainRunCommand.self)
}

/// The options of a history location, shared by the session and `stats`.
struct HistoryOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The training history (default: $XDG_DATA_HOME/pixelboop/training.sqlite, else ~/.local/share/pixelboop/training.sqlite).",
            valueName: "path"))
    var db: String?

    var path: String { db ?? TrainingStore.defaultPath() }

    func validate() throws {
        // An empty name would be SQLite's private temporary database: the session stored nowhere.
        if db == "" { throw ValidationError("--db '': expected the path of the training history file") }
    }

    /// For a session (created when missing, written) or for `stats` (read-only, never created).
    func open(forWriting: Bool) throws -> TrainingStore {
        // Under `ulimit -f` a write past the limit must fail with an error, not kill the process.
        signal(SIGXFSZ, SIG_IGN)
        do {
            return try TrainingStore(path: path, create: forWriting, readOnly: !forWriting)
        } catch {
            throw BoopExit(error, writing: forWriting)
        }
    }
}

extension BoopExit {
    init(_ error: TrainingStoreError, writing: Bool = true) {
        switch error.kind {
        case .corrupt, .newer, .foreign: self.init(.dataError, error.message)
        case .busy, .unreadable: self.init(.ioError, error.message)
        case .missing: self.init(.noInput, error.message)
        case .notAFile: self.init(writing ? .cannotCreate : .noInput, error.message)
        }
    }
}

struct TrainRunCommand: ParsableCommand, EarSessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "A training session (the default: `boop train` is `boop train run`).")

    @Option(name: .long, help: "Reference notes, one per trial at random: LOW..HIGH (default C4..C6).")
    var range: String?

    @Option(name: .long, help: "One reference note for every trial (instead of --range), e.g. A4.")
    var note: String?

    @Option(name: .long, help: "Seconds of silence between the two tones (\(Limits.text(Limits.trainGap))).")
    var gap: Double = Limits.trainGapDefault

    @Option(name: .long, help: "A4 in Hz (\(Limits.text(Limits.trainReferenceHz))).")
    var reference: Double = Limits.trainReferenceDefault

    @Flag(name: .long, help: "Say right or wrong after each answer.")
    var feedback = false

    @Option(
        name: .long,
        help:
            "The largest difference played, in cents (\(Limits.text(Limits.trainMaxCents))): widen it when the default 100 is not enough to hear."
    )
    var maxCents: Double = PsiMethod.centsRange.upperBound

    @OptionGroup var session: EarSessionOptions

    static let sessionDefaults = (trials: 40, duration: 1.0)

    @OptionGroup var tuningOptions: TuningOptions

    /// Silence between trials in a file (live, the pause is the listener's answer).
    static let interTrialSeconds = 1.0

    mutating func validate() throws {
        try validateRange(gap, Limits.trainGap, option: "--gap", unit: "seconds")
        try validateRange(reference, Limits.trainReferenceHz, option: "--reference", unit: "Hz")
        if !(PsiReport.narrowestCents...PsiMethod.widestCents).contains(maxCents) {
            throw ValidationError("--max-cents \(maxCents): expected \(Limits.text(Limits.trainMaxCents)) cents")
        }
        if range != nil && note != nil { throw ValidationError("--range and --note: expected at most one of them") }
        try tuningOptions.check(reference: reference)
        _ = try notes()
    }

    /// The reference notes as MIDI numbers.
    func notes() throws -> ClosedRange<Int> {
        if let note {
            let midi = try TrainingNotes.note(note, "--note")
            return midi...midi
        }
        return try TrainingNotes.range(range, fallback: 60...84)
    }

    func run() throws {
        runReportingErrors {
            if !json && isatty(STDIN_FILENO) != 1 {
                throw BoopExit(.usage, "train: answers come from the keyboard; use --json to answer from a program")
            }
            var settings = TrainingSettings()
            let range = try notes()
            settings.lowNote = range.lowerBound
            settings.highNote = range.upperBound
            settings.trials = trials
            settings.duration = duration
            settings.gap = gap
            settings.reference = reference
            settings.maxCents = maxCents
            settings.seed = session.seedOrDrawn()
            let pitch = try ReferencePitch(tuningOptions, a4: reference)
            if let tuning = pitch.tuning {
                try pitch.check(keys: range, option: note == nil ? "--range" : "--note")
                settings.keyHz = tuning.keyHz
                (settings.scl, settings.kbm) = (tuning.scalePath, tuning.mappingPath)
            }
            if let output { try checkOutput(output) }
            let store = try history.open(forWriting: true)
            try TrainSessionRunner(command: self, settings: settings, store: store).run()
        }
    }
}

/// One session: tones out (device or file), answers in (keys or lines), every answer stored.
final class TrainSessionRunner {
    private let command: TrainRunCommand
    private var procedure: TrainingRun
    private let store: TrainingStore
    private var sessionID: Int64 = 0
    private var player: SineWaveNotePlayer?
    private var writer: AudioFileWriter?
    private var rate: Double
    /// The session's loop: the tones and the answers wait in it.
    private var commandLoop: CommandLoop?
    private var keys: AnswerKeys?
    /// When the tones last ended: the response time runs from here.
    private var askedAt = Timestamp()

    init(command: TrainRunCommand, settings: TrainingSettings, store: TrainingStore) {
        self.command = command
        procedure = TrainingRun(settings: settings)
        self.store = store
        rate = command.deviceOptions.sampleRate(default: 44100)
    }

    /// Why stdout could not be written, once it could not: the session then ends like a quit
    /// (answers kept, the file finished) and the process exits as StandardOutput says.
    private var outputFailure: StandardOutput.Failure?

    private func say(_ line: String) {
        if !command.json && !command.deviceOptions.quiet { emit(TextWrap.wrap(line)) }
    }

    private func emit(_ line: String) {
        guard outputFailure == nil else { return }
        outputFailure = StandardOutput.send(line + "\n")
    }

    func run() throws {
        Signals.install()
        (writer, player, rate) = try openTrialSound(output: command.output, deviceOptions: command.deviceOptions)
        defer { player?.close(drain: true) }
        let settingsJSON = procedure.settings.json
        do {
            sessionID = try store.beginSession(settings: settingsJSON)
        } catch {
            writer?.abort()
            throw BoopExit(error)
        }
        let loop = CommandLoop(keys: !command.json)
        commandLoop = loop
        keys = AnswerKeys(loop)
        defer { loop.restore() }
        say("Which tone was higher? After the two tones: up (k) if the second was higher, down (j) if lower; r replays, q ends.")

        var failure: Error?
        do {
            try runTrials()
        } catch {
            failure = error
        }
        // The session always ends with what was answered, whatever stopped it.
        // A session beyond its range or at chance stores no threshold: stats shows none for it.
        let result = procedure.result
        try? store.endSession(sessionID, estimate: result?.measured)
        if let failure {
            writer?.abort()
            throw failure
        }
        // Nothing answered (quit at once, stdout failed, a stop signal): no file rather than one
        // with no trial in it, as `train interval` does.
        if procedure.answered == 0 { writer?.abort() }
        do {
            try writer?.commit()
        } catch {
            writer?.abort()
            throw BoopExit(error)
        }
        report(result)
        if let outputFailure {
            let kept = procedure.answered > 0 ? command.output.map { "; \($0) was finished with the answers so far" } : nil
            StandardOutput.exit(for: outputFailure, also: kept ?? "")
        }
    }

    private func runTrials() throws {
        while procedure.answered < command.trials && commandLoop?.stopped == false && outputFailure == nil {
            let plan = procedure.nextTrial()
            if command.json {
                let line = String(
                    cFormat: "{\"trial\":%d,\"first_hz\":%.6f,\"second_hz\":%.6f}", plan.number,
                    plan.firstHz, plan.secondHz)
                emit(line)
            } else {
                say("trial \(plan.number)/\(command.trials)")
            }
            if outputFailure != nil { return }
            try sound(plan)
            guard let secondHigher = try awaitAnswer(plan) else { return }
            let correct = procedure.answer(secondHigher: secondHigher)
            let trial = TrainingTrial(
                session: sessionID, trial: plan.number, time: Timestamp(), referenceHz: plan.referenceHz,
                differenceCents: plan.cents, higherInterval: plan.higherInterval,
                answer: secondHigher ? "higher" : "lower", correct: correct,
                responseMilliseconds: Int(Timestamp().timeIntervalSince(askedAt) * 1000))
            do {
                try store.add(trial)
            } catch {
                throw BoopExit(error)
            }
            if command.feedback { say(correct ? "  right" : "  wrong") }
        }
    }

    /// The two tones: on the device (blocking until heard), or appended to the file. Keys typed
    /// meanwhile are thrown away (only q counts), and the answer is timed from here.
    private func sound(_ plan: TrainingTrialPlan) throws {
        defer { askedAt = Timestamp() }
        let sequence = try ToneSequence(
            frequencies: [plan.firstHz, plan.secondHz], duration: command.duration,
            gap: command.gap, sampleRate: rate)
        guard let commandLoop else { return }
        try soundTrial(
            sequence, writer: writer, player: player, tail: TrainRunCommand.interTrialSeconds, loop: commandLoop)
        try keys?.discardTyped()
    }

    /// true: "the second was higher"; nil: the session ends here (quit, end of input, Ctrl-C).
    private func awaitAnswer(_ plan: TrainingTrialPlan) throws -> Bool? {
        if command.json {
            guard let line = try InputLine.answer(trial: plan.number, expected: "higher, lower or quit") else {
                return nil
            }
            switch line {
            case "higher": return true
            case "lower": return false
            case "quit": return nil
            default:
                throw BoopExit(
                    .dataError,
                    "stdin, trial \(plan.number): expected higher, lower or quit, got \"\(OneLine.escape(String(line.prefix(40))))\""
                )
            }
        }
        guard let keys else { return nil }
        while true {
            say("  second tone higher (up/k) or lower (down/j)? r replays, q ends")
            let outcome = try keys.next { event -> Bool? in
                switch event {
                case .arrow(.up), .char("k"): return true
                case .arrow(.down), .char("j"): return false
                default: return nil
                }
            }
            switch outcome {
            case .answer(let secondHigher): return secondHigher
            case .replay: try sound(plan)
            case .quit: return nil
            }
        }
    }

    private func report(_ result: PsiResult?) {
        if command.json {
            emit(PsiReport.json(result, maxCents: command.maxCents))
            return
        }
        guard let result else {
            say("No answers: nothing to estimate.")
            return
        }
        say(
            PsiReport.text(result, label: "Threshold", limit: PsiMethod.widestCents, fewTrials: TrainStatsCommand.fewTrials)
                + (result.aboveRange ? "." : ": you hear a difference this size right 75 % of the time."))
        guard let measured = result.measured else { return }
        if let earlier = try? store.sessions().filter({
            $0.id != sessionID && $0.exercise == .discrimination && $0.threshold != nil
        }).suffix(5),
            !earlier.isEmpty
        {
            let list = earlier.map { String(cFormat: "%.1f", $0.threshold!) }.joined(separator: ", ")
            let best = earlier.map { $0.threshold! }.min()!
            say("Your last sessions: \(list) cents" + (measured.threshold < best ? " - a new best." : "."))
        }
    }
}
