import Foundation
import Testing

@testable import PixelBoopCore

@Suite("EventScheduler")
struct EventSchedulerTests {
    struct E: FrameStamped, Equatable {
        let frame: UInt64
        let tag: Int
    }

    @Test("flushes in order only what lies before the horizon")
    func horizon() throws {
        var s = EventScheduler<E>(lookahead: 100)
        s.append(contentsOf: [E(frame: 10, tag: 0), E(frame: 150, tag: 1), E(frame: 400, tag: 2)])
        var sent: [Int] = []
        #expect(s.horizon(clock: 100) == 200)
        try s.flush(before: s.horizon(clock: 100)) { sent.append($0.tag) }
        #expect(sent == [0, 1])
        #expect(s.nextFrame == 400)
        #expect(s.count == 1)
        try s.flush(before: 401) { sent.append($0.tag) }
        #expect(sent == [0, 1, 2])
        #expect(s.isEmpty && s.nextFrame == nil)
    }

    @Test("a full engine queue keeps the rest pending, never sends one twice")
    func backPressure() throws {
        var s = EventScheduler<E>()
        s.append(contentsOf: (0..<5).map { E(frame: UInt64($0), tag: $0) })
        var sent: [Int] = []
        let n = try s.flush(before: 100) { (e: E) throws(AudioError) in
            if sent.count == 2 { throw AudioError.queueFull("test") }
            sent.append(e.tag)
        }
        #expect(n == 2 && s.count == 3)
        try s.flush(before: 100) { sent.append($0.tag) }
        #expect(sent == [0, 1, 2, 3, 4])
    }

    @Test("another error is thrown; what was sent before it stays sent")
    func otherErrors() {
        var s = EventScheduler<E>()
        s.append(contentsOf: (0..<3).map { E(frame: UInt64($0), tag: $0) })
        #expect(throws: AudioError.self) {
            try s.flush(before: 100) { (e: E) throws(AudioError) in
                if e.tag == 1 { throw AudioError.invalidConfiguration("test") }
            }
        }
        #expect(s.nextFrame == 1)
    }

    @Test("add keeps engine order, and on a tie what was pending first goes first")
    func addSorts() throws {
        var s = EventScheduler<E>()
        s.append(contentsOf: [E(frame: 5, tag: 0), E(frame: 20, tag: 1)])
        try s.flush(before: 6) { _ in }
        s.add([E(frame: 20, tag: 2), E(frame: 10, tag: 3)], order: { $0.frame < $1.frame })
        var sent: [Int] = []
        try s.flush(before: 100) { sent.append($0.tag) }
        #expect(sent == [3, 1, 2])
    }

    @Test("live: the time until the next event comes within the lookahead, from the engine clock")
    func due() {
        var s = EventScheduler<E>(lookahead: 441)
        #expect(s.secondsUntilDue(clock: 0, sampleRate: 44100) == nil)
        s.append(contentsOf: [E(frame: 44100 + 441, tag: 0)])
        #expect(s.secondsUntilDue(clock: 0, sampleRate: 44100) == 1.0)
        #expect(s.secondsUntilDue(clock: 44100, sampleRate: 44100) == 0)
        #expect(s.secondsUntilDue(clock: 50000, sampleRate: 44100) == 0)
    }
}
