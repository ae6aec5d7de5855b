import Foundation
import Testing

@testable import PixelBoopCore

// Analysis helpers for the tone suites (NoteNameTests, ToneSequenceTests, SineWaveNotePlayerTests).

/// Least-squares sinusoid fit (Gauss-Newton on the frequency): resolves far below 0.001 cent on
/// the rendered float samples, so tuning is judged on what the engine produced.
func fittedFrequency(_ x: [Float], rate: Double, range: Range<Int>, guess: Double) -> Double {
    let centre = Double(range.lowerBound + range.upperBound - 1) / 2
    var w = 2 * Double.pi * guess / rate
    var a = 0.0
    var b = 0.0
    for pass in 0..<10 {
        var m = [[Double]](repeating: [Double](repeating: 0, count: 4), count: 4)
        var v = [Double](repeating: 0, count: 4)
        for n in range {
            let t = Double(n) - centre
            let c = cos(w * t)
            let s = sin(w * t)
            let g = [c, s, 1, pass > 0 ? t * (-a * s + b * c) : 0]
            let y = Double(x[n])
            for i in 0..<4 {
                v[i] += g[i] * y
                for j in 0..<4 { m[i][j] += g[i] * g[j] }
            }
        }
        if pass == 0 {
            m[3][3] = 1
            v[3] = 0
        }
        // Gaussian elimination (4 x 4, well conditioned).
        for c in 0..<4 {
            let p = (c..<4).max { abs(m[$0][c]) < abs(m[$1][c]) }!
            m.swapAt(c, p)
            v.swapAt(c, p)
            for r in (c + 1)..<4 {
                let f = m[r][c] / m[c][c]
                for k in c..<4 { m[r][k] -= f * m[c][k] }
                v[r] -= f * v[c]
            }
        }
        for c in stride(from: 3, through: 0, by: -1) {
            var s = v[c]
            for k in (c + 1)..<4 { s -= m[c][k] * v[k] }
            v[c] = s / m[c][c]
        }
        a = v[0]
        b = v[1]
        w += v[3]
        if pass > 0 && abs(v[3]) < 1e-13 * w { break }
    }
    return w * rate / (2 * Double.pi)
}

func energy(_ x: [Double], _ r: Range<Int>) -> Double { r.reduce(0) { $0 + x[$1] * x[$1] } }
func energy(_ x: [Float], _ r: Range<Int>) -> Double { r.reduce(0) { $0 + Double(x[$1]) * Double(x[$1]) } }

func renderTones(_ frequencies: [Double], duration: Double = 0.5, gap: Double = 0.25, rate: Double = 44100) throws -> (
    [Float], ToneSequence
) {
    let sequence = try ToneSequence(frequencies: frequencies, duration: duration, gap: gap, sampleRate: rate)
    return (try ToneRenderer(sequence: sequence).renderSamples(), sequence)
}
func cents(_ measured: Double, _ expected: Double) -> Double { 1200 * log2(measured / expected) }
