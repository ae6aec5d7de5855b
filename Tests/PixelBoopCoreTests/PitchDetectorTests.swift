import Foundation
import Testing

@testable import PixelBoopCore

private func sineWave(_ f: Double, rate: Double = 16000, frames: Int = 2048, amp: Float = 0.5) -> [Float] {
    (0..<frames).map { amp * Float(sin(2 * Double.pi * f * Double($0) / rate + 0.3)) }
}

@Suite("PitchDetector and signal levels")
struct PitchDetectorTests {
    @Test("YIN finds sines to well under a cent, names the note", arguments: [110.0, 261.63, 440.0, 987.77, 3000.0])
    func pitch(_ f: Double) throws {
        let d = try PitchDetector(sampleRate: 16000, windowFrames: 2048)
        let r = try #require(d.detect(sineWave(f)))
        #expect(abs(Pitch.cents(from: f, to: r.frequency)) < 0.1)
        #expect(r.confidence > 0.9)
        let expected = PitchDetector.nearestNote(to: f)
        #expect(r.note == expected.name)
    }

    @Test("silence and noise are unvoiced")
    func unvoiced() throws {
        let d = try PitchDetector(sampleRate: 16000)
        #expect(d.detect([Float](repeating: 0, count: 2048)) == nil)
        var rng = SystemRandomNumberGenerator()
        let noise = (0..<2048).map { _ in Float.random(in: -0.5...0.5, using: &rng) }
        #expect(d.detect(noise) == nil)
    }

    @Test("invalid detector shapes throw invalidConfiguration")
    func badDetector() {
        #expect(throws: AudioError.self) { try PitchDetector(sampleRate: 16000, windowFrames: 8) }
        #expect(throws: AudioError.self) { try PitchDetector(sampleRate: 16000, minFrequency: 900, maxFrequency: 100) }
    }

    @Test(
        "nearest note and cents",
        arguments: [
            (440.0, "A4", 69, 0.0), (261.6255653, "C4", 60, 0.0), (445.0, "A4", 69, 19.56),
            (27.5, "A0", 21, 0.0), (466.1637615, "A#4", 70, 0.0), (430.0, "A4", 69, -39.80)
        ])
    func nearestNote(_ c: (Double, String, Int, Double)) {
        let n = PitchDetector.nearestNote(to: c.0)
        #expect(n.name == c.1)
        #expect(n.midi == c.2)
        #expect(abs(n.cents - c.3) < 0.01)
    }

    @Test("levels: RMS and peak of a sine, dBFS")
    func levels() {
        let l = SignalLevel.measure(sineWave(440, amp: 0.5))
        #expect(abs(l.rms - 0.5 / 2.0.squareRoot()) < 0.002)
        #expect(abs(l.peak - 0.5) < 0.001)
        #expect(abs(SignalLevel.dbfs(1.0)) < 1e-9)
        #expect(SignalLevel.dbfs(0) == -120)
        #expect(SignalLevel.measure([]).rms == 0)
    }

    @Test("YIN: silence, then an A4 starting anywhere in a buffer: no reading far from A4 (not a C7 at the onset)")
    func onset() throws {
        let d = try PitchDetector(sampleRate: 16000, windowFrames: 2048)
        let tone = sineWave(440, frames: 3 * 2048)
        var readings = 0
        for onset in stride(from: 0, to: 2048, by: 32) {
            // The buffer holding the onset, then the first full one.
            let signal = [Float](repeating: 0, count: onset) + tone
            for start in [0, 2048] {
                guard let r = d.detect(Array(signal[start..<start + 2048])) else { continue }
                readings += 1
                #expect(abs(Pitch.cents(from: 440, to: r.frequency)) < 5, "onset \(onset): \(r.note) \(r.cents)")
            }
        }
        #expect(readings >= 64)   // every full buffer is read
    }
}
