import ArgumentParser
import Glibc
import PixelBoopCore

/// The options of an exercise that plays notes and takes answers trial by trial (`train`,
/// `train identify`, `degrees`, `interval`): how many trials, how long each note sounds, the seed, and
/// where the notes go. Each exercise names its own defaults for the first two.
struct EarSessionOptions: ParsableArguments {
    @Option(
        name: .long,
        help:
            "Trials in the session (\(Limits.text(Limits.trainTrials)); default 40 for `train` and `train interval`, 30 for identify and degrees)."
    )
    var trials: Int?

    @Option(
        name: .long,
        help:
            "Seconds per tone, note or chord (\(Limits.text(Limits.trainNoteSeconds)); default 1 for `train`, 0.5 interval, 0.7 identify, 0.6 degrees)."
    )
    var duration: Double?

    @Flag(name: .long, help: "Machine mode: a JSON object per trial on stdout, an answer line (its answers or quit) from stdin.")
    var json = false

    @Option(name: .long, help: "Seed for the items and notes (the same seed, history and answers give the same trials).")
    var seed: UInt64?

    @Option(
        name: .shortAndLong, help: "Write every trial's notes to this WAV file instead of a device (trials 1 s of silence apart)."
    )
    var output: String?

    @OptionGroup var history: HistoryOption

    @OptionGroup var deviceOptions: DeviceOptions

    func validate() throws {
        try validateRange(trials, Limits.trainTrials, option: "--trials")
        try validateRange(duration, Limits.trainNoteSeconds, option: "--duration", unit: "seconds")
    }

    func trials(default d: Int) -> Int { trials ?? d }
    func duration(default d: Double) -> Double { duration ?? d }
    /// The seed given, or one drawn now (stored with the session, so the session can be replayed).
    func seedOrDrawn() -> UInt64 { seed ?? UInt64.random(in: 0...UInt64.max) }
}

/// An exercise with the ear-session options: their values read as the exercise's own, with the
/// exercise's defaults for --trials and --duration, in one place rather than in each exercise.
protocol EarSessionCommand {
    var session: EarSessionOptions { get }
    /// --trials and --duration when they are not given.
    static var sessionDefaults: (trials: Int, duration: Double) { get }
}

extension EarSessionCommand {
    var trials: Int { session.trials(default: Self.sessionDefaults.trials) }
    var duration: Double { session.duration(default: Self.sessionDefaults.duration) }
    var json: Bool { session.json }
    var output: String? { session.output }
    var history: HistoryOption { session.history }
    var deviceOptions: DeviceOptions { session.deviceOptions }
}

/// The pitch of a key for a trainer's reference notes: equal temperament on --reference (A4),
/// or the key's pitch in a Scala tuning (`--scl/--kbm`).
struct ReferencePitch: Sendable {
    let tuning: ScalaTuning?
    let a4: Double

    init(_ options: TuningOptions, a4: Double = 440) throws {
        tuning = try options.load()
        self.a4 = a4
    }

    func hz(_ key: Int) -> Double {
        if let tuning, let hz = tuning.hz(key: key) { return hz }
        return a4 * pow(2, Double(key - 69) / 12)
    }

    /// Refuses (64) a tuning that leaves a key the exercise may play unmapped: a reference with
    /// no pitch cannot be heard.
    func check(keys: ClosedRange<Int>, option: String) throws {
        guard let tuning else { return }
        for key in keys where tuning.hz(key: key) == nil {
            throw BoopExit(
                .usage,
                "\(tuning.mappingPath ?? tuning.scalePath): key \(key) (\(NoteName(midi: key))) is unmapped, and \(option) plays it; expected every key the exercise plays mapped"
            )
        }
    }

    /// For the session's stored settings.
    var settings: [String: Any] {
        guard let tuning else { return [:] }
        var s: [String: Any] = ["scl": tuning.scalePath]
        if let m = tuning.mappingPath { s["kbm"] = m }
        return s
    }
}
