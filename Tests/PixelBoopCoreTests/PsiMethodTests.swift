import Foundation
import Testing

@testable import PixelBoopCore

/// A simulated listener: a Weibull psychometric function on cents (another family than the one
/// the procedure fits, as a real ear is), with a known 75 % point, slope and lapse rate.
struct SimulatedListener {
    let threshold: Double
    let slope: Double   // Weibull shape
    let lapse: Double

    /// Weibull scale so that P(threshold) = 0.75 exactly.
    var scale: Double {
        let target = 0.25 / (0.5 - lapse)   // 1 - exp(-(t/a)^k)
        return threshold / pow(-log(1 - target), 1 / slope)
    }

    func pCorrect(_ cents: Double) -> Double { 0.5 + (0.5 - lapse) * (1 - exp(-pow(cents / scale, slope))) }

    func answer(_ cents: Double, _ rng: inout SeededGenerator) -> Bool { rng.nextUnit() < pCorrect(cents) }
}

extension SeededGenerator {
    /// A uniform number in [0, 1).
    mutating func nextUnit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

struct SimulationResult {
    var within13 = 0   // estimates within a factor of 1.3 of the true 75 % point
    var covered = 0   // 68 % intervals holding it
    var logErrors: [Double] = []
    var sessions = 0

    var fractionWithin: Double { Double(within13) / Double(sessions) }
    var coverage: Double { Double(covered) / Double(sessions) }
    var medianFactor: Double {
        let sorted = logErrors.map(abs).sorted()
        return exp(sorted[sorted.count / 2])
    }
}

enum Simulation {
    /// Listeners with thresholds log-uniform over 2 ... 40 cents, Weibull slopes 1.5 ... 4, lapses
    /// 0 ... 4 %.
    static func listeners(_ n: Int, seed: UInt64) -> [SimulatedListener] {
        var rng = SeededGenerator(seed: seed)
        return (0..<n).map { _ in
            SimulatedListener(
                threshold: 2 * pow(20, rng.nextUnit()), slope: 1.5 + 2.5 * rng.nextUnit(),
                lapse: 0.04 * rng.nextUnit())
        }
    }

    static func psi(_ listeners: [SimulatedListener], trials: Int, seed: UInt64) -> SimulationResult {
        var rng = SeededGenerator(seed: seed)
        var result = SimulationResult()
        for listener in listeners {
            var psi = PsiMethod()
            for _ in 0..<trials {
                let x = psi.nextCents()
                psi.update(cents: x, correct: listener.answer(x, &rng))
            }
            let e = psi.estimate
            result.record(estimate: e.threshold, low: e.low, high: e.high, truth: listener.threshold)
        }
        return result
    }

    static func staircase(_ listeners: [SimulatedListener], trials: Int, seed: UInt64) -> SimulationResult {
        var rng = SeededGenerator(seed: seed)
        var result = SimulationResult()
        for listener in listeners {
            var stairs = Staircase()
            for _ in 0..<trials { stairs.update(correct: listener.answer(stairs.cents, &rng)) }
            result.record(estimate: stairs.estimate, low: 0, high: 0, truth: listener.threshold)
        }
        return result
    }
}

extension SimulationResult {
    mutating func record(estimate: Double, low: Double, high: Double, truth: Double) {
        sessions += 1
        if estimate >= truth / 1.3 && estimate <= truth * 1.3 { within13 += 1 }
        if low <= truth && truth <= high { covered += 1 }
        logErrors.append(log(estimate / truth))
    }
}

@Suite("Psi-marginal pitch-discrimination procedure")
struct PsiMethodTests {
    @Test("the model's 75 % point is the threshold for every lapse rate")
    func seventyFive() {
        for lapse in [0.0, 0.02, 0.05] {
            #expect(abs(Psychometric(threshold: 7, slope: 2, lapse: lapse).pCorrect(cents: 7) - 0.75) < 1e-12)
        }
        #expect(Psychometric(threshold: 7, slope: 2, lapse: 0.05).pCorrect(cents: 1000) <= 0.95 + 1e-9)
    }

    @Test("a certain listener: differences shrink while answers are right, grow when wrong")
    func placement() {
        var psi = PsiMethod()
        let first = psi.nextCents()
        #expect(PsiMethod.centsRange.contains(first))
        for _ in 0..<10 { psi.update(cents: psi.nextCents(), correct: true) }
        #expect(psi.nextCents() < first)
        #expect(psi.estimate.threshold < 3)
        var wrong = PsiMethod()
        for _ in 0..<10 { wrong.update(cents: wrong.nextCents(), correct: false) }
        #expect(wrong.estimate.threshold > 30)
        #expect(wrong.estimate.low < wrong.estimate.threshold && wrong.estimate.threshold < wrong.estimate.high)
    }

    @Test(
        "simulated listeners (2-40 cents, Weibull, lapses to 4 %): within 1.3x of the 75 % point in >= 70 % of 40-trial sessions, beating a 2-down-1-up staircase; the 68 % interval covers about as often as it claims"
    )
    func simulatedListeners() {
        // The README's figures come from scripts/train-sim.py (the release boop, 1000 sessions);
        // here 150 sessions of 40 trials keep the suite quick under the sanitizers.
        let listeners = Simulation.listeners(150, seed: 42)
        var lines: [String] = []
        for trials in [40] {
            let psi = Simulation.psi(listeners, trials: trials, seed: 7)
            let stairs = Simulation.staircase(listeners, trials: trials, seed: 7)
            lines.append(
                String(
                    format:
                        "%d trials: psi within 1.3x %.0f %%, median error x%.2f, 68%% interval covers %.0f %%; staircase within 1.3x %.0f %%, median error x%.2f",
                    trials, psi.fractionWithin * 100, psi.medianFactor, psi.coverage * 100,
                    stairs.fractionWithin * 100, stairs.medianFactor))
            if trials == 40 {
                #expect(psi.fractionWithin >= 0.70)
                #expect(psi.fractionWithin > stairs.fractionWithin)
                #expect(psi.coverage >= 0.58 && psi.coverage <= 0.85)
            }
        }
        print(lines.joined(separator: "\n"))
    }
}
