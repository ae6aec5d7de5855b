import Glibc

/// How a sung note is judged against the note asked for, as a musician would: a note more than
/// the tolerance from the target (in its nearest octave) is another note, a wrong note, not a
/// large error; a note in another octave is the right note sung there, counted and shown.
public enum MatchJudgement: Sendable, Equatable {
    case right
    /// The right note `octave` octaves away (−1 below, +1 above), within the tolerance.
    case octave(Int)
    /// Another note: more than the tolerance from the target in its nearest octave.
    case wrong

    /// The default tolerance (cents): a quarter tone, half way to the next semitone.
    public static let defaultTolerance = 50.0

    public init(_ score: MatchScore, tolerance: Double = MatchJudgement.defaultTolerance) {
        if abs(score.cents) > tolerance {
            self = .wrong
        } else {
            self = score.octave == 0 ? .right : .octave(score.octave)
        }
    }

    /// Whether the note counts in the bias and the spread (wrong notes do not: a semitone slip
    /// would otherwise read as a 100-cent intonation error).
    public var isScored: Bool { self != .wrong }
}

/// Sung notes lined up with the notes asked for, in order, when a recording has a note more or a
/// note fewer than there are references: a sequence alignment on pitch (dynamic programming,
/// each sung note matched to a reference at the cost of its error in the nearest octave, a
/// reference left unsung or a sung note left over at a fixed gap cost), so one missing or extra
/// note does not shift every note after it onto the wrong reference.
public enum NoteAlignment {
    /// The cost of a reference without a note, or a note without a reference (cents): more than
    /// half the largest error in the nearest octave (600), so two gaps never beat one match when
    /// the counts agree.
    public static let gapCost = 350.0

    public struct Result: Sendable, Equatable {
        /// For each reference, the index of the sung note aligned with it (nil: none).
        public let sungFor: [Int?]
        /// The sung notes aligned with no reference, in order.
        public let extra: [Int]
    }

    /// `sung`: each note's pitch (Hz; nil when no steady pitch was heard, which matches any
    /// reference at the gap cost); `targets`: the pitch asked for at each reference (Hz).
    public static func align(sung: [Double?], targets: [Double]) -> Result {
        let n = sung.count
        let m = targets.count
        func cost(_ i: Int, _ j: Int) -> Double {
            guard let hz = sung[i], hz > 0, targets[j] > 0 else { return gapCost }
            return abs(MatchScore(sung: hz, target: targets[j]).cents)
        }
        // best[i][j]: the least cost of aligning the first i notes with the first j references.
        var best = [[Double]](repeating: [Double](repeating: 0, count: m + 1), count: n + 1)
        for i in 0...n {
            for j in 0...m where i > 0 || j > 0 {
                var b = Double.infinity
                if i > 0 && j > 0 { b = best[i - 1][j - 1] + cost(i - 1, j - 1) }
                if i > 0 { b = min(b, best[i - 1][j] + gapCost) }
                if j > 0 { b = min(b, best[i][j - 1] + gapCost) }
                best[i][j] = b
            }
        }
        // Back from the end, a match first on a tie (so equal counts pair note k with reference k).
        var sungFor = [Int?](repeating: nil, count: m)
        var extra: [Int] = []
        var (i, j) = (n, m)
        while i > 0 || j > 0 {
            if i > 0 && j > 0 && best[i][j] == best[i - 1][j - 1] + cost(i - 1, j - 1) {
                sungFor[j - 1] = i - 1
                (i, j) = (i - 1, j - 1)
            } else if i > 0 && best[i][j] == best[i - 1][j] + gapCost {
                extra.append(i - 1)
                i -= 1
            } else {
                j -= 1
            }
        }
        return Result(sungFor: sungFor, extra: extra.reversed())
    }
}
