import CAudioEngine
import Foundation
import Testing

@testable import PixelBoopCore

/// `play --sync midi`: the transport following a MIDI clock, fed the messages its process callback
/// would report (each with its engine frame) on ALSA's null device (no sound card, no MIDI port;
/// the playback thread paces the engine by the system clock, and an ALSA playback holds no engine
/// frame, so the run plays as soon as its frames come).
@Suite("PatternTransport+Clock: the music following a MIDI clock")
struct PatternTransportClockTests {
    /// A step on every one of 16 steps, so each queued step shows as a note-on.
    static let song = Song(
        name: "c", bpm: 90,
        patterns: [SongPattern(name: "A", length: 16, tracks: [.melody: (0..<16).map { SongNote(step: $0, pitch: 60 + $0) }])])

    static func transport() throws -> PatternTransport {
        var route = AudioRoute(device: "null")
        route.followMidiClock = true
        return try PatternTransport(song: song, route: route, sampleRate: 48000)
    }

    static func event(_ kind: boop_transport_kind, _ frame: UInt64, request: UInt32 = 0, position: UInt32 = 0)
        -> boop_transport_event
    {
        var e = boop_transport_event()
        e.kind = kind
        e.engine_frame = frame
        e.request = request
        e.prepared = 1
        e.song_position = position
        return e
    }

    /// The note-ons handed to the engine: step and frame.
    static func noteOns(_ log: [SongEvent]) -> [(step: Int, frame: UInt64)] {
        log.compactMap { e in
            guard case .noteOn = e.action else { return nil }
            return (e.step, e.frame)
        }
    }

    @Test("a steady clock at 120 BPM (1000 frames a clock at 48 kHz): each step on its own clock's frame, one step ahead")
    func steadyClock() throws {
        let t = try Self.transport()
        t.sync.locked { $0.scheduledLog = [] }
        try t.start()
        // Following: the sound opens and the music waits for the clock.
        #expect(t.state == .paused)
        // Start ahead of the engine (by 0.3 s at least: the lock may be taken late on a loaded
        // machine), after 24 clocks that give the period.
        let start = max(t.frameClock + 14400, 30000)
        try t.sync.locked { (s: inout PatternTransport.Shared) throws(AudioError) -> Void in
            for k in 0..<24 { try s.followClock(Self.event(BOOP_TRANSPORT_CLOCK, start - 500 - UInt64(23 - k) * 1000)) }
            try s.followClock(Self.event(BOOP_TRANSPORT_START, start, request: 1))
            #expect(s.state == .playing && s.stepLimit == 2)
            // Clocks 0 ... 18: steps 0 ... 3 have had their clocks, step 4 is predicted from step 3's.
            for k in 0...18 { try s.followClock(Self.event(BOOP_TRANSPORT_CLOCK, start + UInt64(k) * 1000)) }
            #expect(s.stepLimit == 5 && s.clockFollower?.clock == 18)
        }
        let deadline = Date().addingTimeInterval(30)   // a limit for a loaded machine, not a delay
        func done() -> Bool { t.sync.locked { $0.nextStep >= 5 && $0.engine.frameClock > start + 5 * 6000 } }
        while !done() && Date() < deadline { usleep(2000) }
        #expect(done())
        let log = t.sync.locked { $0.scheduledLog ?? [] }
        let ons = Self.noteOns(log)
        #expect(ons.map(\.step) == [0, 1, 2, 3, 4])
        #expect(ons.map(\.frame) == (0..<5).map { start + UInt64($0) * 6000 })
        // Held at the step limit: no step without its clock.
        #expect(t.sync.locked { $0.nextStep == 5 && $0.heldAtStepLimit })
        // Stop: the music pauses, nothing queued; a clock while stopped does not start it.
        try t.sync.locked { (s: inout PatternTransport.Shared) throws(AudioError) -> Void in
            try s.followClock(Self.event(BOOP_TRANSPORT_MIDI_STOP, s.engine.frameClock))
            try s.followClock(Self.event(BOOP_TRANSPORT_CLOCK, s.engine.frameClock + 1000))
            #expect(s.state == .paused && s.pending.isEmpty)
            #expect(s.clockFollower.map { !$0.running && !$0.armed } == true)
        }
        try t.stop()
    }

    @Test("a Song Position Pointer, then Continue: the music resumes on that step at the Continue's frame")
    func songPosition() throws {
        let t = try Self.transport()
        try t.start()
        let at = t.frameClock + 48000
        try t.sync.locked { (s: inout PatternTransport.Shared) throws(AudioError) -> Void in
            try s.followClock(Self.event(BOOP_TRANSPORT_SONG_POSITION, at - 10, position: 6))
            #expect(s.clockFollower?.clock == 35)
            try s.followClock(Self.event(BOOP_TRANSPORT_CONTINUE, at, request: 2))
            // No clocks before it: no period yet, so only this step until the next clock.
            #expect(s.state == .playing && s.stepLimit == 7)
            #expect(s.sequencer.frame(ofStep: 6) == at)
            #expect(s.nextStep == 6)
            // While running, a Song Position Pointer moves nothing.
            try s.followClock(Self.event(BOOP_TRANSPORT_CLOCK, at))
            try s.followClock(Self.event(BOOP_TRANSPORT_SONG_POSITION, at + 10, position: 0))
            #expect(s.clockFollower?.clock == 36)
        }
        try t.stop()
    }

    @Test("without a MIDI clock to follow, its messages change nothing")
    func notFollowing() throws {
        let t = try PatternTransport(song: Self.song, route: AudioRoute(device: "null"), sampleRate: 48000)
        try t.sync.locked { (s: inout PatternTransport.Shared) throws(AudioError) -> Void in
            try s.followClock(Self.event(BOOP_TRANSPORT_START, s.engine.frameClock + 48000, request: 1))
            #expect(s.state == .ready && s.clockFollower == nil && s.stepLimit == nil)
        }
        #expect(!t.sync.locked { $0.heldAtStepLimit })
    }
}
