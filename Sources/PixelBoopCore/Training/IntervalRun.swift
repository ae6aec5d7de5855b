import Glibc

/// One interval-discrimination trial: two melodic intervals (each a lower then an upper note),
/// one wider than the other by `cents`; the second interval starts on a roved note, so the
/// upper notes alone do not tell which is wider.
public struct IntervalTrialPlan: Sendable, Equatable {
    public let number: Int
    public let first: (Double, Double)
    public let second: (Double, Double)
    public let cents: Double
    /// 1 or 2: the wider interval.
    public let widerInterval: Int

    public static func == (a: Self, b: Self) -> Bool {
        a.number == b.number && a.first == b.first && a.second == b.second && a.cents == b.cents
            && a.widerInterval == b.widerInterval
    }

    public func isCorrect(secondWider: Bool) -> Bool { secondWider == (widerInterval == 2) }
}

/// An interval-discrimination session: the psi-marginal procedure on the difference in width.
public struct IntervalRun: Sendable, PsiRun {
    public let semitones: Int
    public let notes: ClosedRange<Int>
    public let reference: Double
    public private(set) var session: PsiSession<IntervalTrialPlan>

    /// The second interval's lower note is roved by up to this many cents from the first's.
    public static let roveCents = 300.0

    /// The default largest difference in width (cents).
    public static let defaultMaxCents = PsiMethod.centsRange.upperBound

    /// The widest difference an interval of `semitones` may be asked to play: its own width (the
    /// narrower of the two intervals then keeps at least half of it, so it stays that interval
    /// played out of tune rather than becoming a smaller one), and no more than 400 cents.
    public static func widestCents(semitones: Int) -> Double {
        min(Limits.trainIntervalCents.upperBound, 100 * Double(max(1, semitones)))
    }

    public init(
        semitones: Int, notes: ClosedRange<Int>, reference: Double = 440, seed: UInt64,
        maxCents: Double = IntervalRun.defaultMaxCents
    ) {
        self.semitones = semitones
        self.notes = notes
        self.reference = reference
        session = PsiSession(seed: seed, maxCents: maxCents)
    }

    public mutating func nextTrial() -> IntervalTrialPlan {
        let (notes, reference, width) = (notes, reference, 100 * Double(semitones))
        return session.nextTrial { number, cents, rng in
            let wider = Bool.random(using: &rng) ? 2 : 1
            let base = Pitch.frequency(midi: Double(Int.random(in: notes, using: &rng)), reference: reference)
            let roved = base * pow(2, Double.random(in: -Self.roveCents...Self.roveCents, using: &rng) / 1200)
            func interval(_ low: Double, wide: Bool) -> (Double, Double) {
                (low, low * pow(2, (width + (wide ? cents / 2 : -cents / 2)) / 1200))
            }
            return IntervalTrialPlan(
                number: number, first: interval(base, wide: wider == 1), second: interval(roved, wide: wider == 2),
                cents: cents, widerInterval: wider)
        }
    }

    @discardableResult
    public mutating func answer(secondWider: Bool) -> Bool {
        let plan = nextTrial()
        return session.answer(cents: plan.cents, correct: plan.isCorrect(secondWider: secondWider))
    }
}
