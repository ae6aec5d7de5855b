import ArgumentParser
import PixelBoopCore

/// Options shared by the commands that play or render a pattern.
struct PatternOptions: ParsableArguments {
    @Argument(help: "The pattern file (JSON).")
    var pattern: String

    @Option(name: .long, help: "Play the pattern this many times (1...10000).")
    var loops: Int?

    @Option(name: .long, help: "Override the pattern's tempo (60...200).")
    var bpm: Double?

    @Option(name: .long, help: "Polyphony of the voice pool (\(EngineConfiguration.voicesRange)).")
    var voices: Int = 8

    mutating func validate() throws {
        if let loops, !(1...10000).contains(loops) {
            throw ValidationError("--loops \(loops): expected 1...10000")
        }
        if let bpm, !(bpm.isFinite && Pattern.bpmRange.contains(bpm)) {
            throw ValidationError("--bpm \(bpm): expected a tempo 60...200")
        }
        if !EngineConfiguration.voicesRange.contains(voices) {
            throw ValidationError("--voices \(voices): expected \(EngineConfiguration.voicesRange)")
        }
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
    if let rate, !DeviceOptions.rateRange.contains(rate) {
        throw ValidationError("\(option) \(rate): expected a sample rate 8000...384000 Hz")
    }
}
