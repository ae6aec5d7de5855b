import Foundation
import Testing

@testable import PixelBoopCore

/// Notes found in a recording and the stable pitch of each: sung-like signals built here (a sine
/// with a scoop into the note and a 5.5 Hz vibrato) are split where they are silent and measured
/// to within a few cents of the centre they were built around.
@Suite("SungNotes")
struct SungNotesTests {
    static let rate = 48000.0

    /// A tone of `seconds` at `hz` with an optional vibrato (cents each side) and a scoop from
    /// `scoop` cents below over its first 80 ms.
    static func note(_ hz: Double, seconds: Double, vibrato: Double = 0, scoop: Double = 0, level: Float = 0.3) -> [Float] {
        var phase = 0.0
        return (0..<Int(seconds * rate)).map { i in
            let t = Double(i) / rate
            let cents = vibrato * sin(2 * .pi * 5.5 * t) - scoop * max(0, 1 - t / 0.08)
            phase += hz * pow(2, cents / 1200) / rate
            return level * Float(sin(2 * .pi * phase))
        }
    }

    static func silence(_ seconds: Double) -> [Float] {
        var rng = SeededGenerator(seed: 3)
        return (0..<Int(seconds * rate)).map { _ in Float.random(in: -0.001...0.001, using: &rng) }
    }

    @Test("notes apart by more than the gap are split at their edges, to within a hop")
    func split() {
        let signal =
            Self.silence(0.3) + Self.note(220, seconds: 0.5) + Self.silence(0.5) + Self.note(330, seconds: 0.7)
            + Self.silence(0.4) + Self.note(440, seconds: 0.3) + Self.silence(0.2)
        let notes = SungNotes.split(signal, rate: Self.rate)
        let expected = [(0.3, 0.8), (1.3, 2.0), (2.4, 2.7)]
        #expect(notes.count == 3)
        for (note, (from, to)) in zip(notes, expected) {
            #expect(abs(Double(note.lowerBound) / Self.rate - from) <= 0.011)
            #expect(abs(Double(note.upperBound) / Self.rate - to) <= 0.011)
        }
    }

    @Test("a gap shorter than minGap joins two notes; a blip under 0.1 s is no note")
    func joinsAndDrops() {
        let joined = Self.note(220, seconds: 0.4) + Self.silence(0.2) + Self.note(220, seconds: 0.4)
        #expect(SungNotes.split(joined, rate: Self.rate).count == 1)
        #expect(SungNotes.split(joined, rate: Self.rate, minGap: 0.1).count == 2)
        let blip = Self.silence(0.5) + Self.note(220, seconds: 0.05) + Self.silence(0.5) + Self.note(220, seconds: 0.4)
        #expect(SungNotes.split(blip, rate: Self.rate).count == 1)
    }

    @Test("a recording with no level above its floor has no notes")
    func noNotes() {
        #expect(SungNotes.split(Self.silence(1), rate: Self.rate).isEmpty)
        #expect(SungNotes.split([], rate: Self.rate).isEmpty)
    }

    @Test("the stable pitch of a scooped note with vibrato is its centre, within 3 cents", arguments: [110.0, 220.0, 392.0])
    func stablePitch(hz: Double) throws {
        let tracker = try PitchTracker(sampleRate: Self.rate)
        let sung = try #require(SungNotes.stablePitch(Self.note(hz, seconds: 1.2, vibrato: 40, scoop: 150), tracker: tracker))
        #expect(abs(1200 * log2(sung.frequency / hz)) < 3)
        #expect(sung.stableMilliseconds >= SungNotes.minimumSteadyMilliseconds)
        #expect(sung.stableMilliseconds <= 1200)
        #expect(!sung.curve.isEmpty)
    }

    @Test("a note shorter than a vibrato cycle's steady part has no stable pitch")
    func tooShort() throws {
        let tracker = try PitchTracker(sampleRate: Self.rate)
        #expect(SungNotes.stablePitch(Self.note(220, seconds: 0.15), tracker: tracker) == nil)
        #expect(SungNotes.stablePitch(Self.silence(1), tracker: tracker) == nil)
    }

    @Test("the vibrato fit finds the centre of a part cycle that the plain mean misses")
    func vibratoCentre() {
        // 0.3 s of 5.5 Hz: 1.65 cycles, so the plain mean is pulled by the part cycle.
        let part = (0..<30).map { k -> (t: Double, c: Double) in
            let t = Double(k) * 0.01
            return (t, 10 + 40 * sin(2 * .pi * 5.5 * t))
        }
        let plain = part.reduce(0) { $0 + $1.c } / Double(part.count)
        #expect(abs(plain - 10) > 3)
        #expect(abs(SungNotes.vibratoCentre(part) - 10) < 0.5)
    }

    @Test("the linear solver and the median")
    func helpers() throws {
        var a: [[Double]] = [[2, 1, 5], [1, 3, 10]]   // 2x + y = 5, x + 3y = 10
        let x = try #require(SungNotes.solve(&a, 2))
        #expect(abs(x[0] - 1) < 1e-12 && abs(x[1] - 3) < 1e-12)
        var singular: [[Double]] = [[1, 2, 3], [2, 4, 6]]
        #expect(SungNotes.solve(&singular, 2) == nil)
        #expect(SungNotes.median([3, 1, 2]) == 2)
        #expect(SungNotes.median([4, 1, 3, 2]) == 2.5)
        #expect(SungNotes.median([]) == 0)
    }
}
