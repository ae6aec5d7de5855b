import Foundation
import Testing

@testable import PixelBoopCore

/// A song through the live transport (the editor's loop with `G`, and `boop play` of a song) on
/// ALSA's null device: the events handed to the engine are, frame for frame, what a
/// `SongSequencer` (the timeline `render` uses) makes from the start frame.
@Suite("PatternTransport playing a song")
struct PatternTransportSongTests {
    /// Two patterns of different lengths, a chain with repeats and a tempo change, swing, a
    /// probability, a condition and a ratchet.
    static let song: Song = {
        var a = SongPattern(name: "A", length: 6, swing: 62)
        a.tracks[.melody] = [
            SongNote(step: 0, pitch: 60), SongNote(step: 1, pitch: 64, probability: 50),
            SongNote(step: 3, pitch: 67, velocity: .sustain, length: 2),
            SongNote(step: 5, pitch: 72, ratchet: 3)
        ]
        a.tracks[.rhythm] = [SongNote(step: 0, pitch: 36), SongNote(step: 2, pitch: 38, condition: .init(a: 1, b: 2))]
        var b = SongPattern(name: "B", length: 4)
        b.tracks[.bass] = [SongNote(step: 0, pitch: 36, length: 3), SongNote(step: 3, pitch: 43, velocity: .accent)]
        var bass = Instrument()
        bass.voice = Instrument.Voice(rawValue: "pluck")
        return Song(
            name: "t", bpm: 180, swing: 55, seed: 7, instruments: [.bass: bass], patterns: [a, b],
            chain: [
                ChainEntry(pattern: "A", repeats: 2), ChainEntry(pattern: "B", repeats: 2, bpm: 200), ChainEntry(pattern: "A")
            ])
    }()

    /// Waits until every step is queued and handed to the engine (a limit for a loaded machine,
    /// not a delay; no `tick`, so the null device's clock cannot end the run first), then
    /// returns the events.
    static func played(_ t: PatternTransport, steps: Int) throws -> [SongEvent] {
        let deadline = Date().addingTimeInterval(120)
        func done() -> Bool { t.sync.locked { $0.nextStep >= steps && $0.pending.isEmpty } }
        while !done() && Date() < deadline { usleep(2000) }
        #expect(done(), "the transport queued \(t.scheduledSteps) of \(steps) steps in 120 s")
        try t.stop()
        return t.sync.locked { $0.scheduledLog ?? [] }
    }

    static func expected(_ t: PatternTransport, loops: Int) -> [SongEvent] {
        var s = SongSequencer(song: song, sampleRate: t.sampleRate, loops: loops, startFrame: t.startFrame)
        return s.events(forSteps: 0..<s.totalSteps!).sorted(by: SongEvent.playOrder)
    }

    @Test("boop play's path: a song given at init plays its chain, every event on the render timeline's frame")
    func songAtInit() throws {
        let t = try PatternTransport(song: PatternTransportSongTests.song, route: AudioRoute(device: "null"), loops: 2)
        #expect(t.totalSteps == 2 * (6 * 2 + 4 * 2 + 6))
        t.sync.locked { $0.scheduledLog = [] }
        try t.start()
        let got = try PatternTransportSongTests.played(t, steps: t.totalSteps!)
        #expect(got.count > 20)
        #expect(got == PatternTransportSongTests.expected(t, loops: 2))
    }

    @Test("the editor's path: playSong on a transport opened with a pattern, then the chain with its tempo change and groove")
    func playSongLater() throws {
        let t = try PatternTransport(song: Song(version1: Song(name: "p")), route: AudioRoute(device: "null"))
        t.playSong(PatternTransportSongTests.song)
        t.sync.locked { $0.scheduledLog = [] }
        try t.start()
        // An endless chain: 60 steps are more than two passes of it (26 steps each).
        let deadline = Date().addingTimeInterval(120)
        while t.scheduledSteps < 60 && Date() < deadline { usleep(2000) }
        #expect(t.scheduledSteps >= 60)
        let heard = t.heardPosition
        #expect(heard != nil)
        try t.stop()
        let got = t.sync.locked { $0.scheduledLog ?? [] }
        var s = SongSequencer(
            song: PatternTransportSongTests.song, sampleRate: t.sampleRate, loops: nil, startFrame: t.startFrame)
        let expected = s.events(forSteps: 0..<60).sorted(by: SongEvent.playOrder)
        #expect(got.count > 40)
        #expect(Array(expected.prefix(got.count)) == got || Array(got.prefix(expected.count)) == expected)
    }

    @Test("an edit while the song plays takes over from the next step queued, on the frame that step had")
    func replaceWhilePlaying() throws {
        var s = SongSequencer(song: PatternTransportSongTests.song, sampleRate: 48000, loops: nil, startFrame: 1000)
        _ = s.events(forSteps: 0..<10)
        let at = s.frame(ofStep: 10)
        var edited = PatternTransportSongTests.song
        edited.bpm = 90
        s.replaceSong(edited, fromStep: 10)
        #expect(s.frame(ofStep: 10) == at)
        let next = s.events(forSteps: 10..<11)
        if case .noteOn(_, _, _, let id, _)? = next.first(where: { !$0.isNoteOff })?.action { #expect(id > 1) }
        // Step 11 lies one 90 BPM step (or its swung part) after step 10, not a 180 BPM one.
        #expect(s.frame(ofStep: 11) - at > UInt64(48000 * 60 / (180 * 4)))
    }
}
