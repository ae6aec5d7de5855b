import Foundation
import Testing

@testable import PixelBoopCore

/// The engine's instrument slots from Swift (AudioEngine+Instruments.swift): a track's instrument
/// reaches its slot (voice, pan), notes and kit hits are checked before they reach the engine,
/// and `prepare(song:)` sets the tracks that have an instrument of their own.
@Suite("AudioEngine instruments")
struct AudioEngineInstrumentsTests {
    static let frames = 8820

    /// A stereo engine; `frames` frames rendered after `setUp`, split into (left, right).
    static func stereo(_ setUp: (AudioEngine) throws -> Void) throws -> (left: [Float], right: [Float]) {
        let engine = try AudioEngine(configuration: EngineConfiguration(channels: 2))
        try setUp(engine)
        let x = try engine.render(frames: frames)
        return (stride(from: 0, to: x.count, by: 2).map { x[$0] }, stride(from: 1, to: x.count, by: 2).map { x[$0] })
    }

    static func instrument(pan: Double) -> Instrument {
        var i = Instrument()
        i.voice = .sine
        i.pan = pan
        return i
    }

    @Test("each track has its slot, in track order: melody 0, chords 1, bass 2, rhythm 3")
    func slots() {
        #expect(TrackKind.allCases.map(\.instrumentSlot) == [0, 1, 2, 3])
        #expect(TrackKind.rhythm.instrumentSlot == 3)
    }

    @Test("a track's pan reaches its slot: hard left is silent on the right, and the other way round")
    func pan() throws {
        for (pan, loud, quiet) in [(-1.0, 0, 1), (1.0, 1, 0)] {
            let out = try Self.stereo { e in
                try e.setInstrument(Self.instrument(pan: pan), for: .chords, at: 0)
                try e.instrumentNoteOn(id: 1, slot: TrackKind.chords.instrumentSlot, frequency: 440, gain: 0.5, at: 0)
            }
            let sides = [out.left, out.right]
            #expect(SignalAnalysis.peak(sides[loud], 441..<Self.frames) > 0.1)
            #expect(SignalAnalysis.peak(sides[quiet], 0..<Self.frames) < 1e-6)
        }
        let centre = try Self.stereo { e in
            try e.setInstrument(Self.instrument(pan: 0), for: .bass, at: 0)
            try e.instrumentNoteOn(id: 1, slot: TrackKind.bass.instrumentSlot, frequency: 220, gain: 0.5, at: 0)
        }
        #expect(centre.left == centre.right && SignalAnalysis.peak(centre.left, 441..<Self.frames) > 0.1)
    }

    @Test("the sine voice on a slot plays the frequency asked for")
    func frequency() throws {
        let out = try Self.stereo { e in
            try e.setInstrument(Self.instrument(pan: 0), for: .melody, at: 0)
            try e.instrumentNoteOn(id: 7, slot: 0, frequency: 440, gain: 0.5, at: 0)
        }
        let hz = SignalAnalysis.zeroCrossingFrequency(out.left, rate: 44100, range: 882..<Self.frames)
        #expect(abs(Pitch.cents(from: 440, to: hz)) < 1)
    }

    @Test("frequencies outside 0 ... Nyquist and keys outside MIDI's are refused before the engine")
    func refusals() throws {
        let engine = try AudioEngine()
        for hz in [0, -1, .nan, .infinity, 22050, 30000] {
            #expect(throws: AudioError.self, "\(hz) Hz") {
                try engine.instrumentNoteOn(id: 1, slot: 0, frequency: hz, gain: 1, at: 0)
            }
        }
        for key in [-1, 128] {
            #expect(throws: AudioError.self, "key \(key)") { try engine.kitHit(.gm, key: key, gain: 1, at: 0) }
        }
        try engine.kitHit(.gm, key: 36, gain: 1, at: 0)
        #expect(try engine.render(frames: 4410).contains { $0 != 0 })
    }

    @Test("prepare sets a track with an instrument of its own, and the 808 and chip kits' pan from the rhythm's")
    func prepare() throws {
        var song = Song(name: "p", patterns: [SongPattern(name: "A")])
        song.instruments[.melody] = Self.instrument(pan: -1)
        song.instruments[.rhythm] = Instrument()
        song.instruments[.rhythm]!.pan = 1
        let melody = try Self.stereo { e in
            try e.prepare(song: song, at: 0)
            try e.instrumentNoteOn(id: 1, slot: 0, frequency: 440, gain: 0.5, at: 0)
        }
        #expect(SignalAnalysis.peak(melody.right, 0..<Self.frames) < 1e-6)
        #expect(SignalAnalysis.peak(melody.left, 441..<Self.frames) > 0.1)
        // The 808 kit is panned as slot 3 (CAudioEngine.h, boop_engine_kit_hit); the GM kit is not.
        let kit808 = try #require(Instrument.Kit.allCases.first { $0.rawValue == "808" })
        let kick = try Self.stereo { e in
            try e.prepare(song: song, at: 0)
            try e.kitHit(kit808, key: 36, gain: 1, at: 0)
        }
        #expect(SignalAnalysis.peak(kick.left, 0..<Self.frames) < 1e-6)
        #expect(SignalAnalysis.peak(kick.right, 0..<Self.frames) > 0.1)
        let gm = try Self.stereo { e in
            try e.prepare(song: song, at: 0)
            try e.kitHit(.gm, key: 36, gain: 1, at: 0)
        }
        #expect(gm.left == gm.right && SignalAnalysis.peak(gm.left, 0..<Self.frames) > 0.1)
    }

    @Test("a classic song leaves the slots as they were: prepare changes nothing heard")
    func classicUntouched() throws {
        var song = Song(name: "c", patterns: [SongPattern(name: "A")])
        song.instruments[.chords] = Instrument()
        song.instruments[.chords]!.level = 0.5   // the mix's level is the sequencer's, not the slot's
        let play = { (e: AudioEngine) throws in
            try e.instrumentNoteOn(id: 1, slot: 1, frequency: 330, gain: 0.5, at: 0)
        }
        let plain = try Self.stereo(play)
        let prepared = try Self.stereo { e in
            try e.prepare(song: song, at: 0)
            try play(e)
        }
        #expect(plain.left == prepared.left && plain.right == prepared.right)
    }
}
