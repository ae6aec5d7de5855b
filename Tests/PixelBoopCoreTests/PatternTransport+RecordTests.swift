import Foundation
import Testing

@testable import PixelBoopCore

/// Live recording's part of the transport: where a note played at an engine frame lands (the
/// nearest step and its offset), the count-in's clicks before the first step, and the metronome
/// on each beat of the pattern, on ALSA's null device (no sound card; paced by the system clock).
@Suite("PatternTransport+Record: count-in, metronome and a played note's position")
struct PatternTransportRecordTests {
    /// A (4 steps) twice, then B (3 steps): 11 steps; 120 BPM at 48 kHz is 6000 frames a step.
    static let song = Song(
        name: "r", bpm: 120, patterns: [SongPattern(name: "A", length: 4), SongPattern(name: "B", length: 3)],
        chain: [ChainEntry(pattern: "A", repeats: 2), ChainEntry(pattern: "B")])

    @Test("a frame's nearest step: its chain entry, pattern, step in the entry, pass and offset in steps")
    func position() throws {
        var s = SongSequencer(song: Self.song, sampleRate: 48000, loops: 1, startFrame: 1000)
        #expect(s.framesPerStep(atStep: 0) == 6000)
        let step5 = UInt64(1000 + 5 * 6000)
        #expect(
            s.position(atFrame: step5 + 1200)
                == PlayedPosition(entry: 0, pattern: 0, entryStep: 5, pass: 4, offset: 0.2, framesPerStep: 6000))
        // Past half a step: the next step, early. Exactly half way counts as the next one.
        #expect(s.position(atFrame: step5 + 4500).map { ($0.entryStep, $0.offset) } ?? (0, 0) == (6, -0.25))
        #expect(s.position(atFrame: step5 + 3000).map { ($0.entryStep, $0.offset) } ?? (0, 0) == (6, -0.5))
        // The second entry's first step: pattern B, its own pass.
        #expect(
            s.position(atFrame: UInt64(1000 + 8 * 6000))
                == PlayedPosition(entry: 1, pattern: 1, entryStep: 0, pass: 8, offset: 0, framesPerStep: 6000))
        // A little before the first step is the first step, late by nothing: early.
        #expect(s.position(atFrame: 1000 - 600)?.offset == -0.1)
        // The last step is 10; nearer the end than it: nil.
        #expect(s.position(atFrame: UInt64(1000 + 10 * 6000 + 2999))?.entryStep == 2)
        #expect(s.position(atFrame: UInt64(1000 + 10 * 6000 + 3000)) == nil)
    }

    /// A (8 steps: two beats) then B (3 steps), at 300 BPM: 2400 frames a step at 48 kHz, so a
    /// run with its count-in is heard within a second.
    static let fast = Song(
        name: "f", bpm: 300, patterns: [SongPattern(name: "A", length: 8), SongPattern(name: "B", length: 3)])

    static func transport(_ song: Song = Self.fast, loops: Int? = 1) throws -> PatternTransport {
        try PatternTransport(song: song, route: AudioRoute(device: "null"), sampleRate: 48000, loops: loops)
    }

    static func clicks(_ log: [SongEvent]) -> [(frame: UInt64, gain: Float)] {
        log.compactMap { e in
            guard case .drum(let key, let gain, let kit) = e.action, key == PatternTransport.clickKey,
                kit == PatternTransport.clickKit
            else { return nil }
            return (e.frame, gain)
        }
    }

    /// Waits until `steps` steps are handed to the engine (a limit for a loaded machine, not a delay).
    static func queued(_ t: PatternTransport, steps: Int) -> [SongEvent] {
        let deadline = Date().addingTimeInterval(60)
        func done() -> Bool { t.sync.locked { $0.nextStep >= steps && $0.pending.isEmpty } }
        while !done() && Date() < deadline { usleep(2000) }
        #expect(done())
        return t.sync.locked { $0.scheduledLog ?? [] }
    }

    @Test("a count-in: a click on each beat before the first step (the first louder), which moves on by as many beats")
    func countIn() throws {
        let t = try Self.transport()
        t.setClick(0.5)
        t.sync.locked { $0.scheduledLog = [] }
        #expect(t.countInClick == nil)
        try t.start(countInBeats: 2)
        let first = try #require(t.countInClick)
        let beat: UInt64 = 4 * 2400
        #expect(t.startFrame == first + 2 * beat)
        #expect(t.position(atFrame: t.startFrame)?.entryStep == 0)
        let log = Self.queued(t, steps: 11)
        try t.stop()
        let clicks = Self.clicks(log)
        // The count-in's two, then the metronome on each beat of a pattern: steps 0 and 4 of A,
        // and B's first step (8), each pattern's first step louder.
        #expect(clicks.map(\.frame) == [first, first + beat, t.startFrame, t.startFrame + beat, t.startFrame + 2 * beat])
        #expect(clicks.map(\.gain) == [0.5, 0.3, 0.5, 0.3, 0.5])
    }

    @Test("the metronome's level is kept within 0 ... 1; at 0 or off, neither count-in nor metronome clicks")
    func silentMetronome() throws {
        let t = try Self.transport()
        t.setClick(3)
        #expect(t.sync.locked { $0.click } == 1)
        t.setClick(-1)
        #expect(t.sync.locked { $0.click } == 0)
        t.sync.locked { $0.scheduledLog = [] }
        let before = t.frameClock
        try t.start(countInBeats: 1)
        // The count-in still takes its beat, silently.
        #expect(t.countInClick == nil && t.startFrame >= before + 4 * 2400)
        let log = Self.queued(t, steps: 11)
        try t.stop()
        #expect(Self.clicks(log).isEmpty)
    }

    @Test("no position while the music does not play; a note that arrived long ago was heard at frame 0 at the latest")
    func notPlaying() throws {
        let t = try Self.transport()
        #expect(t.position(atFrame: 0) == nil)
        try t.openSound()
        #expect(t.heardFrame(arrivalNanoseconds: 0) == 0)
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        // Arrived "later" than now (another clock's rounding): heard now.
        let future = (UInt64(now.tv_sec) + 5) * 1_000_000_000
        let heard = t.heardFrame(arrivalNanoseconds: future)
        #expect(heard <= t.audibleFrame)
        try t.stop()
    }
}
