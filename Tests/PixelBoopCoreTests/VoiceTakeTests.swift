import Foundation
import Testing

@testable import PixelBoopCore

/// A voice in the recording: the capture's shift measured from a click heard back, and a sung
/// note placed on the engine's clock by the transcriber's rules.
struct VoiceTakeTests {
    static func tone(_ hz: Double, seconds: Double, rate: Double, level: Float) -> [Float] {
        (0..<Int(seconds * rate)).map { level * Float(cos(2 * Double.pi * hz * Double($0) / rate)) }
    }

    @Test func clickMeasuresTheShiftAndANoteLandsOnItsFrame() throws {
        let rate = 16000.0
        var take = VoiceTake(captureRate: rate, engineRate: 48000)
        var capture = [Float](repeating: 0, count: 20000)
        capture += Self.tone(1700, seconds: 0.03, rate: rate, level: 0.5)
        capture += [Float](repeating: 0, count: 32000 - capture.count)
        capture += Self.tone(220, seconds: 0.4, rate: rate, level: 0.3)
        capture += [Float](repeating: 0, count: 24000)
        let click: UInt64 = 1_000_000
        take.append(Array(capture[..<30000]))
        // The newest sample heard 300 engine frames late: the guess.
        take.guess(heardNow: click + UInt64((30000 - 20000) * 3 + 300))
        #expect(take.calibrate(clickAt: click) == .waiting)
        take.append(Array(capture[30000...]))
        #expect(take.calibrate(clickAt: click, within: 0.5) == .found(seconds: 0.00625))
        #expect(take.shift == Double(click) - 60000)
        let notes = take.takeNotes(with: Transcriber())
        #expect(notes.count == 1)
        let note = try #require(notes.first)
        #expect(abs(Double(note.on) - Double(click + 36000)) < 0.015 * 48000)
        #expect(abs(Double(note.off) - Double(click + 36000 + 19200)) < 0.03 * 48000)
        #expect(abs(note.midi - 57) < 0.1 && (1...127).contains(note.velocity))
        // Taken once.
        #expect(take.takeNotes(with: Transcriber()).isEmpty)
    }

    @Test func noClickBackAssumesTheBuffer() {
        var take = VoiceTake(captureRate: 16000, engineRate: 48000)
        take.append([Float](repeating: 0, count: 32000))
        take.guess(heardNow: 500_000)
        #expect(take.calibrate(clickAt: 400_000, within: 0.5) == .missing)
        take.assume(latency: 0.02)
        #expect(take.latency?.measured == false && take.shift == 500_000 - 96000 - 960)
    }
}
