import Glibc

/// A session's settings (stored with it as JSON).
public struct TrainingSettings: Sendable, Equatable, Codable {
    /// The reference notes, MIDI numbers, inclusive (default C4 ... C6); one per trial at random.
    public var lowNote: Int = 60
    public var highNote: Int = 84
    public var trials: Int = 40
    public var duration: Double = 1.0
    public var gap: Double = 0.4
    /// A4 in Hz.
    public var reference: Double = 440
    public var seed: UInt64 = 0
    /// The largest difference played (cents, `--max-cents`).
    public var maxCents: Double = PsiMethod.centsRange.upperBound
    /// A Scala tuning's pitch for each key (`--scl/--kbm`), in place of equal temperament on
    /// `reference`; its files are stored by name (`scl`, `kbm`), the pitches are not.
    public var keyHz: [Double]?
    public var scl: String?
    public var kbm: String?

    public init() {}

    private enum CodingKeys: String, CodingKey {
        case lowNote, highNote, trials, duration, gap, reference, seed, maxCents, scl, kbm
    }

    /// The reference pitch of a key.
    public func hz(_ note: Int) -> Double {
        if let keyHz, keyHz.indices.contains(note), keyHz[note] > 0 { return keyHz[note] }
        return Pitch.frequency(midi: Double(note), reference: reference)
    }

    /// The settings as a session stores them: a JSON object, keys in the order above (as
    /// JSONEncoder wrote them before, so older and newer sessions read alike).
    public var json: String {
        let fields: [(String, Any)] =
            [
                ("lowNote", lowNote), ("highNote", highNote), ("trials", trials), ("duration", duration), ("gap", gap),
                ("reference", reference), ("seed", seed), ("maxCents", maxCents)
            ] + [("scl", scl), ("kbm", kbm)].compactMap { name, path in path.map { (name, $0) } }
        return "{" + fields.map { "\"\($0.0)\":" + (JSONText.encode($0.1) ?? "null") }.joined(separator: ",") + "}"
    }
}

/// One trial: two tones `cents` apart around a reference note, the higher one first or second.
public struct TrainingTrialPlan: Sendable, Equatable {
    public let number: Int
    public let referenceHz: Double
    public let cents: Double
    /// 1 or 2: the interval holding the higher tone.
    public let higherInterval: Int

    public var lowHz: Double { referenceHz * pow(2, -cents / 2400) }
    public var highHz: Double { referenceHz * pow(2, cents / 2400) }
    public var firstHz: Double { higherInterval == 1 ? highHz : lowHz }
    public var secondHz: Double { higherInterval == 2 ? highHz : lowHz }

    /// Whether "the second was higher" (true) or "lower" (false) is right.
    public func isCorrect(secondHigher: Bool) -> Bool { secondHigher == (higherInterval == 2) }
}

/// The trial loop both discrimination exercises share: the psi-marginal procedure picks each
/// difference, `draw` turns it into a trial (with the session's generator, so a seed gives the
/// same trials), the same trial is offered until it is answered.
public struct PsiSession<Plan: Sendable>: Sendable {
    public private(set) var psi: PsiMethod
    public private(set) var answered = 0
    private var rng: SeededGenerator
    private var current: Plan?

    public init(seed: UInt64, maxCents: Double = PsiMethod.centsRange.upperBound) {
        rng = SeededGenerator(seed: seed)
        psi = PsiMethod(maxCents: maxCents)
    }

    /// The next trial (the same one again until it is answered): `draw(number, cents, &rng)`.
    public mutating func nextTrial(_ draw: (Int, Double, inout SeededGenerator) -> Plan) -> Plan {
        if let current { return current }
        let plan = draw(answered + 1, psi.nextCents(), &rng)
        current = plan
        return plan
    }

    /// Takes the answer to the current trial, given at `cents`; returns `correct`.
    @discardableResult
    public mutating func answer(cents: Double, correct: Bool) -> Bool {
        psi.update(cents: cents, correct: correct)
        answered += 1
        current = nil
        return correct
    }

    /// The 75 %-correct threshold in cents and its 68 % credible interval (nil before any answer).
    public var estimate: (threshold: Double, low: Double, high: Double)? { answered > 0 ? psi.estimate : nil }
}

/// A training session's logic: draws each trial (reference note and order at random, the
/// difference from the psi-marginal procedure) and takes the answers. No audio, no terminal,
/// no storage: the command does those.
public struct TrainingRun: Sendable, PsiRun {
    public let settings: TrainingSettings
    public private(set) var session: PsiSession<TrainingTrialPlan>

    public init(settings: TrainingSettings) {
        self.settings = settings
        session = PsiSession(seed: settings.seed, maxCents: settings.maxCents)
    }

    /// The next trial (the same one again until it is answered).
    public mutating func nextTrial() -> TrainingTrialPlan {
        let settings = settings
        return session.nextTrial { number, cents, rng in
            let note = Int.random(in: settings.lowNote...settings.highNote, using: &rng)
            return TrainingTrialPlan(
                number: number, referenceHz: settings.hz(note),
                cents: cents, higherInterval: Bool.random(using: &rng) ? 2 : 1)
        }
    }

    /// Takes the answer to the current trial; returns whether it was right.
    @discardableResult
    public mutating func answer(secondHigher: Bool) -> Bool {
        let plan = nextTrial()
        return session.answer(cents: plan.cents, correct: plan.isCorrect(secondHigher: secondHigher))
    }
}

/// A discrimination exercise run on one `PsiSession` (pitch or interval width): its procedure,
/// its count of answers, its estimate and its verdict are the session's.
public protocol PsiRun {
    associatedtype Plan: Sendable
    var session: PsiSession<Plan> { get }
}

extension PsiRun {
    public var psi: PsiMethod { session.psi }
    public var answered: Int { session.answered }

    /// The 75 %-correct threshold in cents and its 68 % credible interval (nil before any answer).
    public var estimate: (threshold: Double, low: Double, high: Double)? { session.estimate }

    /// The verdict: a threshold, beyond the range, or at chance (nil before any answer).
    public var result: PsiResult? { session.result }
}
