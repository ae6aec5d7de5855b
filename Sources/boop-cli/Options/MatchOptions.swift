import ArgumentParser
import Glibc
import PixelBoopCore

/// The options of a singing exercise scored by pitch matching (`train match`, `train
/// sing-interval`): where the references come from, how a note is judged, live or a recording.
struct MatchOptions: ParsableArguments {
    @Option(name: .long, help: "Trials (1...500; default: one per --references note, one per note of --input, else 10).")
    var trials: Int?

    @Option(name: .long, help: "The reference notes in order, e.g. C4,E4,A3 (otherwise drawn at random from the range).")
    var references: String?

    @Option(
        name: .long, help: "Draw references from this voice's range: \(VoiceRange.ranges.keys.sorted().joined(separator: ", ")).")
    var voice: String?

    @Option(name: .long, help: "Draw references from LOW..HIGH, e.g. A2..E4 (default C4..C5).")
    var range: String?

    @Option(name: .long, help: "Score intervals in equal temperament (equal) or just intonation (just).")
    var tuning: String = "equal"

    @Option(name: .long, help: "A recording of the sung notes (WAV or FLAC), instead of a capture device.")
    var input: String?

    @Option(name: .long, help: "Seed for the references drawn at random.")
    var seed: UInt64?

    @Option(
        name: .long,
        help:
            "Cents from the target (in its nearest octave) beyond which a note is a wrong note, left out of bias and spread (1...600)."
    )
    var tolerance: Double = MatchJudgement.defaultTolerance

    @Option(name: .long, help: "A4 in Hz (400...480).")
    var reference: Double = 440

    @Flag(name: .long, help: "Machine mode: one JSON object per line on stdout.")
    var json = false

    @Option(
        name: [.customShort("C"), .customLong("capture-device")],
        help: "ALSA PCM to hear the singer on (separate from -D, where the references play).")
    var captureDevice: String = "default"

    @Flag(name: .long, help: "Hold the reference softly (20 dB down) while listening.")
    var drone = false

    @Option(name: .long, help: "Seconds to wait for each note before calling it unvoiced (0.5...60).")
    var listenSeconds: Double = 8

    @Option(
        name: .long,
        help: "Play the references with this engine timbre instead of a pure sine: \(Timbre.names.joined(separator: ", ")).")
    var timbre: String = Timbre.tone.name

    @OptionGroup var history: HistoryOption

    @OptionGroup var deviceOptions: DeviceOptions

    @OptionGroup var tuningOptions: TuningOptions

    func validate() throws {
        try validateRange(trials, 1...500, option: "--trials")
        try validateRange(reference, 400...480, option: "--reference", unit: "Hz")
        try validateRange(tolerance, 1...600, option: "--tolerance", unit: "cents")
        if [references != nil, voice != nil, range != nil].filter({ $0 }).count > 1 {
            throw ValidationError("--references, --voice and --range: expected at most one of them")
        }
        if SungInterval.Tuning(rawValue: tuning) == nil {
            throw ValidationError("--tuning \(OneLine.escape(tuning)): expected equal or just")
        }
        if Timbre(name: timbre) == nil {
            throw ValidationError(
                "--timbre \(OneLine.escape(timbre)): expected one of \(Timbre.names.joined(separator: ", "))")
        }
        try validateRange(listenSeconds, 0.5...60, option: "--listen-seconds")
        try tuningOptions.check(reference: reference)
    }

}
