import CAudioEngine
import Foundation
import Testing

@testable import PixelBoopCore

/// `play --sync jack`'s side that needs no JACK server, on ALSA's null device (no sound card; no
/// transport changes ever arrive there): the tempo range an outside tempo is held to, the music
/// waiting for the transport, the transport polled every 5 ms, and what a pause (`halt`) drops.
@Suite("PatternTransport+Sync: waiting for and halting with an outside transport")
struct PatternTransportSyncTests {
    static let song = Song(
        name: "y", bpm: 120,
        patterns: [SongPattern(name: "A", length: 8, tracks: [.melody: (0..<8).map { SongNote(step: $0, pitch: 60 + $0) }])])

    static func transport(jack: Bool = true) throws -> PatternTransport {
        var route = AudioRoute(device: "null")
        if jack { route.followTransport = true } else { route.followMidiClock = true }
        return try PatternTransport(song: song, route: route, sampleRate: 48000)
    }

    @Test("an outside tempo is held within the tempo range")
    func clamp() {
        #expect(PatternTransport.clampBPM(10) == Song.bpmRange.lowerBound)
        #expect(PatternTransport.clampBPM(999) == Song.bpmRange.upperBound)
        #expect(PatternTransport.clampBPM(133.5) == 133.5)
    }

    @Test("following: start opens the sound and waits, paused, polling the transport every 5 ms")
    func waits() throws {
        let t = try Self.transport()
        // Not started: the transport is not read.
        #expect(t.sync.locked { $0.scheduleDue() } ?? 0 <= PatternTransport.transportPollSeconds)
        try t.start()
        #expect(t.state == .paused && t.sync.locked { $0.soundOpen && $0.nextStep == 0 })
        let wait = try #require(t.sync.locked { $0.scheduleDue() })
        #expect(wait <= PatternTransport.transportPollSeconds)
        // No transport change came: still waiting, nothing queued.
        try t.sync.locked { (s: inout PatternTransport.Shared) throws(AudioError) -> Void in try s.followTransport() }
        #expect(t.state == .paused && t.sync.locked { $0.pending.isEmpty && $0.nextStep == 0 })
        try t.stop()
        #expect(t.state == .stopped)
    }

    @Test("halt while playing drops what is queued and pauses; while not playing it changes nothing")
    func halt() throws {
        let t = try Self.transport(jack: false)
        try t.start()
        try t.sync.locked { (s: inout PatternTransport.Shared) throws(AudioError) -> Void in
            try s.halt()
            #expect(s.state == .paused)
            // A MIDI Start 20 ms ahead puts the music on (PatternTransport+Clock): its first step
            // is within the 40 ms lookahead, queued, its note-off still pending. The engine's clock
            // runs on meanwhile: a test thread held up past those 20 ms (a loaded machine) finds
            // the Start too late to hold, and the transport rightly stays paused. Only then is the
            // Start sent again, at most 5 times.
            for _ in 0..<5 {
                var start = boop_transport_event()
                (start.kind, start.engine_frame, start.request) = (BOOP_TRANSPORT_START, s.engine.frameClock + 960, 1)
                try s.followClock(start)
                if s.state == .playing { break }
                #expect(s.engine.frameClock > start.engine_frame, "paused although the Start was still ahead")
            }
            #expect(s.state == .playing && s.nextStep == 1 && !s.pending.isEmpty)
            try s.halt()
            #expect(s.state == .paused && s.pending.isEmpty)
        }
        try t.stop()
    }
}
