import Foundation

/// An interval to sing above or below the reference, and its ratio in a tuning.
public struct SungInterval: Sendable, Equatable {
    public enum Tuning: String, Sendable { case equal, just }

    public let name: String
    public let semitones: Int
    /// +1 above the reference, −1 below.
    public let direction: Int

    static let table: [(String, Int, Double)] = [
        ("P1", 0, 1), ("m2", 1, 16.0 / 15), ("M2", 2, 9.0 / 8), ("m3", 3, 6.0 / 5), ("M3", 4, 5.0 / 4),
        ("P4", 5, 4.0 / 3), ("TT", 6, 45.0 / 32), ("P5", 7, 3.0 / 2), ("m6", 8, 8.0 / 5), ("M6", 9, 5.0 / 3),
        ("m7", 10, 9.0 / 5), ("M7", 11, 15.0 / 8), ("P8", 12, 2)
    ]
    public static let names = table.map(\.0)

    /// "M3" (up), "M3up" or "M3down".
    public init?(_ text: String) {
        var body = text
        var direction = 1
        if body.hasSuffix("down") {
            direction = -1
            body.removeLast(4)
        } else if body.hasSuffix("up") {
            body.removeLast(2)
        }
        guard let entry = Self.table.first(where: { $0.0 == body }) else { return nil }
        name = entry.0
        semitones = entry.1
        self.direction = direction
    }

    /// The target frequency for a reference.
    public func target(from reference: Double, tuning: Tuning) -> Double {
        let ratio =
            tuning == .just
            ? Self.table.first { $0.0 == name }!.2 : pow(2, Double(semitones) / 12)
        return direction > 0 ? reference * ratio : reference / ratio
    }
}

/// One scored attempt: the error in cents in the nearest octave, and which octave that was.
public struct MatchScore: Sendable, Equatable {
    public let cents: Double
    /// Octaves from the target: 0 the same, −1 an octave below, +1 above.
    public let octave: Int

    public init(sung: Double, target: Double) {
        let d = 1200 * log2(sung / target)
        octave = Int((d / 1200).rounded())
        cents = d - 1200 * Double(octave)
    }
}

/// A session's bias (mean error) and spread (SD) with 68 % intervals: Student's t for the mean,
/// the chi-square interval for the SD (quantiles by the Wilson-Hilferty approximation).
public struct MatchSummary: Sendable, Equatable {
    public let trials: Int
    public let bias: Double
    public let biasLow: Double
    public let biasHigh: Double
    public let spread: Double
    public let spreadLow: Double
    public let spreadHigh: Double

    /// The normal quantile of 0.84 (a 68 % two-sided interval).
    static let z = 0.994_457_9

    public init?(errors: [Double]) {
        let n = errors.count
        guard n >= 1 else { return nil }
        trials = n
        let mean = errors.reduce(0, +) / Double(n)
        bias = mean
        guard n >= 2 else {
            (biasLow, biasHigh, spread, spreadLow, spreadHigh) = (-.infinity, .infinity, 0, 0, .infinity)
            return
        }
        let nu = Double(n - 1)
        let sd = (errors.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / nu).squareRoot()
        spread = sd
        // t quantile by the Cornish-Fisher expansion around z.
        let z = Self.z
        let t = z + (z * z * z + z) / (4 * nu) + (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * nu * nu)
        let half = t * sd / Double(n).squareRoot()
        biasLow = mean - half
        biasHigh = mean + half
        func chi2(_ zq: Double) -> Double {
            let a = 2 / (9 * nu)
            return nu * pow(1 - a + zq * a.squareRoot(), 3)
        }
        spreadLow = sd * (nu / chi2(z)).squareRoot()
        spreadHigh = sd * (nu / max(chi2(-z), 1e-9)).squareRoot()
    }
}

/// Singing ranges (MIDI, inclusive) for `--voice`.
public enum VoiceRange {
    public static let ranges: [String: ClosedRange<Int>] = [
        "bass": 40...64, "baritone": 43...67, "tenor": 48...72, "alto": 53...77, "soprano": 60...84
    ]
}
