import Foundation
import Testing

@testable import PixelBoopCore

/// The verdict of a discrimination session: the binomial guessing tail against its closed form,
/// and the three verdicts (measured, beyond the range, at chance) from sessions answered by rule.
@Suite("PsiResult")
struct PsiResultTests {
    /// P(X >= k) for X ~ Binomial(n, 1/2), by exact integer counting.
    static func exactTail(_ k: Int, _ n: Int) -> Double {
        var binomial = [Double](repeating: 0, count: n + 1)
        binomial[0] = 1
        for i in 1...n {
            for j in stride(from: i, through: 1, by: -1) { binomial[j] += binomial[j - 1] }
        }
        return binomial[k...].reduce(0, +) / pow(2, Double(n))
    }

    @Test("the guessing tail is the binomial's upper tail at 1/2")
    func guessingTail() {
        for n in [1, 5, 10, 20, 40] {
            for k in 0...n {
                let expected = k == 0 ? 1 : Self.exactTail(k, n)
                #expect(abs(PsiResult.guessingTail(correct: k, trials: n) - expected) < 1e-9, "k \(k) of \(n)")
            }
        }
        #expect(abs(PsiResult.guessingTail(correct: 5, trials: 5) - 1.0 / 32) < 1e-12)
        #expect(PsiResult.guessingTail(correct: 3, trials: 0) == 1)
        #expect(PsiResult.guessingTail(correct: 6, trials: 5) == 0)
    }

    /// A session of `trials` answered by `answer(cents)`.
    static func session(trials: Int, maxCents: Double = 100, _ answer: (Double) -> Bool) -> PsiResult {
        var psi = PsiMethod(maxCents: maxCents)
        for _ in 0..<trials {
            let x = psi.nextCents()
            psi.update(cents: x, correct: answer(x))
        }
        return PsiResult(psi)
    }

    @Test("a listener who hears 10 cents and up (and guesses below) is measured near 10, not at chance")
    func measured() throws {
        var guess = false
        let result = Self.session(trials: 60) { cents in
            guess.toggle()
            return cents >= 10 || guess
        }
        #expect(!result.aboveRange)
        let m = try #require(result.measured)
        #expect(m.low <= m.threshold && m.threshold <= m.high)
        #expect(m.threshold > 3 && m.threshold < 30)
        #expect(result.trials == 60)
    }

    @Test("a listener who hears nothing played is at chance or beyond the range: no threshold reported")
    func nothingHeard() {
        let result = Self.session(trials: 30) { _ in false }
        #expect(result.correct == 0)
        #expect(result.aboveRange)
        #expect(result.measured == nil)
        #expect(result.atChance)
    }

    @Test("under five trials, even all right, there is no chance verdict")
    func tooFewForChance() {
        #expect(PsiResult.guessingTail(correct: 4, trials: 4) >= PsiResult.chanceLevel)
        let result = Self.session(trials: 4) { _ in false }
        #expect(!result.atChance)
    }

    @Test("the next range is four times as wide, up to the limit, and none past it")
    func widerRange() {
        #expect(Self.session(trials: 1) { _ in true }.widerRange(limit: 1000) == 400)
        #expect(Self.session(trials: 1, maxCents: 300) { _ in true }.widerRange(limit: 1000) == 1000)
        #expect(Self.session(trials: 1, maxCents: 1000) { _ in true }.widerRange(limit: 1000) == nil)
    }
}
