import Foundation
import Testing

@testable import PixelBoopCore

/// Sessions whose listeners cannot hear the differences played: the result must say so rather
/// than report a threshold at the range's edge with an interval that excludes the truth.
@Suite("Psi-marginal at the limits of its range: beyond the range, at chance")
struct PsiRangeTests {
    /// One 40-trial session (`maxCents` the largest difference played); `answer` gives each reply.
    static func session(maxCents: Double = 100, trials: Int = 40, seed: UInt64, answer: (Double, inout SeededGenerator) -> Bool)
        -> PsiResult
    {
        var rng = SeededGenerator(seed: seed)
        var psi = PsiMethod(maxCents: maxCents)
        for _ in 0..<trials {
            let x = psi.nextCents()
            #expect(x <= maxCents + 1e-9)
            psi.update(cents: x, correct: answer(x, &rng))
        }
        return PsiResult(psi)
    }

    static func listener(_ threshold: Double) -> SimulatedListener {
        SimulatedListener(threshold: threshold, slope: 2.5, lapse: 0.02)
    }

    @Test("a listener who only guesses: at chance, no threshold, in every one of 20 sessions")
    func guesser() {
        var atChance = 0
        for seed in 1...20 as ClosedRange<UInt64> {
            let r = Self.session(seed: seed) { _, rng in rng.nextUnit() < 0.5 }
            #expect(r.aboveRange, "seed \(seed): \(r)")
            #expect(r.measured == nil)
            if r.atChance { atChance += 1 }
        }
        print("guesser: at chance in \(atChance) of 20 sessions, the rest beyond the range")
        #expect(atChance >= 15)
    }

    @Test("a true threshold of 150 cents with the default 100-cent range: beyond the range, not measured")
    func beyondDefault() {
        var above = 0
        for seed in 1...20 as ClosedRange<UInt64> {
            let r = Self.session(seed: seed) { x, rng in Self.listener(150).answer(x, &rng) }
            if r.aboveRange { above += 1 }
            // Whatever is said, no interval that excludes 150 cents.
            if let m = r.measured { #expect(m.high > 100, "seed \(seed): \(m)") }
        }
        print("150-cent listener, 100-cent range: beyond the range in \(above) of 20 sessions")
        #expect(above >= 17)
    }

    @Test("a true threshold of 150 cents with --max-cents 400: measured, the interval holding 150 in most sessions")
    func measuredWhenWider() {
        var measured = 0
        var covers = 0
        for seed in 1...20 as ClosedRange<UInt64> {
            let r = Self.session(maxCents: 400, seed: seed) { x, rng in Self.listener(150).answer(x, &rng) }
            guard let m = r.measured else { continue }
            measured += 1
            if m.low <= 150 && 150 <= m.high { covers += 1 }
        }
        print("150-cent listener, 400-cent range: measured in \(measured) of 20, interval holds 150 in \(covers)")
        #expect(measured >= 18)
        #expect(covers >= 12)
    }

    @Test("a listener at 20 cents: measured as before, never called beyond the range or at chance")
    func ordinaryListener() {
        var within = 0
        for seed in 1...20 as ClosedRange<UInt64> {
            let r = Self.session(seed: seed) { x, rng in Self.listener(20).answer(x, &rng) }
            #expect(!r.aboveRange, "seed \(seed): \(r)")
            if let m = r.measured, m.threshold > 20 / 1.5 && m.threshold < 20 * 1.5 { within += 1 }
        }
        print("20-cent listener: within 1.5x in \(within) of 20 sessions")
        #expect(within >= 15)
    }

    @Test("under five trials no session is called at chance: the test cannot tell yet")
    func fewTrials() {
        let r = Self.session(trials: 3, seed: 1) { _, _ in false }
        #expect(!r.atChance)
        let five = Self.session(trials: 5, seed: 1) { _, _ in false }
        #expect(five.atChance)
    }

    @Test("the chance test: the binomial tail of right answers against guessing")
    func guessingTail() {
        #expect(abs(PsiResult.guessingTail(correct: 20, trials: 40) - 0.5627) < 1e-3)
        #expect(abs(PsiResult.guessingTail(correct: 30, trials: 40) - 0.001111) < 1e-5)
        #expect(PsiResult.guessingTail(correct: 0, trials: 40) == 1)
    }

    @Test("the stimulus grid follows --max-cents up to an octave; the threshold grid reaches past it")
    func grids() {
        let wide = PsiMethod(maxCents: 1200)
        #expect(abs(wide.stimuli.last! - 1200) < 1e-6)
        #expect(wide.thresholds.last! > 1200)
        let standard = PsiMethod()
        #expect(standard.stimuli.count == 41 && abs(standard.stimuli.last! - 100) < 1e-9)
    }
}
