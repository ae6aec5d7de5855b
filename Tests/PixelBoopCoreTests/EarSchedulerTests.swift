import Foundation
import Testing

@testable import PixelBoopCore

@Suite("EarScheduler: spaced repetition by Leitner boxes; Wilson intervals; ear trial plans")
struct EarSchedulerTests {
    @Test("boxes: right moves up to 4, wrong sends to 0 and the item named down one")
    func boxes() {
        var s = EarScheduler(items: EarItems.intervalNames)
        #expect(s.box["M3"] == 2 && s.weight("M3") == 1)
        for _ in 0..<5 { s.record(item: "P5", answer: "P5") }
        #expect(s.box["P5"] == 4 && s.weight("P5") == 0.25)
        s.record(item: "M3", answer: "P4")
        #expect(s.box["M3"] == 0 && s.box["P4"] == 1 && s.weight("M3") == 4)
        s.record(item: "M3", answer: "M3")
        #expect(s.box["M3"] == 1)
        // An answer outside the items (never stored, but a history may hold anything) is ignored.
        s.record(item: "nonsense", answer: "M3")
        #expect(s.box["M3"] == 1)
    }

    @Test("history: the boxes replayed from stored answers equal those recorded live")
    func history() {
        let answers = [("M3", "P4"), ("P5", "P5"), ("m6", "M6"), ("M3", "M3"), ("P5", "P5")]
        var live = EarScheduler(items: EarItems.intervalNames)
        for (i, a) in answers { live.record(item: i, answer: a) }
        let replayed = EarScheduler(items: EarItems.intervalNames, history: answers.map { ($0.0, $0.1) })
        #expect(live.box == replayed.box)
    }

    @Test("draws: deterministic by seed, never the same item twice running, by weight")
    func draws() {
        var s = EarScheduler(items: EarItems.intervalNames)
        for item in EarItems.intervalNames where !["M3", "P4"].contains(item) {
            for _ in 0..<4 { s.record(item: item, answer: item) }
        }
        s.record(item: "M3", answer: "P4")
        var a = SeededGenerator(seed: 11)
        var b = SeededGenerator(seed: 11)
        var counts: [String: Int] = [:]
        var last = ""
        for _ in 0..<4000 {
            let x = s.next(using: &a)
            #expect(x == s.next(using: &b))
            counts[x, default: 0] += 1
            s.record(item: x, answer: ["M3", "P4"].contains(x) ? (x == "M3" ? "P4" : "M3") : x)
            #expect(x != last)
            last = x
        }
        // M3 and P4 stay in boxes 0-1 (weights 4 and 2) against ten items at 1/4: they get most draws.
        let confused = Double(counts["M3", default: 0] + counts["P4", default: 0]) / 4000
        #expect(confused > 0.6)
        #expect(counts.keys.count == 12)
    }

    @Test("Wilson: known values, bounds at 0 and 100 %")
    func wilson() {
        let w = WilsonInterval(right: 8, trials: 10)
        #expect(abs(w.low - 0.4902) < 1e-3 && abs(w.high - 0.9433) < 1e-3)
        let all = WilsonInterval(right: 5, trials: 5)
        #expect(all.high == 1 && abs(all.low - 0.5655) < 1e-3)
        let none = WilsonInterval(right: 0, trials: 0)
        #expect(none.low == 0 && none.high == 1)
    }

    @Test("plans: intervals, chords and degrees sound what they name")
    func plans() {
        var rng = SeededGenerator(seed: 3)
        for (i, name) in EarItems.intervalNames.enumerated() {
            let p = EarTrialPlan.identify(
                number: 1, drill: .intervals, item: name, roots: 60...72, directions: ["down"], rng: &rng)
            #expect(p.variant == "down" && !p.together)
            #expect(abs(12 * log2(p.phrases[0][0] / p.phrases[0][1]) - Double(i + 1)) < 1e-9)
        }
        let dom7 = EarTrialPlan.identify(number: 1, drill: .chords, item: "dom7", roots: 60...60, directions: [], rng: &rng)
        #expect(dom7.together && dom7.phrases[0].map { Int((12 * log2($0 / 261.6255653)).rounded()) } == [0, 4, 7, 10])
        let ti = EarTrialPlan.degree(number: 1, degree: "7", tonic: 62, drone: false)
        #expect(ti.variant == "D" && ti.phrases.count == 5)
        #expect(abs(12 * log2(ti.phrases[4][0] / ti.phrases[0][0]) - 11) < 1e-9)
        // IV in D: G B D.
        #expect(ti.phrases[1].map { Int((12 * log2($0 / 440) + 69).rounded()) } == [67, 71, 74])
        let drone = EarTrialPlan.degree(number: 1, degree: "5", tonic: 62, drone: true)
        #expect(drone.phrases.count == 2 && drone.phrases[0].count == 2 && drone.phrases[1].count == 3)
        #expect(abs(12 * log2(drone.phrases[1][2] / drone.phrases[0][0]) - 19) < 1e-9)
    }
}
