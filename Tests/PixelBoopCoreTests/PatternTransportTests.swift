import Foundation
import Testing

@testable import PixelBoopCore

/// The live transport's lifecycle on ALSA's null device (present on every machine; the playback
/// thread paces it by the system clock, so a loop of a short fast pattern plays in about a second).
@Suite("PatternTransport")
struct PatternTransportTests {
    static let pattern = Song(
        name: "T", bpm: 200, length: 8,
        tracks: [
            .melody: (0..<8).map { SongNote(step: $0, pitch: 60 + $0) }
        ])

    @Test("plays the requested loops, finishes, stops; pause and resume on the way")
    func lifecycle() throws {
        let t = try PatternTransport(pattern: PatternTransportTests.pattern, device: "null", loops: 2)
        #expect(t.state == .ready)
        try t.start()
        #expect(t.state == .playing)
        try t.setPaused(true)
        #expect(t.state == .paused)
        try t.setPaused(true)   // idempotent
        try t.setPaused(false)
        #expect(t.state == .playing)
        t.setBPM(500)   // clamped to the pattern range
        #expect(t.playingSong.bpm == Song.bpmRange.upperBound)
        let deadline = Date().addingTimeInterval(120)   // a limit for a loaded machine, not a delay
        while t.state == .playing && Date() < deadline {
            try t.tick()
            usleep(UInt32(t.secondsUntilDue() * 1_000_000))
        }
        #expect(t.state == .finished)
        #expect(t.audibleStep >= 16)
        let stats = try t.stop()
        #expect(t.state == .stopped)
        #expect(stats.error == nil)
        #expect(t.droppedEvents == 0)
    }

    @Test("pausing after the null device drained past the last step resumes and finishes")
    func pauseAfterDrainingAhead() throws {
        let t = try PatternTransport(pattern: PatternTransportTests.pattern, device: "null", loops: 1)
        try t.start()
        usleep(300_000)   // the null device runs up to 0.1 s ahead of real time, past queued steps
        try t.setPaused(true)
        try t.setPaused(false)
        t.setBPM(Song.bpmRange.upperBound)
        let deadline = Date().addingTimeInterval(120)   // a limit for a loaded machine, not a delay
        while t.state == .playing && Date() < deadline {
            try t.tick()
            usleep(UInt32(t.secondsUntilDue() * 1_000_000))
        }
        #expect(t.state == .finished)
        try t.stop()
    }

    @Test(
        "the steps are queued by the transport's own thread: a command loop that never ticks (blocked in a write) stops nothing")
    func schedulesWithoutTicks() throws {
        let t = try PatternTransport(pattern: PatternTransportTests.pattern, device: "null", loops: 3)
        try t.start()
        // No tick() from here on; the null device plays on (paced by the system clock).
        let deadline = Date().addingTimeInterval(120)   // a limit for a loaded machine, not a delay
        while t.scheduledSteps < 24 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(t.scheduledSteps == 24)
        #expect(t.droppedEvents == 0)
        try t.stop()
    }

    @Test("a device that does not exist is deviceUnavailable")
    func missingDevice() {
        #expect(throws: AudioError.self) {
            try PatternTransport(pattern: PatternTransportTests.pattern, device: "hw:97,0")
        }
    }

    @Test("reopenDevice leaves a device that still plays alone (only a lost one is reopened)")
    func reopenOnlyWhenLost() throws {
        let t = try PatternTransport(pattern: PatternTransportTests.pattern, device: "null", loops: 1)
        #expect(try t.reopenDevice() == false)   // sound not open yet
        try t.start()
        #expect(try t.reopenDevice() == false)   // playing: nothing to reconnect
        let deadline = Date().addingTimeInterval(20)
        while t.state == .playing && Date() < deadline {
            try t.tick()
            usleep(UInt32(t.secondsUntilDue() * 1_000_000))
        }
        #expect(t.state == .finished)
        #expect(try t.stop().error == nil)
    }
}
