import Foundation
import Testing

@testable import PixelBoopCore

/// The pitch tracker as Swift drives it: 64 ms windows and 10 ms hops at any rate it accepts, a
/// frame for every hop of a signal (the undecided ones flushed at its end), a sung-range sine's
/// pitch to a fraction of a cent, silence unvoiced, and a rate outside its range refused.
@Suite("PitchTracker")
struct PitchTrackerTests {
    static func sine(_ hz: Double, seconds: Double, rate: Double) -> [Float] {
        (0..<Int(seconds * rate)).map { Float(0.4 * sin(2 * Double.pi * hz * Double($0) / rate)) }
    }

    @Test("windows of at least 64 ms in powers of two, hops of 10 ms", arguments: [16000.0, 44100.0, 48000.0, 96000.0])
    func geometry(rate: Double) throws {
        let tracker = try PitchTracker(sampleRate: rate)
        #expect(Double(tracker.windowFrames) >= 0.064 * rate)
        #expect(Double(tracker.windowFrames) < 0.128 * rate)
        #expect(tracker.windowFrames & (tracker.windowFrames - 1) == 0)
        #expect(tracker.hopFrames == Int((rate / 100).rounded()))
    }

    @Test("one frame per hop, in order, each index its hop", arguments: [110.0, 220.0, 440.0, 880.0])
    func frames(hz: Double) throws {
        let tracker = try PitchTracker(sampleRate: 48000)
        let frames = tracker.track(Self.sine(hz, seconds: 1, rate: 48000))
        #expect(frames.map(\.index) == Array(0..<100))
        // Away from the ends (half a window of silence padded each side), the pitch within 1 cent.
        for f in frames[10..<90] {
            #expect(f.frequency > 0, "frame \(f.index) unvoiced")
            #expect(abs(1200 * log2(f.frequency / hz)) < 1, "frame \(f.index): \(f.frequency) Hz")
            #expect(f.voicedProbability > 0.5)
        }
    }

    @Test("silence is unvoiced; tracking again starts afresh")
    func silence() throws {
        let tracker = try PitchTracker(sampleRate: 48000)
        let quiet = tracker.track([Float](repeating: 0, count: 24000))
        #expect(quiet.count == 50)
        #expect(quiet.allSatisfy { $0.frequency == 0 })
        let again = tracker.track(Self.sine(330, seconds: 0.5, rate: 48000))
        #expect(again.first?.index == 0)
        #expect(abs(1200 * log2(again[25].frequency / 330)) < 1)
    }

    @Test("a rate outside the tracker's range is refused with the range")
    func rates() {
        #expect(
            throws: AudioError.invalidConfiguration("pitch tracker at 1000.0 Hz: expected \(Limits.text(Limits.pitchRate)) Hz")
        ) {
            try PitchTracker(sampleRate: 1000)
        }
    }
}
