import ArgumentParser
import PixelBoopCore

/// `--gain DB`, shared by every command that makes sound: a plain gain before the output limiter
/// (which holds true peaks at -1 dBTP whatever the gain).
struct GainOption: ParsableArguments {
    @Option(
        name: .long, parsing: .unconditional,
        help: "Gain in dB before the output limiter (\(Limits.text(Limits.gainDB)), default 0; e.g. --gain -6).")
    var gain: Double = 0

    mutating func validate() throws {
        let range = OutputStage.gainRange
        guard gain.isFinite, range.contains(gain) else {
            throw ValidationError("--gain \(gain): expected \(Limits.text(range)) dB")
        }
    }

    /// The -v line.
    var description: String {
        String(cFormat: "gain %+.1f dB, then the true-peak limiter (ceiling %.0f dBTP)", gain, OutputStage.ceilingDBTP)
    }
}
