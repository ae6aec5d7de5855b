import Foundation

/// Measurements on rendered samples, shared by the Swift tests.
enum SignalAnalysis {
    /// Frequency from interpolated upward zero crossings over [range].
    static func zeroCrossingFrequency(_ x: [Float], rate: Double, range: Range<Int>) -> Double {
        var first = -1.0
        var last = -1.0
        var cycles = -1
        var i = max(range.lowerBound, 1)
        while i < range.upperBound {
            if x[i - 1] < 0, x[i] >= 0 {
                let t = Double(i - 1) + Double(x[i - 1] / (x[i - 1] - x[i]))
                if first < 0 { first = t }
                last = t
                cycles += 1
            }
            i += 1
        }
        return cycles < 1 ? 0 : Double(cycles) * rate / (last - first)
    }

    static func peak(_ x: [Float], _ range: Range<Int>) -> Float {
        var p: Float = 0
        for i in range { p = max(p, abs(x[i])) }
        return p
    }

    static func rms(_ x: [Float], _ range: Range<Int>) -> Double {
        var s = 0.0
        for i in range { s += Double(x[i]) * Double(x[i]) }
        return (s / Double(max(range.count, 1))).squareRoot()
    }

    static func rms(_ x: [Double], _ range: Range<Int>) -> Double {
        var s = 0.0
        for i in range { s += x[i] * x[i] }
        return (s / Double(max(range.count, 1))).squareRoot()
    }

    /// Onsets: the first non-zero sample after at least `minSilence` frames of exact silence.
    /// Through a buffer pointer: the tests are unoptimised, and minutes of audio indexed through
    /// the generic Array path (each access a runtime call under the sanitizers) took minutes.
    static func onsets(_ x: [Float], minSilence: Int) -> [Int] {
        var result: [Int] = []
        var silent = minSilence
        x.withUnsafeBufferPointer { b in
            for i in 0..<b.count {
                if b[i] == 0 {
                    silent += 1
                    continue
                }
                if silent >= minSilence { result.append(i) }
                silent = 0
            }
        }
        return result
    }

    /// 4th-order highpass (two RBJ biquads): what is left of a filtered sine above `cutoff` is
    /// tiny, so energy here at a note boundary is the signature of a click.
    /// In Double, so that residues of 1e-11 of a tone's energy can still be measured.
    static func highpass(_ x: [Float], rate: Double, cutoff: Double) -> [Double] {
        var y = x.map(Double.init)
        for _ in 0..<2 {
            let w0 = 2 * Double.pi * cutoff / rate
            let cw = cos(w0)
            let alpha = sin(w0) / (2 * 0.7071)
            let a0 = 1 + alpha
            let b0 = (1 + cw) / 2 / a0
            let b1 = -(1 + cw) / a0
            let b2 = b0
            let a1 = -2 * cw / a0
            let a2 = (1 - alpha) / a0
            var z1 = 0.0
            var z2 = 0.0
            for i in y.indices {
                let input = y[i]
                let out = b0 * input + z1
                z1 = b1 * input - a1 * out + z2
                z2 = b2 * input - a2 * out
                y[i] = out
            }
        }
        return y
    }
}
