import ArgumentParser
import Glibc
import PixelBoopCore

struct TrainSingIntervalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sing-interval",
        abstract: "Sing intervals: each trial names an interval above or below a reference note; sing it.",
        discussion: """
            Each trial plays a reference note and asks for one interval of --intervals (default \
            m3,M3,P4,P5) above or below it (--direction up, down or both). The note sung is scored as \
            `train match --interval` scores it: the error in cents from the interval's pitch (equal \
            temperament, or --tuning just), in its nearest octave; more than --tolerance cents off is \
            a wrong note. The interval and direction of each trial are chosen from the history by \
            spaced repetition, as `train identify` chooses its items: a miss (a wrong note, or the \
            right note in another octave) brings that interval back soonest, one sung right several \
            times running is asked less. Live, the references play on -D and the notes are heard on \
            -C; --input FILE takes the notes from a recording instead, one note per trial in order \
            (a count that differs is said on stderr). Attempts are stored as matching attempts, with \
            their interval; `train stats --profile` shows the share right per interval and direction. \
            --json prints what `train match --json` prints, the listening line naming the trial's \
            "interval" ("M3up", "P5down") and "target_hz".
            """)

    @Option(name: .long, help: "The intervals to sing, a list of \(SungInterval.names.dropFirst().joined(separator: ", ")).")
    var intervals: String = "m3,M3,P4,P5"

    @Option(name: .long, help: "Sing each interval above the reference (up), below it (down), or either (both).")
    var direction: String = "both"

    @OptionGroup var options: MatchOptions

    mutating func validate() throws {
        if SungIntervalDrill.intervals(intervals, direction: "up") == nil {
            throw ValidationError(
                "--intervals \(OneLine.escape(intervals)): expected a list of different intervals among \(SungInterval.names.dropFirst().joined(separator: ", "))"
            )
        }
        if SungIntervalDrill.intervals(intervals, direction: direction) == nil {
            throw ValidationError("--direction \(OneLine.escape(direction)): expected up, down or both")
        }
    }

    func run() throws {
        runReportingErrors {
            var match = try TrainMatchCommand.parse([])
            match.options = options
            let pitch = try ReferencePitch(options.tuningOptions, a4: options.reference)
            let list = SungIntervalDrill.intervals(intervals, direction: direction) ?? []
            // What is refused (a target out of reach, a recording that cannot be read) is refused
            // before the history is touched.
            try match.checkMeasurable(pitch: pitch, intervals: list, span: SungIntervalDrill.span(list))
            Signals.install()
            let wav = try options.input.map(TrainMatchCommand.readWav)
            let store = try options.history.open(forWriting: true)
            // The voice a matching session named last, as `train match` draws from it.
            if let v = match.rememberedVoice(store) {
                match.voice = v
                if !options.json { match.say("Voice: \(v) (remembered; --voice or --range changes it)") }
            }
            let drill = try IntervalDrill(
                intervals: list, store: store, seed: options.seed ?? UInt64.random(in: 0...UInt64.max))
            let settings = match.settingsJSON(
                ["drill": "sing-interval", "intervals": intervals, "direction": direction].merging(pitch.settings) { a, _ in a })
            let recorder = MatchRecorder(store: store, settings: settings, live: wav == nil)
            guard let wav else {
                try match.runLive(recorder, pitch: pitch, drill: drill)
                return
            }
            try runRecording(wav, match: match, recorder: recorder, pitch: pitch, drill: drill)
        }
    }

    /// `--input`: the recording's steady notes answer the trials in order. (`train match` lines
    /// its notes up with the references by pitch; here each trial's interval is chosen after the
    /// note before it was scored, so the targets are not known in advance to line up with.)
    private func runRecording(
        _ wav: RecordingFile, match: TrainMatchCommand, recorder: MatchRecorder, pitch: ReferencePitch, drill: IntervalDrill
    ) throws {
        let tracker = try PitchTracker(sampleRate: wav.sampleRate)
        let notes = SungNotes.split(wav.samples, rate: wav.sampleRate).compactMap {
            SungNotes.stablePitch(Array(wav.samples[$0]), tracker: tracker)
        }
        let count = options.trials ?? max(1, notes.count)
        if notes.count != count {
            StandardError.line(
                "\(options.input ?? "--input"): \(TrainStatsCommand.count(notes.count, "note")) for "
                    + "\(TrainStatsCommand.count(count, "trial")), taken in order"
                    + (notes.count < count ? ": none for trials \(notes.count + 1)...\(count)" : ""))
        }
        try match.session(
            count: count, missing: Set(notes.count..<max(notes.count, count)), recorder: recorder, pitch: pitch, drill: drill
        ) { k, _, _, announce in
            announce()
            return k < notes.count ? notes[k] : nil
        }
    }
}

/// The sing-interval drill of a session: its scheduler (from the history) and its own draws.
final class IntervalDrill {
    private var drill: SungIntervalDrill
    private var rng: SeededGenerator

    init(intervals: [SungInterval], store: TrainingStore, seed: UInt64) throws {
        let (attempts, sessions) = try TrainIntervalCommand.storing { (try store.matchAttempts(), try store.sessions()) }
        drill = SungIntervalDrill(
            intervals: intervals, history: attempts, tolerance: TrainingProfile.tolerances(sessions))
        // Apart from the references' draws, which the same seed also drives.
        rng = SeededGenerator(seed: seed ^ 0x5349_4E47)
    }

    var span: (up: Int, down: Int) { drill.span }

    func next() -> SungInterval { drill.next(using: &rng) }

    func record(_ interval: SungInterval, _ judgement: MatchJudgement) {
        drill.record(interval, right: judgement == .right)
    }
}
