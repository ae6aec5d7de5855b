import Foundation
import Testing

@testable import PixelBoopCore

/// The mains-hum notches: 50 and 60 Hz taken out, a voice's range (E2, 82 Hz, and up) passed at
/// unity, measured on sines after the notches have settled.
@Suite("HumFilter")
struct HumFilterTests {
    static let rate = 48000.0

    /// The RMS of the last second of two seconds of a unit sine at `hz`, filtered, over its input's.
    static func gain(_ hz: Double) -> Double {
        let n = Int(2 * rate)
        let x: [Float] = (0..<n).map { (i: Int) -> Float in Float(sin(2 * Double.pi * hz * Double(i) / rate)) }
        let y = HumFilter.apply(x, sampleRate: rate)
        let squares: Double = y[(n / 2)...].reduce(0.0) { (sum: Double, v: Float) -> Double in sum + Double(v) * Double(v) }
        let tail = squares / Double(n / 2)
        return sqrt(tail) / sqrt(0.5)
    }

    @Test("50 and 60 Hz are notched by more than 40 dB")
    func notches() {
        for hz in HumFilter.frequencies { #expect(20 * log10(Self.gain(hz)) < -40, "\(hz) Hz") }
    }

    /// The loss two 8 Hz wide notches at 50 and 60 Hz leave at a voice's lowest note, E2 (82 Hz):
    /// |f^2 - f0^2| / sqrt((f^2 - f0^2)^2 + (B f)^2) for each is 0.28 dB together; less above.
    @Test(
        "a voice's notes pass: under 0.3 dB lost at E2, under 0.1 dB from A2 up",
        arguments: [
            82.4, 110.0, 220.0, 440.0, 1000.0, 5000.0
        ])
    func passes(hz: Double) {
        let loss = -20 * log10(Self.gain(hz))
        #expect(loss < (hz < 100 ? 0.3 : 0.1))
        #expect(loss > -0.05)   // no boost either
    }

    @Test("the notches are narrow: 40 and 72 Hz lose under 3 dB")
    func narrow() {
        for hz in [40.0, 72.0] { #expect(20 * log10(Self.gain(hz)) > -3, "\(hz) Hz") }
    }

    @Test("filtering in pieces carries the state: the same samples as at once")
    func streaming() {
        let x: [Float] = (0..<4800).map { (n: Int) -> Float in
            let t = Double(n)
            let hum: Double = sin(2 * Double.pi * 50 * t / Self.rate)
            return Float(hum + 0.3 * sin(t * 0.05))
        }
        var filter = HumFilter(sampleRate: Self.rate)
        var pieces: [Float] = filter.process(Array(x[..<1000]))
        pieces += filter.process(Array(x[1000..<3333]))
        pieces += filter.process(Array(x[3333...]))
        #expect(pieces == HumFilter.apply(x, sampleRate: Self.rate))
    }
}
