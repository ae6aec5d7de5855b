import Foundation
import Testing

@testable import PixelBoopCore

/// The transport's shared state on ALSA's null device (no sound card; the playback thread paces
/// the engine by the system clock): the first step 20 ms after start, steps queued within the
/// lookahead only, pause and resume on the step after the one heard, and the fade that ends it.
@Suite("PatternTransport+Shared: start, scheduling, pause and the fade")
struct PatternTransportSharedTests {
    /// 60 BPM: a step is a quarter of a second (12000 frames at 48 kHz), far past the lookahead.
    static let slow = Song(
        name: "s", bpm: 60,
        patterns: [SongPattern(name: "A", length: 16, tracks: [.melody: (0..<16).map { SongNote(step: $0, pitch: 60 + $0) }])])

    static func transport(_ song: Song = Self.slow) throws -> PatternTransport {
        try PatternTransport(song: song, route: AudioRoute(device: "null"), sampleRate: 48000)
    }

    @Test("start: the first step 20 ms after the engine's clock, playing; a second start changes nothing")
    func start() throws {
        let t = try Self.transport()
        #expect(t.sync.locked { !$0.soundOpen })
        try t.start()
        let (queued, first, open) = t.sync.locked { ($0.queuedAtFrame, $0.startFrame, $0.soundOpen) }
        #expect(first == queued + 960 && open && t.state == .playing)
        try t.start()
        #expect(t.startFrame == first)
        try t.stop()
    }

    @Test("only the steps due within the lookahead are queued, each handed to the engine by its horizon")
    func lookahead() throws {
        let t = try Self.transport()
        t.sync.locked { $0.scheduledLog = [] }
        try t.start()
        t.sync.locked { s in
            let horizon = s.pending.horizon(clock: s.engine.frameClock)
            #expect(s.nextStep >= 1)
            #expect(s.sequencer.dueFrame(ofStep: s.nextStep - 1) < horizon)
            // A quarter-second step is never queued a whole step early.
            #expect(s.sequencer.dueFrame(ofStep: s.nextStep) + 12000 > horizon)
            #expect((s.scheduledLog ?? []).allSatisfy { $0.frame < horizon })
        }
        try t.stop()
    }

    @Test("pause drops what is queued, never past the steps queued; resume plays on from there 10 ms later")
    func pauseAndResume() throws {
        let t = try Self.transport()
        try t.setPaused(true)   // not playing: nothing
        #expect(t.state == .ready)
        try t.start()
        try t.setPaused(true)
        let (paused, next, pendingEmpty) = t.sync.locked { ($0.pausedAtStep, $0.nextStep, $0.pending.isEmpty) }
        #expect(t.state == .paused && paused <= next && paused >= 1 && pendingEmpty)
        let before = t.frameClock
        try t.setPaused(false)
        let after = t.frameClock
        #expect(t.state == .playing)
        let resumed = t.sync.locked { s in s.sequencer.frame(ofStep: paused) }
        #expect((before + 480...after + 480).contains(resumed))
        try t.stop()
    }

    @Test("the seconds heard count the frames played from the first step on, and stand while paused")
    func heardSeconds() throws {
        let t = try Self.transport()
        #expect(t.heardSeconds == 0)
        try t.start()
        let start = t.startFrame
        // Each count lies between the audible frames read just before and just after it.
        func heard(within check: (UInt64, UInt64, UInt64) -> Bool) -> Bool {
            let before = t.audibleFrame
            let frames = UInt64((t.heardSeconds * 48000).rounded())
            return check(before, frames, t.audibleFrame)
        }
        #expect(PatternTransportAuditionTests.eventually { t.audibleFrame > start + 4800 })
        #expect(heard { a, h, b in h + start >= a && h + start <= b })
        try t.setPaused(true)
        let held = t.heardSeconds
        let pausedAt = t.audibleFrame
        #expect(PatternTransportAuditionTests.eventually { t.audibleFrame > pausedAt + 4800 })
        #expect(t.heardSeconds == held)
        try t.setPaused(false)
        let resumedAt = t.audibleFrame
        #expect(PatternTransportAuditionTests.eventually { t.audibleFrame > resumedAt + 4800 })
        // The pause left out: what was held, and no more than the frames since the resume.
        #expect(
            heard { a, h, b in
                h >= UInt64((held * 48000).rounded()) + a - resumedAt - 1
                    && h + resumedAt <= b + UInt64((held * 48000).rounded()) + 1
            })
        try t.stop()
    }

    @Test("stop fades out: nothing queued, the scheduling thread's step ends, a scheduling error is told by tick")
    func fadeAndErrors() throws {
        let t = try Self.transport()
        try t.start()
        t.sync.locked { $0.schedulingError = .deviceLost("the engine's queue went away") }
        // The scheduling thread waits its longest while an error stands, and queues nothing.
        #expect(t.sync.locked { $0.scheduleDue() } == SchedulingThread.maxSleepSeconds)
        #expect(throws: AudioError.deviceLost("the engine's queue went away")) { try t.tick() }
        t.sync.locked { $0.schedulingError = nil }
        let clock = t.frameClock
        let heardAt = t.sync.locked { $0.fadeOut() }
        #expect(heardAt >= clock + 960)
        #expect(t.state == .stopped && t.sync.locked { $0.pending.isEmpty && $0.auditions.isEmpty })
        #expect(t.sync.locked { $0.scheduleDue() } == nil)
        try t.stop()
    }

    @Test("a version-1 pattern follows an outside tempo; a song keeps its chain's")
    func followsTempo() throws {
        let pattern = try Self.transport(Song(version1: Song(name: "p")))
        #expect(pattern.sync.locked { $0.followsTempo })
        let song = try Self.transport()
        #expect(!song.sync.locked { $0.followsTempo })
        // Reopening is for a lost device only: none before the sound is open.
        #expect(try song.reopenDevice() == false)
    }
}
