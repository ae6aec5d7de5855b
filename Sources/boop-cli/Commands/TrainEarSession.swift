import Glibc
import PixelBoopCore

/// What an identification session needs from its command: the drill, the trial's sound and how
/// answers are named.
struct EarSessionSettings {
    var drill: EarDrill
    var exercise: TrainingExercise
    /// --trials, --duration, --json and where the notes and answers go, as the command reads them.
    var command: any EarSessionCommand
    /// The seed given, or the one drawn for this session (stored with it).
    var seed: UInt64
    /// The name shown for each item (solfège for degrees with --solfege).
    var labels: [String]
    var settingsJSON: String
    var plan: (_ number: Int, _ item: String, _ rng: inout SeededGenerator) -> EarTrialPlan

    var trials: Int { command.trials }
    var json: Bool { command.json }
}

/// An identification session (`train identify`, `train degrees`): the scheduler picks each item
/// from the history, the trial is played, one key (or a line with --json) answers, the answer
/// is stored at once with its trial; q ends and the trial in progress is not stored.
final class EarSessionRunner {
    private let s: EarSessionSettings
    private let store: TrainingStore
    private let sound: EarSound
    private var scheduler: EarScheduler
    private var rng: SeededGenerator
    private(set) var answered: [(item: String, answer: String)] = []

    init(_ settings: EarSessionSettings, store: TrainingStore, sound: EarSound) throws {
        s = settings
        self.store = store
        self.sound = sound
        let history = try TrainIntervalCommand.storing { try store.earTrials(settings.drill) }
        scheduler = EarScheduler(
            items: settings.drill.items, history: history.map { ($0.item, $0.answer) })
        rng = SeededGenerator(seed: settings.seed)
    }

    /// A session of `settings` with its command's history and sound.
    static func run(_ settings: EarSessionSettings) throws {
        let c = settings.command
        let store = try c.history.open(forWriting: true)
        let sound = try EarSound(duration: c.duration, output: c.output, deviceOptions: c.deviceOptions)
        try EarSessionRunner(settings, store: store, sound: sound).run()
    }

    func run() throws {
        let loop = CommandLoop(keys: !s.json)
        let keys = try AnswerKeys.forSession(loop, json: s.json, exercise: "train \(s.exercise.rawValue)")
        defer { loop.restore() }
        Signals.install()
        let id = try TrainIntervalCommand.storing { try store.beginSession(settings: s.settingsJSON, exercise: s.exercise) }
        if !s.json { say("After the notes, name what you heard by its key; r replays, q ends.") }
        while answered.count < s.trials && !loop.stopped {
            let plan = s.plan(answered.count + 1, scheduler.next(using: &rng), &rng)
            if s.json { say(jsonTrial(plan)) }
            var asked = Timestamp()
            var outcome = AnswerKeys.Outcome<String>.replay
            while case .replay = outcome {
                try sound.play(plan, loop: loop)
                try keys?.discardTyped()
                if !s.json { say(trialLine(plan)) }
                asked = Timestamp()
                outcome = try answer(plan, keys)
            }
            guard case .answer(let named) = outcome else { break }
            let record = EarTrialRecord(
                session: id, trial: plan.number, time: Timestamp(), plan: plan, answer: named,
                responseMilliseconds: Int(Timestamp().timeIntervalSince(asked) * 1000))
            try TrainIntervalCommand.storing { try store.add(record) }
            scheduler.record(item: plan.item, answer: named)
            answered.append((plan.item, named))
            if !s.json { say(feedback(plan, named)) }
        }
        try? store.endSession(id, estimate: nil)
        try sound.finish(keep: !answered.isEmpty)
        say(s.json ? summaryJSON() : summaryText())
    }

    private func label(_ item: String) -> String { s.labels[s.drill.items.firstIndex(of: item) ?? 0] }

    /// "12/30 harmonic  1:m2 2:M2 ... =:P8": the trial, how it was played and the keys, one line
    /// of at most 80 columns (at most 75 for the longest, twelve intervals).
    func trialLine(_ plan: EarTrialPlan) -> String {
        let pairs = zip(s.drill.keys, s.labels).map { "\($0):\($1)" }.joined(separator: " ")
        let context =
            switch plan.drill {
            case .intervals: plan.variant
            case .chords: ""
            case .degrees: "key \(plan.variant)"
            }
        return "\(plan.number)/\(s.trials)" + (context.isEmpty ? "" : " \(context)") + "  \(pairs)"
    }

    private func feedback(_ plan: EarTrialPlan, _ named: String) -> String {
        named == plan.item ? "  right: \(label(plan.item))" : "  wrong: it was \(label(plan.item)), not \(label(named))"
    }

    private func jsonTrial(_ p: EarTrialPlan) -> String {
        let phrases = p.phrases.map { "[" + $0.map { String(cFormat: "%.6f", $0) }.joined(separator: ",") + "]" }
        let choices = s.labels.map { "\"\($0)\"" }.joined(separator: ",")
        return "{\"trial\":\(p.number),\"drill\":\"\(p.drill.rawValue)\",\"variant\":\"\(p.variant)\","
            + "\"together\":\(p.together),\"phrases_hz\":[\(phrases.joined(separator: ","))],\"choices\":[\(choices)]}"
    }

    /// .answer(item): the item named; a key, an item's name or its label (with --json).
    private func answer(_ plan: EarTrialPlan, _ keys: AnswerKeys?) throws -> AnswerKeys.Outcome<String> {
        let items = s.drill.items
        if let keys {
            let table = Dictionary(uniqueKeysWithValues: zip(s.drill.keys, items))
            return try keys.next { event -> String? in
                if case .char(let c) = event { return table[c] }
                return nil
            }
        }
        let expected = "one of " + s.labels.joined(separator: ", ") + " or quit"
        guard let line = try InputLine.answer(trial: plan.number, expected: expected) else { return .quit }
        if line == "quit" || line == "q" { return .quit }
        if let i = s.labels.firstIndex(of: line) ?? items.firstIndex(of: line) { return .answer(items[i]) }
        throw BoopExit(
            .dataError,
            "stdin, trial \(plan.number): expected \(expected), got \"\(OneLine.escape(String(line.prefix(40))))\"")
    }

    /// Per item: asked, right.
    private func tally() -> [(item: String, asked: Int, right: Int)] {
        s.drill.items.map { item in
            let asked = answered.filter { $0.item == item }
            return (item, asked.count, asked.filter { $0.answer == item }.count)
        }
    }

    private func summaryText() -> String {
        guard !answered.isEmpty else { return "No answers: nothing stored." }
        let right = answered.filter { $0.item == $0.answer }.count
        var text = String(
            cFormat: "%d of %d right (%.0f %%).", right, answered.count, 100 * Double(right) / Double(answered.count))
        let missed = tally().filter { $0.right < $0.asked }.sorted { $0.asked - $0.right > $1.asked - $1.right }
        if !missed.isEmpty {
            text +=
                " Missed: "
                + missed.prefix(4).map { "\(label($0.item)) \($0.asked - $0.right)/\($0.asked)" }
                .joined(separator: ", ") + "."
        }
        return text
    }

    private func summaryJSON() -> String {
        let right = answered.filter { $0.item == $0.answer }.count
        let items = tally().filter { $0.asked > 0 }.map { "\"\(label($0.item))\":{\"asked\":\($0.asked),\"right\":\($0.right)}" }
        let accuracy = answered.isEmpty ? "null" : String(cFormat: "%.4f", Double(right) / Double(answered.count))
        return
            "{\"trials\":\(answered.count),\"right\":\(right),\"accuracy\":\(accuracy),\"items\":{\(items.joined(separator: ","))}}"
    }

    func say(_ line: String) {
        let line = s.json ? line : TextWrap.wrap(line)
        if let failure = StandardOutput.send(line + "\n") { StandardOutput.exit(for: failure, also: "") }
    }
}

/// Where an identification or interval trial's notes go: a live player, or a WAV file (1 s after a trial).
final class EarSound {
    private var player: SineWaveNotePlayer?
    private var writer: AudioFileWriter?
    private let rate: Double
    private let duration: Double

    init(duration: Double, output: String?, deviceOptions: DeviceOptions) throws {
        self.duration = duration
        if let output { try checkOutput(output) }
        (writer, player, rate) = try openTrialSound(output: output, deviceOptions: deviceOptions)
    }

    /// Notes played together start 1 ms apart (a sequence's onsets must advance); phrases are
    /// 0.2 s apart.
    func play(_ plan: EarTrialPlan, loop: CommandLoop) throws {
        try play(plan.phrases, gap: plan.together ? 0.001 - duration : 0.05, rest: 0.2, loop: loop)
    }

    /// Both intervals of an interval-discrimination trial as one sequence (0.5 s rest between
    /// them), scheduled by the engine as a whole; a stop signal ends it at once.
    func play(_ plan: IntervalTrialPlan, loop: CommandLoop) throws {
        try play([[plan.first.0, plan.first.1], [plan.second.0, plan.second.1]], gap: 0.05, rest: 0.5, loop: loop)
    }

    /// Phrases `rest` seconds apart, their notes `gap` apart, 1 s after the trial in a file.
    func play(_ phrases: [[Double]], gap: Double, rest: Double, loop: CommandLoop) throws {
        let sequence = try ToneSequence(phrases: phrases, duration: duration, gap: gap, rest: rest, sampleRate: rate)
        try soundTrial(sequence, writer: writer, player: player, tail: 1.0, loop: loop)
    }

    func finish(keep: Bool) throws {
        defer { player?.close(drain: true) }
        guard let writer else { return }
        if !keep {
            writer.abort()
            return
        }
        do {
            try writer.commit()
        } catch {
            writer.abort()
            throw BoopExit(error)
        }
    }
}

/// Where a trainer's tones go (`train`, and `EarSound`): with -o a WAV file (mono 32-bit float, at
/// -r or 44100 Hz), else the device; the rate the tones are made at is the device's as negotiated.
func openTrialSound(output: String?, deviceOptions: DeviceOptions) throws -> (
    writer: AudioFileWriter?, player: SineWaveNotePlayer?, rate: Double
) {
    let rate = deviceOptions.sampleRate(default: 44100)
    if let output {
        return (try AudioFileWriter(path: output, sampleRate: rate, channels: 1, format: .f32, durability: .sync), nil, rate)
    }
    let player = try SineWaveNotePlayer.live(route: deviceOptions.route, sampleRate: rate)
    return (nil, player, player.sampleRate)
}
