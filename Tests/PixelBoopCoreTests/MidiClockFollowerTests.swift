import Testing

@testable import PixelBoopCore

@Suite("MIDI clock following")
struct MidiClockFollowerTests {
    /// A steady clock's frames, each rounded to a whole frame, as a sender on a frame clock sends them.
    private func clocks(_ count: Int, period: Double, from start: UInt64 = 1000) -> [UInt64] {
        (0..<count).map { start + UInt64((Double($0) * period + 0.5).rounded(.down)) }
    }

    @Test("the period averaged over 24 clocks is within 1/24 frame, and 6 clocks ahead within 1.25 frames")
    func periodBound() {
        for bpm in [61.0, 97.0, 110.0, 133.0, 151.5, 240.0] {
            let p0 = 48000 * 60 / (bpm * 24)
            let frames = clocks(200, period: p0)
            var f = MidiClockFollower()
            for (k, frame) in frames.enumerated() {
                f.recent.append(frame)
                if f.recent.count > MidiClockFollower.window + 1 { f.recent.removeFirst() }
                guard k >= 24, k + 6 < frames.count, let p = f.period else { continue }
                #expect(abs(p - p0) <= 1.0 / 24 + 1e-9)
                let predicted = frame + UInt64((6 * p + 0.5).rounded(.down))
                #expect(abs(Double(predicted) - Double(frames[k + 6])) <= 1)
            }
        }
    }

    @Test("a clock after a gap stands for the ones lost in it, spread evenly")
    func lostClocks() {
        var f = MidiClockFollower()
        f.recent = clocks(25, period: 1000)
        let last = f.recent.last!
        #expect(f.clocksArriving(at: last + 1000) == [last + 1000])
        #expect(f.clocksArriving(at: last + 3001) == [last + 1000, last + 2001, last + 3001])
        #expect(MidiClockFollower().clocksArriving(at: 5) == [5])
    }

    @Test("the period of the clocks before Start carries over the hold: 6 clocks ahead within 1 frame")
    func carriedPeriod() {
        for bpm in [61.0, 110.0, 133.0, 240.0] {
            let p0 = 48000 * 60 / (bpm * 24)
            var f = MidiClockFollower()
            for frame in clocks(40, period: p0) { f.idle(at: frame) }
            f.carryPeriod(to: f.recent.last! + UInt64(p0 / 2))
            #expect(f.carried != nil && f.recent.isEmpty)
            // After the hold the run's clocks come on other engine frames.
            let frames = clocks(60, period: p0, from: 900_000)
            for (k, frame) in frames.enumerated() {
                f.append(frame)
                guard k + 6 < frames.count, let p = f.period else { continue }
                #expect(abs(p - p0) <= 2.0 / 24 + 1e-9)
                let predicted = frame + UInt64((6 * p + 0.5).rounded(.down))
                #expect(abs(Double(predicted) - Double(frames[k + 6])) <= 1)
            }
        }
    }

    @Test("clocks that stopped for a while before Start give no period")
    func staleClocks() {
        var f = MidiClockFollower()
        for frame in clocks(30, period: 1000) { f.idle(at: frame) }
        f.carryPeriod(to: f.recent.last! + 5000)
        #expect(f.carried == nil && f.period == nil)
        for frame in clocks(30, period: 1000) { f.idle(at: frame) }
        f.idle(at: f.recent.last! + 10_000)
        #expect(f.recent.count == 1)
    }
}
