import Foundation
import Testing

@testable import PixelBoopCore

@Suite("Pitch matching as a musician scores it: wrong notes, octaves, notes lined up with references")
struct MatchScoringTests {
    static func hz(_ midi: Double) -> Double { 440 * pow(2, (midi - 69) / 12) }

    @Test("a note beyond the tolerance is a wrong note, an octave off within it is an octave displacement")
    func judgement() {
        #expect(MatchJudgement(MatchScore(sung: Self.hz(60.08), target: Self.hz(60))) == .right)
        #expect(MatchJudgement(MatchScore(sung: Self.hz(61), target: Self.hz(60))) == .wrong)
        #expect(MatchJudgement(MatchScore(sung: Self.hz(48.05), target: Self.hz(60))) == .octave(-1))
        #expect(MatchJudgement(MatchScore(sung: Self.hz(60.6), target: Self.hz(60)), tolerance: 70) == .right)
    }

    @Test("nine notes within 8 cents and one a semitone sharp: bias and spread as without it")
    func wrongNoteApart() throws {
        let errors = [-8.0, -5, -2, 0, 1, 3, 5, 7, 8]
        var kept: [Double] = []
        var wrong = 0
        for (k, e) in (errors + [100]).enumerated() {
            let target = Self.hz(Double(60 + k))
            let score = MatchScore(sung: target * pow(2, e / 1200), target: target)
            let j = MatchJudgement(score)
            if j.isScored { kept.append(score.cents) } else { wrong += 1 }
        }
        #expect(wrong == 1)
        let with = try #require(MatchSummary(errors: kept))
        let without = try #require(MatchSummary(errors: errors))
        #expect(abs(with.bias - without.bias) < 1e-9 && abs(with.spread - without.spread) < 1e-9)
    }

    @Test("a missing note: the others keep their references")
    func missing() {
        let refs: [Double] = [60, 64, 57, 62, 65, 67].map(Self.hz)
        var sung: [Double?] = refs.map { $0 * pow(2, 5.0 / 1200) }
        sung.remove(at: 2)
        let a = NoteAlignment.align(sung: sung, targets: refs)
        #expect(a.sungFor == [0, 1, nil, 2, 3, 4])
        #expect(a.extra.isEmpty)
    }

    @Test("an extra note is left over; equal counts pair in order even with a wrong note")
    func extraAndEqual() {
        let refs: [Double] = [60, 64, 67, 72].map(Self.hz)
        var sung: [Double?] = refs
        sung.insert(Self.hz(70), at: 1)
        let a = NoteAlignment.align(sung: sung, targets: refs)
        #expect(a.sungFor == [0, 2, 3, 4] && a.extra == [1])
        let wrong: [Double?] = [Self.hz(60), Self.hz(65), nil, Self.hz(72)]
        let b = NoteAlignment.align(sung: wrong, targets: refs)
        #expect(b.sungFor == [0, 1, 2, 3] && b.extra.isEmpty)
    }

    @Test("stats count a session's notes as it did: wrong notes out, by its own tolerance (50 when none is stored)")
    func profileTolerance() throws {
        func session(_ id: Int64, _ settings: String) -> TrainingSession {
            TrainingSession(
                id: id, started: Timestamp(), ended: Timestamp(), settings: settings, trials: 3, threshold: nil, low: nil,
                high: nil,
                exercise: .match)
        }
        func attempt(_ id: Int64, _ trial: Int, _ cents: Double?) -> MatchAttempt {
            MatchAttempt(
                session: id, trial: trial, time: Timestamp(), referenceHz: 440, targetHz: 440, interval: nil,
                sungHz: cents.map { 440 * pow(2, $0 / 1200) }, cents: cents, octave: 0, stableMilliseconds: 500)
        }
        let sessions = [session(1, "{}"), session(2, "{\"tolerance\":120}"), session(3, "not json")]
        let attempts = [
            attempt(1, 1, 4), attempt(1, 2, 100), attempt(1, 3, -6), attempt(2, 1, 4), attempt(2, 2, 100),
            attempt(3, 1, 60), attempt(3, 2, nil)
        ]
        let p = TrainingProfile(sessions: sessions, trials: [], attempts: attempts, intervals: [])
        #expect(p.match.map(\.trials) == [2, 2, 0])
        #expect(try #require(p.match[1].match).bias == 52)
        #expect(try #require(p.match[0].match).bias == -1)
        #expect(p.match[2].match == nil)
        #expect(p.unheardSessions == 0)
        let none = TrainingProfile(sessions: [session(4, "{}")], trials: [], attempts: [attempt(4, 1, nil)], intervals: [])
        #expect(none.match.isEmpty && none.unheardSessions == 1)
    }
}
