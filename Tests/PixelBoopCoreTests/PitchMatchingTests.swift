import Foundation
import Testing

@testable import PixelBoopCore

@Suite("Pitch matching: scoring, session summary, intervals, sung notes")
struct PitchMatchingTests {
    @Test("an error is scored in the nearest octave, the octave named")
    func octaves() {
        let a = MatchScore(sung: 220 * pow(2, 12.5 / 1200), target: 440)
        #expect(a.octave == -1)
        #expect(abs(a.cents - 12.5) < 1e-9)
        let b = MatchScore(sung: 440 * pow(2, -49 / 1200), target: 440)
        #expect(b.octave == 0 && abs(b.cents + 49) < 1e-9)
    }

    @Test("bias and spread with 68 % intervals (t and chi-square)")
    func summary() throws {
        let s = try #require(MatchSummary(errors: [-10, 0, 10, 20]))
        #expect(abs(s.bias - 5) < 1e-12)
        #expect(abs(s.spread - 12.909944) < 1e-5)
        // t(0.84, 3) = 1.1966; the half width is t·sd/√n.
        #expect(abs((s.biasHigh - s.bias) - 1.1966 * 12.909944 / 2) < 0.15)
        #expect(s.spreadLow < s.spread && s.spread < s.spreadHigh)
        #expect(MatchSummary(errors: []) == nil)
    }

    @Test("intervals up and down, equal and just")
    func intervals() throws {
        let m3 = try #require(SungInterval("M3"))
        #expect(abs(m3.target(from: 400, tuning: .just) - 500) < 1e-9)
        #expect(abs(m3.target(from: 440, tuning: .equal) - 440 * pow(2, 4.0 / 12)) < 1e-9)
        let down = try #require(SungInterval("P5down"))
        #expect(abs(down.target(from: 300, tuning: .just) - 200) < 1e-9)
        #expect(SungInterval("X9") == nil)
    }

    @Test("two sung notes in a recording: split on silence, each note's held pitch")
    func sungNotes() throws {
        let rate = 16000.0
        var samples = [Float](repeating: 0, count: Int(rate * 0.4))
        for f0 in [220.0, 330.0] {
            // Vibrato ±30 cents at 5.5 Hz around f0 (small-deviation phase), a second harmonic.
            let omega: Double = 2 * .pi * 5.5
            let depth: Double = 30 * log(2) / 1200
            for i in 0..<Int(rate * 1.2) {
                let t = Double(i) / rate
                let phase: Double = f0 * (t + depth * (1 - cos(omega * t)) / omega)
                let v: Double = 0.3 * sin(2 * .pi * phase) + 0.1 * sin(4 * .pi * phase)
                samples.append(Float(v))
            }
            samples += [Float](repeating: 0, count: Int(rate * 0.5))
        }
        let notes = SungNotes.split(samples, rate: rate)
        #expect(notes.count == 2)
        let tracker = try PitchTracker(sampleRate: rate)
        for (k, f0) in [220.0, 330.0].enumerated() where k < notes.count {
            let sung = try #require(SungNotes.stablePitch(Array(samples[notes[k]]), tracker: tracker))
            #expect(abs(1200 * log2(sung.frequency / f0)) < 2)
            #expect(sung.stableMilliseconds > 500)
        }
    }
}
