import Foundation
import Testing

@testable import PixelBoopCore

/// The song's mix for auditions on ALSA's null device (no sound card): a track's level and
/// instrument reach the engine's sound, and an empty mix plays the version-1 timbres again.
@Suite("PatternTransport+Mix: the song's instruments and levels for auditions")
struct PatternTransportMixTests {
    static func transport() throws -> PatternTransport {
        try PatternTransport(
            song: Song(name: "m", patterns: [SongPattern(name: "A", length: 4)]), route: AudioRoute(device: "null"),
            sampleRate: 48000)
    }

    static func sine(level: Double) -> Instrument {
        var i = Instrument()
        i.voice = Instrument.Voice(rawValue: "sine")
        (i.attack, i.sustain, i.release) = (0.001, 1, 0.005)
        i.level = level
        return i
    }

    /// The loudest block the engine renders while an audition of `gate` seconds sounds (read as
    /// the blocks come: a limit for a loaded machine, not a delay), after the voice before it ended.
    static func loudest(_ t: PatternTransport, pitch: Int, gate: Double) throws -> Float {
        let engine = t.sync.locked { $0.engine }
        let deadline = Date().addingTimeInterval(20)
        while engine.activeVoices > 0 && Date() < deadline { usleep(1000) }
        try t.audition(pitch: pitch, track: .melody, velocity: .normal, gate: gate)
        var peak: Float = 0
        while !t.sync.locked({ $0.auditions.isEmpty }) && Date() < deadline {
            peak = max(peak, engine.peak)
            usleep(500)
        }
        return peak
    }

    @Test("only the tracks whose instrument is not the default one are in the mix; an empty map clears it")
    func mixKept() throws {
        let t = try Self.transport()
        try t.setMix([.melody: Instrument(), .bass: Self.sine(level: 0.5), .rhythm: Instrument()])
        #expect(t.sync.locked { $0.mix } == [.bass: Self.sine(level: 0.5)])
        try t.setMix([:])
        #expect(t.sync.locked { $0.mix }.isEmpty)
        try t.stop()
    }

    @Test("a track's level scales its auditions: a quarter of the level, a quarter of the peak")
    func levelReachesTheSound() throws {
        let t = try Self.transport()
        try t.openSound()
        try t.setMix([.melody: Self.sine(level: 1)])
        let full = try Self.loudest(t, pitch: 69, gate: 0.15)
        try t.setMix([.melody: Self.sine(level: 0.25)])
        let quarter = try Self.loudest(t, pitch: 69, gate: 0.15)
        #expect(full > 0.01)
        #expect(abs(quarter / full - 0.25) < 0.01, "full \(full), quarter \(quarter)")
        // The mix cleared: the melody's version-1 timbre at the velocity's gain sounds again.
        try t.setMix([:])
        #expect(try Self.loudest(t, pitch: 69, gate: 0.15) > quarter)
        try t.stop()
    }

    @Test("without a MIDI output, connecting one is refused as an error and a panic does nothing")
    func noMidiOut() throws {
        let t = try Self.transport()
        try t.openSound()
        #expect(throws: AudioError.self) { try t.connectMidiOut(to: "no-such-client:in") }
        t.sync.locked { $0.midiPanic() }
        #expect(t.sync.locked { $0.midi } == nil)
        try t.stop()
    }
}
