import Foundation
import Testing

@testable import PixelBoopCore

/// Tap-to-sound on ALSA's null device (no sound card; the playback thread paces the engine by the
/// system clock): a note sounds at once, with or without the loop, and the scheduling thread
/// releases it when its gate is over.
@Suite("PatternTransport+Audition: a tapped note sounds and ends")
struct PatternTransportAuditionTests {
    static func transport() throws -> PatternTransport {
        try PatternTransport(
            song: Song(name: "a", bpm: 120, patterns: [SongPattern(name: "A", length: 4)]), route: AudioRoute(device: "null"),
            sampleRate: 48000)
    }

    /// Waits for `condition` (a limit for a loaded machine, not a delay).
    static func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while !condition() && Date() < deadline { usleep(1000) }
        return condition()
    }

    @Test("a note sounds without the loop playing and is released at the end of its gate")
    func soundsAndEnds() throws {
        let t = try Self.transport()
        #expect(t.state == .ready)
        let engine = t.sync.locked { $0.engine }
        let before = t.frameClock
        try t.audition(pitch: 69, track: .melody, velocity: .normal, gate: 0.1)
        let after = t.frameClock
        // Its release is due one gate after the engine's clock when it was asked for.
        let release = try #require(t.sync.locked { $0.auditions.nextFrame })
        #expect((before + 4800...after + 4800).contains(release))
        #expect(Self.eventually { engine.activeVoices == 1 })
        // Released by the scheduling thread (no tick), then silent once its release has rung.
        #expect(Self.eventually { t.sync.locked { $0.auditions.isEmpty } })
        #expect(engine.frameClock >= release)
        #expect(Self.eventually { engine.activeVoices == 0 })
        #expect(t.state == .ready && t.droppedEvents == 0)
        try t.stop()
    }

    @Test("notes are numbered apart from the sequencer's, wrapping back to the first audition id")
    func ids() throws {
        let t = try Self.transport()
        try t.audition(pitch: 60, track: .bass, velocity: .accent, gate: 0.05)
        #expect(t.sync.locked { $0.nextAuditionID } == PatternTransport.auditionIDs + 1)
        t.sync.locked { $0.nextAuditionID = UInt32.max }
        try t.audition(pitch: 62, track: .chords, velocity: .normal, gate: 0.05)
        #expect(t.sync.locked { $0.nextAuditionID } == PatternTransport.auditionIDs)
        #expect(Self.eventually { t.sync.locked { $0.auditions.isEmpty } })
        try t.stop()
    }

    @Test("a shorter gate asked for later ends first; a drum has no gate to end")
    func gateOrder() throws {
        let t = try Self.transport()
        try t.openSound()
        try t.audition(pitch: 36, track: .rhythm, velocity: .normal)
        #expect(t.sync.locked { $0.auditions.isEmpty && $0.nextAuditionID == PatternTransport.auditionIDs })
        try t.audition(pitch: 60, track: .melody, velocity: .normal, gate: 5)
        try t.audition(pitch: 64, track: .melody, velocity: .normal, gate: 0.05)
        let (count, first) = t.sync.locked { ($0.auditions.count, $0.auditions.nextFrame) }
        #expect(count == 2)
        // The short gate's release is first in line, well before the long one's.
        #expect((first ?? .max) < t.frameClock + 48000)
        #expect(Self.eventually { t.sync.locked { $0.auditions.count == 1 } })
        // Stopping the loop drops the releases still waiting (the fade ends the notes).
        try t.start()
        try t.stopLoop()
        #expect(t.sync.locked { $0.auditions.isEmpty })
        try t.stop()
    }

    @Test("tap-to-sound: the render past a marked frame is noted, on the monotonic clock")
    func tapMark() throws {
        let t = try Self.transport()
        try t.openSound()
        let frame = t.frameClock
        t.markTap(frame: frame)
        try t.audition(pitch: 72, track: .melody, velocity: .normal, gate: 0.02)
        #expect(Self.eventually { t.renderedPast(frame: frame) != nil })
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let rendered = try #require(t.renderedPast(frame: frame))
        #expect(rendered > 0 && rendered <= Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)
        try t.stop()
    }
}
