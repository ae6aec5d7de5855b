import Glibc

/// The listener model the procedure fits: the probability of a right answer in a two-interval
/// "which tone was higher" task at a difference of `x` cents,
///
///     P(x) = γ + (1 − γ − λ) · F(x),   F(x) = 1 / (1 + exp(−β · (ln x − ln t) − c))
///
/// with guess rate γ = 0.5, lapse rate λ, slope β (per natural-log unit of cents) and threshold
/// t, the difference answered right 75 % of the time: c is chosen so that P(t) = 0.75 whatever λ
/// is, so t is the reported quantity itself, not a parameter to convert.
public struct Psychometric: Sendable, Equatable {
    public static let guess = 0.5
    public var threshold: Double
    public var slope: Double
    public var lapse: Double

    public init(threshold: Double, slope: Double, lapse: Double) {
        self.threshold = threshold
        self.slope = slope
        self.lapse = lapse
    }

    public func pCorrect(cents x: Double) -> Double {
        let g = Psychometric.guess
        let target = (0.75 - g) / (1 - g - lapse)   // F(t) that makes P(t) = 0.75
        let c = log(target / (1 - target))
        let f = 1 / (1 + exp(-slope * (log(max(x, 1e-9)) - log(threshold)) - c))
        return g + (1 - g - lapse) * f
    }
}

/// Psi-marginal (Kontsevich & Tyler 1999; Prins 2013): a Bayesian adaptive procedure over a grid
/// of thresholds, slopes and lapse rates. Each trial's difference is the one that minimises the
/// expected entropy of the posterior over the threshold alone (slope and lapse are nuisance
/// parameters, marginalised out, so trials are not spent pinning them down); the estimate is the
/// posterior median of the threshold with its 16th-84th percentiles as the 68 % credible
/// interval. Lapses (careless answers) are in the model, so a few do not wreck the estimate.
///
/// Pure arithmetic: no audio, no terminal, no randomness (the caller picks the order of the tones).
public struct PsiMethod: Sendable {
    /// The default stimulus range: the differences a session plays unless asked for wider ones.
    public static let centsRange: ClosedRange<Double> = 0.1...100
    /// The widest difference a session may be asked to play (`--max-cents`): an octave.
    public static let widestCents = Limits.trainMaxCents.upperBound
    /// Thresholds are considered up to this multiple of the largest difference played, so that
    /// answers no better than chance at the top of the range put the estimate beyond it instead
    /// of piling up at its edge (the grid's last point) with a narrow, wrong interval.
    static let thresholdReach = 4.0

    /// The largest difference a trial plays (cents): what the session can measure.
    public let maxCents: Double
    /// The thresholds considered (log-spaced, 0.1 cents ... 4 × maxCents), slopes and lapse rates.
    public let thresholds: [Double]
    public let slopes: [Double]
    public let lapses: [Double]
    /// The differences a trial may use (log-spaced, 0.1 ... maxCents).
    public let stimuli: [Double]
    /// Right answers so far (the chance test counts them).
    public private(set) var correct = 0
    /// The posterior over (threshold, slope, lapse), flattened threshold-major, normalised.
    public private(set) var posterior: [Double]
    public private(set) var trials = 0

    // P(correct | stimulus, parameters), precomputed: [stimulus][parameter].
    private let likelihood: [[Double]]

    /// `maxCents`: the largest difference played (at most `widestCents`). The grids keep the
    /// default's density (20 thresholds and about 13 differences a decade) whatever the range.
    public init(
        maxCents: Double = PsiMethod.centsRange.upperBound, slopes: [Double] = [1.0, 1.6, 2.5, 4.0, 6.3],
        lapses: [Double] = [0.0, 0.02, 0.05]
    ) {
        let top = min(max(maxCents, 1), PsiMethod.widestCents)
        let lo = log10(PsiMethod.centsRange.lowerBound)
        func logSpaced(_ hi: Double, perDecade: Double) -> [Double] {
            let n = Int(((hi - lo) * perDecade).rounded()) + 1
            return (0..<n).map { pow(10, lo + (hi - lo) * Double($0) / Double(n - 1)) }
        }
        self.maxCents = top
        thresholds = logSpaced(log10(top * PsiMethod.thresholdReach), perDecade: 20)
        stimuli = logSpaced(log10(top), perDecade: 40.0 / 3)
        let thresholdCount = thresholds.count
        self.slopes = slopes
        self.lapses = lapses
        var table: [[Double]] = []
        for x in stimuli {
            var row: [Double] = []
            row.reserveCapacity(thresholdCount * slopes.count * lapses.count)
            for t in thresholds {
                for b in slopes {
                    for l in lapses { row.append(Psychometric(threshold: t, slope: b, lapse: l).pCorrect(cents: x)) }
                }
            }
            table.append(row)
        }
        likelihood = table
        // Prior: uniform in log threshold (every decade alike), slopes alike, small lapses likelier.
        let lapsePrior = lapses.map { $0 == 0 ? 0.5 : 0.5 / Double(max(1, lapses.count - 1)) }
        var prior: [Double] = []
        for _ in thresholds {
            for _ in slopes {
                for w in lapsePrior { prior.append(w) }
            }
        }
        let total = prior.reduce(0, +)
        posterior = prior.map { $0 / total }
    }

    private var perThreshold: Int { slopes.count * lapses.count }

    /// The difference in cents for the next trial.
    public func nextCents() -> Double { stimuli[nextStimulusIndex()] }

    func nextStimulusIndex() -> Int {
        var best = 0
        var bestEntropy = Double.infinity
        let n = thresholds.count
        let per = perThreshold
        var right = [Double](repeating: 0, count: n)
        var wrong = right
        posterior.withUnsafeBufferPointer { post in
            right.withUnsafeMutableBufferPointer { right in
                wrong.withUnsafeMutableBufferPointer { wrong in
                    for (s, row) in likelihood.enumerated() {
                        row.withUnsafeBufferPointer { row in
                            // Marginal posterior over the threshold after each outcome, unnormalised.
                            var pRight = 0.0
                            for t in 0..<n {
                                var r = 0.0
                                var w = 0.0
                                for k in (t * per)..<((t + 1) * per) {
                                    let a = post[k] * row[k]
                                    r += a
                                    w += post[k] - a
                                }
                                right[t] = r
                                wrong[t] = w
                                pRight += r
                            }
                            let pWrong = 1 - pRight
                            guard pRight > 1e-12, pWrong > 1e-12 else { return }
                            let expected =
                                pRight * PsiMethod.entropy(right, total: pRight)
                                + pWrong * PsiMethod.entropy(wrong, total: pWrong)
                            if expected < bestEntropy {
                                bestEntropy = expected
                                best = s
                            }
                        }
                    }
                }
            }
        }
        return best
    }

    /// Takes the answer to a trial at `cents` (the nearest grid difference is what the model uses).
    public mutating func update(cents: Double, correct: Bool) {
        let s = stimuli.indices.min { abs(log(stimuli[$0]) - log(cents)) < abs(log(stimuli[$1]) - log(cents)) }!
        let row = likelihood[s]
        var total = 0.0
        for i in posterior.indices {
            posterior[i] *= correct ? row[i] : 1 - row[i]
            total += posterior[i]
        }
        for i in posterior.indices { posterior[i] /= total }
        trials += 1
        if correct { self.correct += 1 }
    }

    /// The threshold (posterior median, cents) and its 68 % credible interval.
    public var estimate: (threshold: Double, low: Double, high: Double) {
        let marginal = thresholdMarginal
        return (quantile(marginal, 0.5), quantile(marginal, 0.16), quantile(marginal, 0.84))
    }

    /// The posterior over the threshold alone (slope and lapse summed out).
    var thresholdMarginal: [Double] {
        var marginal = [Double](repeating: 0, count: thresholds.count)
        for t in 0..<thresholds.count {
            for k in (t * perThreshold)..<((t + 1) * perThreshold) { marginal[t] += posterior[k] }
        }
        return marginal
    }

    /// A quantile of the marginal over log threshold, interpolated between grid points.
    private func quantile(_ marginal: [Double], _ q: Double) -> Double {
        var cumulative = 0.0
        for (i, p) in marginal.enumerated() {
            if cumulative + p >= q {
                let within = p > 0 ? (q - cumulative) / p : 0
                // Each grid point stands for the log-interval around it.
                let step = log(thresholds[1]) - log(thresholds[0])
                return exp(log(thresholds[i]) + (within - 0.5) * step)
            }
            cumulative += p
        }
        return thresholds.last!
    }

    static func entropy(_ weights: UnsafeMutableBufferPointer<Double>, total: Double) -> Double {
        var h = 0.0
        for w in weights where w > 0 {
            let p = w / total
            h -= p * log(p)
        }
        return h
    }
}

/// A transformed up-down staircase (2-down 1-up, Levitt 1971: converges on 70.7 % correct), the
/// classic procedure the README compares with: the difference halves... by a factor after two
/// right answers in a row and grows after each wrong one; the estimate is the geometric mean of
/// the reversals after the first two.
public struct Staircase: Sendable {
    public private(set) var cents: Double
    public let factor: Double
    private var rightInARow = 0
    private var lastDirection = 0
    private var reversals: [Double] = []

    public init(start: Double = 30, factor: Double = 1.41) {
        cents = start
        self.factor = factor
    }

    public mutating func update(correct: Bool) {
        var direction = 0
        if correct {
            rightInARow += 1
            if rightInARow == 2 {
                rightInARow = 0
                direction = -1
            }
        } else {
            rightInARow = 0
            direction = 1
        }
        guard direction != 0 else { return }
        if lastDirection != 0 && direction != lastDirection { reversals.append(cents) }
        lastDirection = direction
        cents = min(
            max(direction < 0 ? cents / factor : cents * factor, PsiMethod.centsRange.lowerBound),
            PsiMethod.centsRange.upperBound)
    }

    public var estimate: Double {
        let used = reversals.count > 2 ? Array(reversals.dropFirst(2)) : reversals
        guard !used.isEmpty else { return cents }
        return exp(used.map(log).reduce(0, +) / Double(used.count))
    }
}
