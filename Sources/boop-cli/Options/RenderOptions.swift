import ArgumentParser
import PixelBoopCore

/// Options shared by the commands that play or render a pattern.
struct PatternOptions: ParsableArguments {
    @Argument(help: "The pattern file (JSON).")
    var pattern: String

    @Option(name: .long, help: "Play the pattern this many times (\(Limits.text(Limits.loops))).")
    var loops: Int?

    @Option(name: .long, help: "Override the pattern's tempo (\(Limits.text(Limits.tempoBPM))).")
    var bpm: Double?

    @Option(name: .long, help: "Polyphony of the voice pool (\(Limits.text(Limits.voices)), default \(Limits.defaultVoices)).")
    var voices: Int = Limits.defaultVoices

    mutating func validate() throws {
        if let loops, !Limits.loops.contains(loops) {
            throw ValidationError("--loops \(loops): expected \(Limits.text(Limits.loops))")
        }
        if let bpm, !(bpm.isFinite && Pattern.bpmRange.contains(bpm)) {
            throw ValidationError("--bpm \(bpm): expected a tempo \(Limits.text(Limits.tempoBPM))")
        }
        try validateVoices(voices)
    }

    /// Loads the pattern (exit 66 missing, 65 invalid) and applies --bpm.
    func loadPattern() throws -> Pattern {
        do {
            var pattern = try Pattern.load(path: self.pattern)
            if let bpm { pattern.bpm = bpm }
            return pattern
        } catch {
            throw BoopExit(error.kind == .missingFile ? .noInput : .dataError, error.message)
        }
    }
}

/// Validates a sample rate option shared by every sound-making command (one range, one message).
func validateRate(_ rate: Int?, option: String = "-r/--rate") throws {
    if let rate, !DeviceOptions.rateRange.contains(rate) { throw ValidationError(rateProblem(rate, option: option)) }
}

/// The one message for a sample rate out of range.
func rateProblem(_ rate: Int, option: String = "-r/--rate") -> String {
    "\(option) \(rate): expected a sample rate \(Limits.text(Limits.sampleRate)) Hz"
}

/// `--voices`, wherever a command takes it.
func validateVoices(_ voices: Int) throws {
    if !Limits.voices.contains(voices) {
        throw ValidationError("--voices \(voices): expected \(Limits.text(Limits.voices))")
    }
}

/// `--period-frames` and `--periods` of the commands that play live (the engine's device limits).
func validatePeriods(periodFrames: Int?, periods: Int?) throws {
    if let periodFrames, !Limits.periodFrames.contains(periodFrames) {
        throw ValidationError("--period-frames \(periodFrames): expected \(Limits.text(Limits.periodFrames))")
    }
    if let periods, !Limits.periods.contains(periods) {
        throw ValidationError("--periods \(periods): expected \(Limits.text(Limits.periods))")
    }
}
