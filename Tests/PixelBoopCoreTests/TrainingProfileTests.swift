import Foundation
import Testing

@testable import PixelBoopCore

/// The training history read per exercise and per register: sessions without answers left out,
/// a stored threshold kept and one never stored recomputed from the answers (the posterior depends
/// on the answers alone), match attempts scored by each session's tolerance, bias and spread per
/// register, and interval bands named as SungInterval names them, narrow intervals first.
@Suite("TrainingProfile")
struct TrainingProfileTests {
    static let t0 = Timestamp(timeIntervalSince1970: 1_700_000_000)

    static func session(
        _ id: Int64, _ exercise: TrainingExercise, trials: Int, threshold: Double? = nil,
        ended: Bool = true, settings: String = "{}"
    ) -> TrainingSession {
        TrainingSession(
            id: id, started: t0, ended: ended ? t0 : nil, settings: settings, trials: trials, threshold: threshold,
            low: threshold.map { $0 - 2 }, high: threshold.map { $0 + 3 }, exercise: exercise)
    }

    static func trial(_ session: Int64, _ k: Int, hz: Double, cents: Double, correct: Bool) -> TrainingTrial {
        TrainingTrial(
            session: session, trial: k, time: t0, referenceHz: hz, differenceCents: cents, higherInterval: 1,
            answer: "higher", correct: correct, responseMilliseconds: 500)
    }

    static func attempt(_ session: Int64, _ k: Int, target: Double, cents: Double?) -> MatchAttempt {
        MatchAttempt(
            session: session, trial: k, time: t0, referenceHz: target, targetHz: target, interval: nil,
            sungHz: cents.map { target * pow(2, $0 / 1200) }, cents: cents, octave: cents == nil ? nil : 0,
            stableMilliseconds: cents == nil ? nil : 500)
    }

    @Test("each match session's tolerance from its settings; none when it stored none")
    func tolerances() {
        let t = TrainingProfile.tolerances([
            Self.session(1, .match, trials: 1, settings: #"{"tolerance": 30}"#), Self.session(2, .match, trials: 1),
            Self.session(3, .discrimination, trials: 1, settings: #"{"tolerance": 5}"#)
        ])
        #expect(t == [1: 30])   // session 2 stored none (the default applies); 3 is no match session
    }

    @Test("attempts scored: heard, and within the session's tolerance (50 cents when none was stored)")
    func scored() {
        let sessions = [Self.session(1, .match, trials: 3, settings: #"{"tolerance": 30}"#), Self.session(2, .match, trials: 3)]
        let attempts = [
            Self.attempt(1, 1, target: 220, cents: 25), Self.attempt(1, 2, target: 220, cents: -35),
            Self.attempt(1, 3, target: 220, cents: nil), Self.attempt(2, 1, target: 220, cents: -45),
            Self.attempt(2, 2, target: 220, cents: 55)
        ]
        let kept = TrainingProfile.scoredAttempts(attempts, sessions: sessions)
        #expect(kept.map { "\($0.session).\($0.trial)" } == ["1.1", "2.1"])
    }

    @Test("discrimination: a stored threshold kept, an ended session's answers estimated, empty sessions left out")
    func discrimination() throws {
        let sessions = [
            Self.session(1, .discrimination, trials: 20, threshold: 12), Self.session(2, .discrimination, trials: 30),
            Self.session(3, .discrimination, trials: 0), Self.session(4, .discrimination, trials: 5, ended: false)
        ]
        let wrong = (0..<30).map { Self.trial(2, $0, hz: 440, cents: 50, correct: false) }
        let profile = TrainingProfile(sessions: sessions, trials: wrong, attempts: [], intervals: [])
        #expect(profile.discrimination.map(\.session.id) == [1, 2, 4])
        let stored = try #require(profile.discrimination[0].threshold)
        #expect(stored.threshold == 12 && stored.low == 10 && stored.high == 15)
        let recomputed = try #require(profile.discrimination[1].threshold)
        #expect(recomputed.aboveRange)   // every answer wrong: no threshold measured
        #expect(recomputed.trials == 30)
        #expect(profile.discrimination[2].threshold == nil)   // never ended: no estimate
    }

    @Test("a threshold from answers is the posterior of those answers, whatever their order")
    func orderFree() throws {
        var answers: [(cents: Double, correct: Bool)] = []
        for k in 0..<40 { answers.append((cents: [3, 6, 12, 24, 48][k % 5], correct: k % 5 >= 2 || k % 3 == 0)) }
        let a = try #require(ThresholdEstimate(answers: answers))
        let b = try #require(ThresholdEstimate(answers: answers.reversed()))
        #expect(abs(a.threshold - b.threshold) < 1e-9 * a.threshold)
        #expect(a.low <= a.threshold && a.threshold <= a.high)
        #expect(ThresholdEstimate(answers: []) == nil)
    }

    @Test("thresholds per register of the reference, C to B")
    func registers() {
        let trials =
            (0..<20).map { Self.trial(1, $0, hz: 261.63, cents: 20, correct: true) }
            + (0..<20).map { Self.trial(1, 20 + $0, hz: 246.94, cents: 20, correct: $0 % 2 == 0) }
        let profile = TrainingProfile(
            sessions: [Self.session(1, .discrimination, trials: 40, threshold: 10)], trials: trials, attempts: [], intervals: [])
        #expect(profile.thresholdByRegister.map(\.register) == [3, 4])   // B3, then C4
        #expect(profile.thresholdByRegister.allSatisfy { $0.estimate.trials == 20 })
    }

    @Test("match: sessions with a note heard are listed with bias and spread; unheard ones only counted")
    func match() throws {
        let sessions = [Self.session(1, .match, trials: 3), Self.session(2, .match, trials: 2)]
        let attempts = [
            Self.attempt(1, 1, target: 220, cents: 10), Self.attempt(1, 2, target: 220, cents: -10),
            Self.attempt(1, 3, target: 440, cents: 20), Self.attempt(2, 1, target: 220, cents: nil)
        ]
        let profile = TrainingProfile(sessions: sessions, trials: [], attempts: attempts, intervals: [])
        #expect(profile.match.map(\.session.id) == [1])
        #expect(profile.unheardSessions == 1)
        let summary = try #require(profile.match[0].match)
        #expect(abs(summary.bias - 20.0 / 3) < 1e-9)
        #expect(profile.matchByRegister.map(\.register) == [3, 4])   // A3, A4
    }
}
