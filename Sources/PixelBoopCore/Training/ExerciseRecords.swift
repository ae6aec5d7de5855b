import Glibc

/// One pitch-matching attempt as stored: what was asked, what was sung (nil when no steady
/// voiced note was heard), and the register the target lies in.
public struct MatchAttempt: Sendable, Equatable {
    public var session: Int64
    public var trial: Int
    public var time: Timestamp
    public var referenceHz: Double
    /// The note to sing: the reference, or the interval from it.
    public var targetHz: Double
    /// "M3", "P5down"…; nil when the reference itself was asked for.
    public var interval: String?
    /// The target's octave (4: C4 ... B4), by `Register.octave`.
    public var register: Int
    public var sungHz: Double?
    /// The error in the nearest octave, and which octave that was (0 the target's).
    public var cents: Double?
    public var octave: Int?
    public var stableMilliseconds: Int?

    public init(
        session: Int64, trial: Int, time: Timestamp, referenceHz: Double, targetHz: Double, interval: String?,
        sungHz: Double?, cents: Double?, octave: Int?, stableMilliseconds: Int?
    ) {
        self.session = session
        self.trial = trial
        self.time = time
        self.referenceHz = referenceHz
        self.targetHz = targetHz
        self.interval = interval
        register = Register.octave(hz: targetHz)
        self.sungHz = sungHz
        self.cents = cents
        self.octave = octave
        self.stableMilliseconds = stableMilliseconds
    }
}

/// One interval-discrimination trial as stored, with its answer.
public struct IntervalTrialRecord: Sendable, Equatable {
    public var session: Int64
    public var trial: Int
    public var time: Timestamp
    /// "P5", "M3"…
    public var interval: String
    public var first: [Double]
    public var second: [Double]
    public var differenceCents: Double
    /// 1 or 2: the wider interval.
    public var widerInterval: Int
    /// "wider" or "narrower": what the listener said of the second interval.
    public var answer: String
    public var correct: Bool
    public var responseMilliseconds: Int

    public init(
        session: Int64, trial: Int, time: Timestamp, interval: String, plan: IntervalTrialPlan, secondWider: Bool,
        responseMilliseconds: Int
    ) {
        self.session = session
        self.trial = trial
        self.time = time
        self.interval = interval
        first = [plan.first.0, plan.first.1]
        second = [plan.second.0, plan.second.1]
        differenceCents = plan.cents
        widerInterval = plan.widerInterval
        answer = secondWider ? "wider" : "narrower"
        correct = plan.isCorrect(secondWider: secondWider)
        self.responseMilliseconds = responseMilliseconds
    }
}

/// Registers as octave bands: C4 ... B4 is register 4 (by the nearest note in A4 = 440 Hz).
public enum Register {
    public static func octave(hz: Double) -> Int {
        let midi = Int((69 + 12 * log2(hz / 440)).rounded())
        return Int((Double(midi) / 12).rounded(.down)) - 1
    }
}
