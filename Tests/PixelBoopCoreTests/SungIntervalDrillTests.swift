import Foundation
import Testing

@testable import PixelBoopCore

@Suite("SungIntervalDrill: intervals to sing chosen by spaced repetition, judged as matching judges")
struct SungIntervalDrillTests {
    /// A stored attempt at `interval` from C4, `cents` off its equal-tempered target (nil: unheard).
    func attempt(_ interval: String, cents: Double?, session: Int64 = 1) -> MatchAttempt {
        let target = SungInterval(interval)!.target(from: 261.6255653, tuning: .equal)
        return MatchAttempt(
            session: session, trial: 1, time: Timestamp(), referenceHz: 261.6255653, targetHz: target, interval: interval,
            sungHz: cents.map { target * pow(2, $0 / 1200) }, cents: cents, octave: cents.map { _ in 0 },
            stableMilliseconds: cents.map { _ in 500 })
    }

    @Test("the list: each interval in each direction asked; unknown, repeated or directed names refused")
    func intervals() {
        let both = SungIntervalDrill.intervals("m3,P5", direction: "both")!
        #expect(both.map(SungIntervalDrill.item) == ["m3up", "m3down", "P5up", "P5down"])
        #expect(SungIntervalDrill.intervals("M3", direction: "down")!.map(SungIntervalDrill.stored) == ["M3down"])
        #expect(SungIntervalDrill.intervals("M3,M3", direction: "up") == nil)
        #expect(SungIntervalDrill.intervals("M3down", direction: "up") == nil)
        #expect(SungIntervalDrill.intervals("P1", direction: "up") == nil)
        #expect(SungIntervalDrill.intervals("", direction: "up") == nil)
        #expect(SungIntervalDrill.intervals("M3", direction: "sideways") == nil)
        let drill = SungIntervalDrill(intervals: both, history: [], tolerance: [:])
        #expect(drill.span == (up: 7, down: 7))
    }

    @Test("right is MatchJudgement.right under the session's tolerance; unheard attempts move nothing")
    func judged() {
        #expect(SungIntervalDrill.right(attempt("M3", cents: 20), tolerance: [:]) == true)
        #expect(SungIntervalDrill.right(attempt("M3", cents: 70), tolerance: [:]) == false)
        #expect(SungIntervalDrill.right(attempt("M3", cents: 20), tolerance: [1: 10]) == false)
        #expect(SungIntervalDrill.right(attempt("M3", cents: nil), tolerance: [:]) == nil)
        let list = SungIntervalDrill.intervals("M3,P5", direction: "both")!
        let history = [attempt("M3down", cents: 80), attempt("P5", cents: 2), attempt("M3", cents: nil)]
        let drill = SungIntervalDrill(intervals: list, history: history, tolerance: [:])
        #expect(drill.scheduler.box["M3down"] == 0)
        #expect(drill.scheduler.box["P5up"] == 3)
        #expect(drill.scheduler.box["M3up"] == EarScheduler.startBox)
    }

    @Test("a missed interval is asked more often than one sung right, the same seed gives the same draws")
    func adaptive() {
        let list = SungIntervalDrill.intervals("M3,P5", direction: "up")!
        let history = [attempt("M3", cents: 90), attempt("P5", cents: 1), attempt("P5", cents: -2)]
        var a = SungIntervalDrill(intervals: list, history: history, tolerance: [:])
        var b = a
        var rngA = SeededGenerator(seed: 7)
        var rngB = SeededGenerator(seed: 7)
        var counts: [String: Int] = [:]
        for _ in 0..<200 {
            let i = a.next(using: &rngA)
            #expect(i == b.next(using: &rngB))
            counts[SungIntervalDrill.item(i), default: 0] += 1
        }
        // Two items never repeat in a row, so the draws alternate whatever the weights: the
        // weights show in the first draw from a history, asked many times over fresh seeds.
        var first: [String: Int] = [:]
        for seed in 0..<400 {
            var d = SungIntervalDrill(
                intervals: SungIntervalDrill.intervals("M3,P5,m3", direction: "up")!, history: history, tolerance: [:])
            var rng = SeededGenerator(seed: UInt64(seed))
            first[SungIntervalDrill.item(d.next(using: &rng)), default: 0] += 1
        }
        // Weights: M3 box 0 (4), P5 box 4 (1/4), m3 box 2 (1): M3 is drawn about 76 % of the time.
        #expect(first["M3up", default: 0] > 250 && first["P5up", default: 0] < 60)
        #expect(counts.count == 2)
        a.record(list[0], right: true)
        #expect(a.scheduler.box["M3up"] == 1)
    }

    @Test("the profile: a session's tolerance from its settings; a session of several intervals is mixed")
    func profile() {
        let session = TrainingSession(
            id: 1, started: Timestamp(), ended: Timestamp(), settings: "{\"tolerance\":30.0,\"drill\":\"sing-interval\"}",
            trials: 3, threshold: nil, low: nil, high: nil, exercise: .match)
        #expect(TrainingProfile.tolerances([session]) == [1: 30])
        let attempts = [attempt("M3", cents: 40), attempt("P5down", cents: 2), attempt("M3", cents: 5)]
        let p = TrainingProfile(sessions: [session], trials: [], attempts: attempts, intervals: [])
        #expect(p.match.map(\.interval) == [TrainingProfile.mixed])
        // 40 cents is beyond this session's 30: a wrong note, out of the bias.
        #expect(p.match.first?.trials == 2)
        let list = SungIntervalDrill.intervals("M3", direction: "up")!
        let drill = SungIntervalDrill(intervals: list, history: attempts, tolerance: TrainingProfile.tolerances([session]))
        // Wrong (box 0), then right (box 1).
        #expect(drill.scheduler.box["M3up"] == 1)
    }
}
