import Glibc

/// What a discrimination session can honestly say: a threshold with its 68 % interval when the
/// answers place it inside the range of differences played; "beyond the range" when they place it
/// above the largest difference (the session could not measure it); "at chance" when the answers
/// are no better than guessing. A threshold is never reported from answers that only say the
/// listener did not hear the differences played.
public struct PsiResult: Sendable, Equatable {
    public let trials: Int
    public let correct: Int
    /// The largest difference the session played (cents).
    public let maxCents: Double
    /// The posterior median and its 16th-84th percentiles (cents), whatever the verdict.
    public let threshold: Double
    public let low: Double
    public let high: Double
    /// More than half the posterior lies above `maxCents`.
    public let beyondRange: Bool
    /// The right answers are no more than guessing would give (one-sided binomial test against
    /// 50 %, p ≥ 0.05, in a session long enough for the test to tell: five trials or more) and
    /// the answers do not place the threshold inside the range (its 84th percentile is above
    /// `maxCents`).
    public let atChance: Bool

    /// The test's level: fewer right answers than guessing exceeds 5 % of the time is "at chance".
    public static let chanceLevel = 0.05

    public init(_ psi: PsiMethod) {
        let e = psi.estimate
        trials = psi.trials
        correct = psi.correct
        maxCents = psi.maxCents
        (threshold, low, high) = (e.threshold, e.low, e.high)
        beyondRange = e.threshold > psi.maxCents
        // Under five trials even all right answers pass no test against guessing: too few to
        // tell, so no chance verdict (the estimate says "uncertain: few trials" instead).
        let testable = Self.guessingTail(correct: psi.trials, trials: psi.trials) < Self.chanceLevel
        atChance =
            testable && e.high > psi.maxCents
            && Self.guessingTail(correct: psi.correct, trials: psi.trials) >= Self.chanceLevel
    }

    /// No threshold to report: beyond the range or at chance (JSON's `"above_range": true`).
    public var aboveRange: Bool { beyondRange || atChance }

    /// The measured threshold, or nil when there is none to report.
    public var measured: (threshold: Double, low: Double, high: Double)? {
        aboveRange ? nil : (threshold, low, high)
    }

    /// The range to ask for next (`--max-cents`): four times as wide, up to `limit`; nil when the
    /// session already played the widest.
    public func widerRange(limit: Double) -> Double? {
        maxCents >= limit ? nil : min(limit, maxCents * 4)
    }

    /// P(X ≥ correct) for X ~ Binomial(trials, 1/2): how often guessing alone does this well.
    public static func guessingTail(correct: Int, trials: Int) -> Double {
        guard trials > 0, correct > 0 else { return 1 }
        guard correct <= trials else { return 0 }
        let n = Double(trials)
        var total = 0.0
        for k in correct...trials {
            let x = Double(k)
            total += exp(lgamma(n + 1) - lgamma(x + 1) - lgamma(n - x + 1) - n * log(2.0))
        }
        return min(1, total)
    }
}

extension PsiSession {
    /// The session's verdict (nil before any answer).
    public var result: PsiResult? { answered > 0 ? PsiResult(psi) : nil }
}
