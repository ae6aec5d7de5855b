import Glibc

/// A threshold with its 68 % credible interval, from some number of trials.
public struct ThresholdEstimate: Sendable, Equatable {
    public let trials: Int
    public let threshold: Double
    public let low: Double
    public let high: Double

    /// The answers place the threshold beyond the largest difference played, or are at chance
    /// (`PsiResult.aboveRange`): `threshold` is then no measurement, and `maxCents` is the bound.
    public private(set) var aboveRange = false
    public private(set) var maxCents = PsiMethod.centsRange.upperBound

    public init(trials: Int, threshold: Double, low: Double, high: Double) {
        (self.trials, self.threshold, self.low, self.high) = (trials, threshold, low, high)
    }

    /// The posterior of the psi-marginal model given these answers, as one session would have
    /// it: the posterior depends on the answers only, not on the order the trials were chosen in.
    /// The model's range is the default's, or the largest difference answered when wider
    /// (sessions run with `--max-cents`).
    public init?(answers: [(cents: Double, correct: Bool)]) {
        guard !answers.isEmpty else { return nil }
        let widest = answers.map(\.cents).max() ?? 0
        var psi = PsiMethod(maxCents: max(PsiMethod.centsRange.upperBound, widest))
        for a in answers { psi.update(cents: a.cents, correct: a.correct) }
        let r = PsiResult(psi)
        self.init(trials: answers.count, threshold: r.threshold, low: r.low, high: r.high)
        aboveRange = r.aboveRange
        maxCents = r.maxCents
    }
}

/// One session's line of progress: when, how many trials, and its result.
public struct SessionProgress: Sendable {
    public let session: TrainingSession
    /// Trials answered (discrimination, interval) or notes sung and heard (match).
    public let trials: Int
    /// Discrimination and interval sessions.
    public let threshold: ThresholdEstimate?
    /// Matching sessions: bias and spread of the errors heard.
    public let match: MatchSummary?
    /// The interval of an interval session, or the one a matching session asked for ("mixed"
    /// when it asked for several).
    public let interval: String?
}

/// The history read as a singer's teacher would: each exercise's sessions over time, and the ear
/// and the voice per register (octave bands, C to B).
public struct TrainingProfile: Sendable {
    public let discrimination: [SessionProgress]
    public let match: [SessionProgress]
    public let interval: [SessionProgress]
    /// The discrimination threshold per register of the reference tones, over every session.
    public let thresholdByRegister: [(register: Int, estimate: ThresholdEstimate)]
    /// Matching bias and spread per register of the target notes, over every session.
    public let matchByRegister: [(register: Int, summary: MatchSummary)]
    /// The interval-discrimination threshold per interval and register of the first interval's
    /// lower note (`TrainingCSV.register`), over every session: narrow intervals first.
    public let intervalByRegister: [(interval: String, register: Int, estimate: ThresholdEstimate)]
    /// Matching sessions with attempts stored but no note heard: not listed (they have no
    /// result), yet in the history (`stats --csv` has their rows), so "no sessions" would be wrong.
    public let unheardSessions: Int

    /// Sessions with no trial (left before the first answer, or no note heard) are left out.
    public init(
        sessions: [TrainingSession], trials: [TrainingTrial], attempts: [MatchAttempt], intervals: [IntervalTrialRecord]
    ) {
        let byID = Dictionary(uniqueKeysWithValues: sessions.map { ($0.id, $0) })
        func stored(_ s: TrainingSession) -> ThresholdEstimate? {
            guard let t = s.threshold else { return nil }
            return ThresholdEstimate(trials: s.trials, threshold: t, low: s.low ?? t, high: s.high ?? t)
        }
        // A session that ended with no threshold stored measured none (beyond its range, or at
        // chance): its answers say which. One that never ended (killed) keeps no estimate.
        let answersBySession = Dictionary(grouping: trials, by: \.session)
        func unmeasured(_ s: TrainingSession) -> ThresholdEstimate? {
            guard s.ended != nil, let list = answersBySession[s.id] else { return nil }
            return ThresholdEstimate(answers: list.map { ($0.differenceCents, $0.correct) })
        }
        discrimination = sessions.filter { $0.exercise == .discrimination && $0.trials > 0 }.map {
            SessionProgress(session: $0, trials: $0.trials, threshold: stored($0) ?? unmeasured($0), match: nil, interval: nil)
        }
        let scored = Self.scoredAttempts(attempts, sessions: sessions)
        let heard = Dictionary(grouping: attempts.filter { $0.cents != nil }, by: \.session)
        let kept = Dictionary(grouping: scored, by: \.session)
        unheardSessions = Set(attempts.map(\.session)).subtracting(heard.keys).count
        // A session whose every note was wrong is listed with no bias or spread.
        match = heard.keys.sorted().compactMap { id in
            guard let s = byID[id], let list = heard[id] else { return nil }
            let errors = (kept[id] ?? []).map { $0.cents! }
            return SessionProgress(
                session: s, trials: errors.count, threshold: nil, match: MatchSummary(errors: errors),
                interval: Set(list.map(\.interval)).count > 1 ? Self.mixed : list.first?.interval)
        }
        let answered = Dictionary(grouping: intervals, by: \.session)
        interval = answered.keys.sorted().compactMap { id in
            guard let s = byID[id], let list = answered[id] else { return nil }
            let estimate =
                stored(s) ?? ThresholdEstimate(answers: list.map { ($0.differenceCents, $0.correct) })
            return SessionProgress(
                session: s, trials: list.count, threshold: estimate, match: nil,
                interval: list.first.map { SungInterval($0.interval)?.name ?? $0.interval })
        }
        let bands = Dictionary(grouping: trials) { Register.octave(hz: $0.referenceHz) }
        thresholdByRegister = bands.keys.sorted().compactMap { r in
            ThresholdEstimate(answers: bands[r]!.map { ($0.differenceCents, $0.correct) }).map { (r, $0) }
        }
        intervalByRegister = Self.intervalBands(intervals)
        let sung = Dictionary(grouping: scored, by: \.register)
        matchByRegister = sung.keys.sorted().compactMap { r in
            MatchSummary(errors: sung[r]!.map { $0.cents! }).map { (r, $0) }
        }
    }

    /// The attempts that count in bias and spread, as the session counted them: heard, and not
    /// wrong notes (beyond the session's `--tolerance`, from its settings; 50 cents for sessions
    /// stored before there was one).
    static func scoredAttempts(_ attempts: [MatchAttempt], sessions: [TrainingSession]) -> [MatchAttempt] {
        let tolerance = tolerances(sessions)
        return attempts.filter { a in
            guard let cents = a.cents else { return false }
            return abs(cents) <= (tolerance[a.session] ?? MatchJudgement.defaultTolerance)
        }
    }

    /// The interval of a matching session that asked for several (`train sing-interval`).
    public static let mixed = "mixed"

    /// Each matching session's --tolerance, from its settings (none for sessions stored before
    /// there was one: the default applies).
    public static func tolerances(_ sessions: [TrainingSession]) -> [Int64: Double] {
        var tolerance: [Int64: Double] = [:]
        for s in sessions where s.exercise == .match {
            let settings = (try? JSONReader.parse(Bytes(s.settings.utf8))) as? [String: Any]
            tolerance[s.id] = settings?["tolerance"] as? Double
        }
        return tolerance
    }

    /// The posterior of every answer for one interval (named as `SungInterval` names it, so "P5up"
    /// is "P5") in one register.
    static func intervalBands(_ intervals: [IntervalTrialRecord]) -> [(
        interval: String, register: Int, estimate: ThresholdEstimate
    )] {
        struct Band: Hashable {
            let interval: String
            let register: Int
        }
        let bands = Dictionary(grouping: intervals) {
            Band(interval: SungInterval($0.interval)?.name ?? $0.interval, register: TrainingCSV.register($0))
        }
        func order(_ b: Band) -> (Int, String, Int) { (SungInterval(b.interval)?.semitones ?? Int.max, b.interval, b.register) }
        return bands.keys.sorted { order($0) < order($1) }.compactMap { b in
            ThresholdEstimate(answers: bands[b]!.map { ($0.differenceCents, $0.correct) }).map { (b.interval, b.register, $0) }
        }
    }
}
