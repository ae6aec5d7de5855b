import Glibc

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
/// the chi-square interval for the SD. The quantiles are exact (tabulated) up to 30 degrees of
/// freedom, where the closed-form approximations are several % off (Cornish-Fisher's t is 4 %
/// short at one degree, Wilson-Hilferty's chi-square 28 %); beyond, the approximations agree
/// with the exact values to 0.05 %.
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
        let half = Self.tQuantile(n - 1) * sd / Double(n).squareRoot()
        biasLow = mean - half
        biasHigh = mean + half
        let (chiLow, chiHigh) = Self.chiSquareQuantiles(n - 1)
        spreadLow = sd * (nu / chiHigh).squareRoot()
        spreadHigh = sd * (nu / max(chiLow, 1e-9)).squareRoot()
    }
}

extension MatchSummary {
    /// t(0.84; ν), χ²(0.16; ν) and χ²(0.84; ν) for ν = 1 ... 30 (scipy.stats).
    static let tTable = [
        1.818993, 1.311578, 1.188929, 1.134397, 1.103668, 1.083976, 1.070287, 1.060224, 1.052515, 1.046423, 1.041486,
        1.037405, 1.033976, 1.031053, 1.028533, 1.026337, 1.024407, 1.022698, 1.021172, 1.019804, 1.018568, 1.017447,
        1.016426, 1.015492, 1.014634, 1.013843, 1.013112, 1.012434, 1.011804, 1.011216
    ]
    static let chiLowTable = [
        0.040761, 0.348707, 0.839490, 1.424075, 2.065569, 2.745868, 3.454701, 4.185617, 4.934270, 5.697569, 6.473224,
        7.259486, 8.054981, 8.858609, 9.669472, 10.486824, 11.310042, 12.138595, 12.972026, 13.809943, 14.652001,
        15.497898, 16.347368, 17.200172, 18.056099, 18.914959, 19.776578, 20.640801, 21.507487, 22.376507
    ]
    static let chiHighTable = [
        1.974226, 3.665163, 5.166549, 6.577048, 7.932413, 9.249975, 10.539606, 11.807535, 13.057985, 14.293971,
        15.517732, 16.730985, 17.935081, 19.131103, 20.319937, 21.502320, 22.678869, 23.850110, 25.016494, 26.178412,
        27.336205, 28.490171, 29.640578, 30.787660, 31.931628, 33.072673, 34.210965, 35.346659, 36.479896, 37.610805
    ]

    /// Student's t quantile at 0.84 (Cornish-Fisher around z beyond the table).
    static func tQuantile(_ dof: Int) -> Double {
        if dof <= tTable.count { return tTable[dof - 1] }
        let nu = Double(dof)
        return z + (z * z * z + z) / (4 * nu) + (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * nu * nu)
    }

    /// The chi-square quantiles at 0.16 and 0.84 (Wilson-Hilferty beyond the table).
    static func chiSquareQuantiles(_ dof: Int) -> (low: Double, high: Double) {
        if dof <= chiLowTable.count { return (chiLowTable[dof - 1], chiHighTable[dof - 1]) }
        let nu = Double(dof)
        let a = 2 / (9 * nu)
        func chi2(_ zq: Double) -> Double { nu * pow(1 - a + zq * a.squareRoot(), 3) }
        return (chi2(-z), chi2(z))
    }
}

/// Singing ranges (MIDI, inclusive) for `--voice`.
public enum VoiceRange {
    public static let ranges: [String: ClosedRange<Int>] = [
        "bass": 40...64, "baritone": 43...67, "tenor": 48...72, "alto": 53...77, "soprano": 60...84
    ]
}
