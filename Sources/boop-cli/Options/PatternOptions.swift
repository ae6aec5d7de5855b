import ArgumentParser
import PixelBoopCore

/// Options shared by the commands that play or render a pattern.
struct PatternOptions: ParsableArguments {
    @Argument(help: "The pattern or song file (JSON; version 2 is a song).")
    var pattern: String

    @Option(name: .long, help: "Play the pattern this many times (\(Limits.text(Limits.loops))).")
    var loops: Int?

    @Option(name: .long, help: "Override the pattern's tempo (\(Limits.text(Limits.tempoBPM))).")
    var bpm: Double?

    @Option(name: .long, help: "Polyphony of the voice pool (\(Limits.text(Limits.voices)), default \(Limits.defaultVoices)).")
    var voices: Int = Limits.defaultVoices

    @Option(name: .customLong("pattern"), help: "Song files (version 2): loop only the pattern of this name.")
    var onlyPattern: String?

    @Option(
        name: .long,
        help: "Song files (version 2): the seed that decides probabilities (0...4294967295; default: the file's seed).")
    var seed: Int?

    mutating func validate() throws {
        if let seed, !(0...Int(UInt32.max)).contains(seed) {
            throw ValidationError("--seed \(seed): expected 0...4294967295")
        }
        try validateRange(loops, Limits.loops, option: "--loops")
        if let bpm, !(bpm.isFinite && Song.bpmRange.contains(bpm)) {
            throw ValidationError("--bpm \(bpm): expected a tempo \(Limits.text(Limits.tempoBPM))")
        }
        try validateVoices(voices)
    }

    /// Loads a song or a version-1 pattern, which is read as a one-pattern song (exit 66
    /// missing, 65 invalid), and applies --bpm and --pattern.
    func loadPiece() throws -> Song {
        var song: Song
        do {
            song = try PieceFile.load(path: self.pattern)
        } catch {
            throw BoopExit(error.kind == .missingFile ? .noInput : .dataError, error.message)
        }
        if let name = onlyPattern {
            if song.version1 != nil {
                throw BoopExit(.usage, "--pattern: \(self.pattern) is a version-1 pattern file (expected a version-2 song)")
            }
            guard let one = song.looping(pattern: name) else {
                let names = song.patterns.map(\.name).joined(separator: ", ")
                throw BoopExit(.usage, "--pattern \(name): expected one of the song's patterns (\(names))")
            }
            song = one
        }
        if let bpm {
            song.bpm = bpm
            for i in song.chain.indices { song.chain[i].bpm = nil }
        }
        return song
    }

    /// The seed a song's probabilities are drawn with.
    var songSeed: UInt64? { seed.map { UInt64($0) } }
}

/// Validates a sample rate option shared by every sound-making command (one range, one message).
func validateRate(_ rate: Int?, option: String = "-r/--rate") throws {
    if let rate, !DeviceOptions.rateRange.contains(rate) { throw ValidationError(rateProblem(rate, option: option)) }
}

/// The one message for a sample rate out of range.
func rateProblem(_ rate: Int, option: String = "-r/--rate") -> String {
    "\(option) \(rate): expected a sample rate \(Limits.text(Limits.sampleRate)) Hz"
}

/// An option's value outside its range, one message for every such option: `OPTION VALUE:
/// expected LOW...HIGH`, and the unit when it has one (`--gap 9.0: expected 0.1...5 seconds`).
/// Nothing to check when the option was not given.
func validateRange(_ value: Int?, _ range: ClosedRange<Int>, option: String, unit: String? = nil) throws {
    if let value, !range.contains(value) { throw outOfRange(option, "\(value)", Limits.text(range), unit) }
}

/// The same for a value in a range of reals.
func validateRange(_ value: Double?, _ range: ClosedRange<Double>, option: String, unit: String? = nil) throws {
    if let value, !range.contains(value) { throw outOfRange(option, "\(value)", Limits.text(range), unit) }
}

private func outOfRange(_ option: String, _ value: String, _ range: String, _ unit: String?) -> ValidationError {
    ValidationError("\(option) \(value): expected \(range)" + (unit.map { " " + $0 } ?? ""))
}

/// `--voices`, wherever a command takes it.
func validateVoices(_ voices: Int) throws {
    try validateRange(voices, Limits.voices, option: "--voices")
}

/// `--period-frames` and `--periods` of the commands that play live (the engine's device limits).
func validatePeriods(periodFrames: Int?, periods: Int?) throws {
    try validateRange(periodFrames, Limits.periodFrames, option: "--period-frames")
    try validateRange(periods, Limits.periods, option: "--periods")
}
