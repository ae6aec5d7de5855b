import Glibc

/// The pitch a person sang, from the stable part of a note: voiced, steady, after the onset's scoop.
public struct SungPitch: Sendable, Equatable {
    /// The centre of the stable part (vibrato removed), Hz.
    public let frequency: Double
    /// How long the stable part lasted, ms.
    public let stableMilliseconds: Int
    /// The stable part's pitch frame by frame (10 ms apart), cents from A4 440 Hz: what the
    /// curve after an attempt draws.
    public var curve: [Double] = []
}

/// Notes in a recording and the stable pitch of each.
public enum SungNotes {
    /// Frame hop of the tracks analysed here, seconds.
    static let hop = 0.01

    /// The notes of a recording: sample ranges of sound separated by at least `minGap` seconds of
    /// silence. Silence is judged against the recording itself (between its quiet floor and its
    /// loud level, geometrically), so a noisy room still separates notes.
    public static func split(_ samples: [Float], rate: Double, minGap: Double = 0.3) -> [Range<Int>] {
        let hopFrames = max(1, Int(rate * hop))
        let count = samples.count / hopFrames
        guard count > 0 else { return [] }
        var power = [Double](repeating: 0, count: count)
        for k in 0..<count {
            var s = 0.0
            for i in (k * hopFrames)..<((k + 1) * hopFrames) { s += Double(samples[i]) * Double(samples[i]) }
            power[k] = s / Double(hopFrames)
        }
        let sorted = power.sorted()
        let floor = max(sorted[count / 10], 1e-10)
        let loud = sorted[min(count - 1, count * 95 / 100)]
        guard loud > floor * 4 else { return [] }   // under 6 dB between floor and level: no notes
        let threshold = (floor * loud).squareRoot()
        var notes: [Range<Int>] = []
        var start: Int?
        var lastLoud = -1
        let gapFrames = Int((minGap / hop).rounded())
        for k in 0..<count where power[k] > threshold {
            if let s = start, k - lastLoud > gapFrames {
                notes.append(s..<(lastLoud + 1))
                start = k
            } else if start == nil {
                start = k
            }
            lastLoud = k
        }
        if let s = start { notes.append(s..<(lastLoud + 1)) }
        // Under 0.1 s is a click or a breath, not a note.
        return notes.filter { $0.count >= 10 }.map { ($0.lowerBound * hopFrames)..<($0.upperBound * hopFrames) }
    }

    /// The shortest stable part that counts as a note: one vibrato cycle, the window steadiness is
    /// judged over (a blip held for less is not scored).
    public static let minimumSteadyMilliseconds = 180

    /// The stable pitch of one note's samples, or nil when too little of it is voiced and steady
    /// (under `minimumSteadyMilliseconds`). Mains hum is notched out first (`HumFilter`).
    public static func stablePitch(_ samples: [Float], tracker: PitchTracker) -> SungPitch? {
        let frames = tracker.track(HumFilter.apply(samples, sampleRate: tracker.sampleRate))
        // Cents (from A4) of the voiced frames, by time.
        var cents: [(t: Double, c: Double)] = []
        for f in frames where f.frequency > 0 {
            cents.append((Double(f.index) * Double(tracker.hopFrames) / tracker.sampleRate, 1200 * log2(f.frequency / 440)))
        }
        guard cents.count >= 15 else { return nil }
        // The held pitch: the median of the note's second half (past any scoop); frames an octave
        // or a fifth away from it are the tracker's slips, not the singer's.
        let center = median(cents[(cents.count / 2)...].map(\.c))
        cents = cents.filter { abs($0.c - center) < 300 }
        guard let stable = steadyPart(cents, center: center), stable.count >= 10 else { return nil }
        let mean = vibratoCentre(stable)
        let ms = Int(((stable.last!.t - stable.first!.t + hop) * 1000).rounded())
        guard ms >= minimumSteadyMilliseconds else { return nil }
        return SungPitch(frequency: 440 * pow(2, mean / 1200), stableMilliseconds: ms, curve: stable.map(\.c))
    }

    /// From the first frame after which the pitch, averaged over about one vibrato cycle (180 ms,
    /// centred; frames nearer the ends than that have no full window and are not judged), stays
    /// within 15 cents of the held pitch, to 50 ms before the end (the release).
    static func steadyPart(_ c: [(t: Double, c: Double)], center: Double) -> [(t: Double, c: Double)]? {
        guard let first = c.first?.t, let end = c.last?.t else { return nil }
        let half = 0.09
        var start: Double?
        for i in stride(from: c.count - 1, through: 0, by: -1) {
            if c[i].t + half > end { continue }
            if c[i].t - half < first { break }
            let near = c.filter { abs($0.t - c[i].t) <= half }
            let avg = near.reduce(0) { $0 + $1.c } / Double(near.count)
            if abs(avg - center) > 15 { break }
            start = c[i].t
        }
        guard let start else { return nil }
        let from = start
        let part = c.filter { $0.t >= from && $0.t <= end - 0.05 }
        return part.isEmpty ? nil : part
    }

    /// The centre of a held pitch with vibrato: the constant of the least-squares vibrato fit
    /// (sineFit) at the best f in 3 ... 9 Hz, so a part cycle of vibrato does not pull the mean.
    static func vibratoCentre(_ part: [(t: Double, c: Double)]) -> Double {
        let n = Double(part.count)
        let plain = part.reduce(0) { $0 + $1.c } / n
        var best = (residual: Double.infinity, centre: plain)
        guard part.count >= 12 else { return plain }
        for step in 0...120 {
            let f = 3.0 + 0.05 * Double(step)
            if let fit = sineFit(part, frequency: f), fit.residual < best.residual { best = fit }
        }
        return best.centre
    }

    /// Least squares of c ≈ k + (a0 + a1·u)·sin(2πft) + (b0 + b1·u)·cos(2πft), u the time from
    /// the part's middle: a vibrato that grows or fades (as it does after an onset) is fitted too,
    /// so it does not pull the constant k. Returns (residual, k).
    static func sineFit(_ part: [(t: Double, c: Double)], frequency f: Double) -> (residual: Double, centre: Double)? {
        let n = 5
        let mid = 0.5 * (part.first!.t + part.last!.t)
        func row(_ t: Double) -> [Double] {
            let s = sin(2 * .pi * f * t)
            let c = cos(2 * .pi * f * t)
            let u = t - mid
            return [1, s, c, u * s, u * c]
        }
        var a = [[Double]](repeating: [Double](repeating: 0, count: n + 1), count: n)
        for p in part {
            let r = row(p.t)
            for i in 0..<n {
                for j in 0..<n { a[i][j] += r[i] * r[j] }
                a[i][n] += r[i] * p.c
            }
        }
        guard let x = solve(&a, n) else { return nil }
        var residual = 0.0
        for p in part {
            let r = row(p.t)
            let e = p.c - (0..<n).reduce(0) { $0 + x[$1] * r[$1] }
            residual += e * e
        }
        return (residual, x[0])
    }

    /// Gauss-Jordan with partial pivoting on an n × (n+1) augmented system.
    static func solve(_ a: inout [[Double]], _ n: Int) -> [Double]? {
        for col in 0..<n {
            guard let pivot = (col..<n).max(by: { abs(a[$0][col]) < abs(a[$1][col]) }), abs(a[pivot][col]) > 1e-9 else {
                return nil
            }
            a.swapAt(col, pivot)
            for r in 0..<n where r != col {
                let k = a[r][col] / a[col][col]
                for j in col...n { a[r][j] -= k * a[col][j] }
            }
        }
        return (0..<n).map { a[$0][n] / a[$0][$0] }
    }

    static func median(_ v: [Double]) -> Double {
        let s = v.sorted()
        return s.isEmpty ? 0 : s.count % 2 == 1 ? s[s.count / 2] : 0.5 * (s[s.count / 2 - 1] + s[s.count / 2])
    }
}
