import Foundation
import Testing

@testable import PixelBoopCore

/// `boop transcribe`: a synthesised voice (sines at known times and pitches) becomes notes at
/// those times and pitches by the note rule (NoteRule), and the notes a song on the grid's steps.
@Suite("Transcriber: a sung line into notes and a song")
struct TranscriberTests {
    static let rate = 16000.0

    /// A voice of phase-continuous pieces: each (seconds, MIDI pitch at each moment, level); a nil
    /// pitch is silence.
    static func voice(_ pieces: [(seconds: Double, midi: ((Double) -> Double)?, level: Float)]) -> [Float] {
        var out: [Float] = []
        var phase = 0.0
        for piece in pieces {
            let count = Int((piece.seconds * rate).rounded())
            for n in 0..<count {
                guard let midi = piece.midi else {
                    out.append(0)
                    continue
                }
                let hz = 440 * pow(2, (midi(Double(n) / rate) - 69) / 12)
                phase += 2 * Double.pi * hz / rate
                out.append(piece.level * Float(sin(phase)))
            }
        }
        return out
    }

    static func held(_ midi: Double) -> (Double) -> Double { { _ in midi } }

    /// Where a note's edges can be heard: the tracker's frames are 10 ms apart and each is
    /// centred on its window (two periods of its lowest pitch, 60 Hz: about 17 ms either side).
    static let edge = 0.03

    static func near(_ a: Double, _ b: Double, _ within: Double) -> Bool { abs(a - b) <= within }

    @Test("notes separated by rests: each at its start, end and pitch")
    func separatedNotes() throws {
        let samples = Self.voice([
            (0.2, nil, 0), (0.4, Self.held(57), 0.3), (0.2, nil, 0), (0.5, Self.held(64), 0.3), (0.2, nil, 0)
        ])
        let notes = try Transcriber().notes(in: samples, rate: Self.rate)
        #expect(notes.count == 2)
        guard notes.count == 2 else { return }
        for (note, (start, end, midi)) in zip(notes, [(0.2, 0.6, 57.0), (0.8, 1.3, 64.0)]) {
            #expect(Self.near(note.start, start, Self.edge) && Self.near(note.end, end, Self.edge), "\(note)")
            #expect(Self.near(note.midi, midi, 0.05), "\(note)")
            // A sine of amplitude 0.3: RMS 0.212, -13.5 dBFS (the edges' silence pulls it down a little).
            #expect(note.level < -13 && note.level > -15, "\(note)")
        }
    }

    @Test("a legato line that settles on another pitch is two notes; the change is where the second starts")
    func legatoSplit() throws {
        let samples = Self.voice([(0.1, nil, 0), (0.4, Self.held(57), 0.3), (0.4, Self.held(60), 0.3), (0.1, nil, 0)])
        let notes = try Transcriber().notes(in: samples, rate: Self.rate)
        #expect(notes.map { $0.midi.rounded() } == [57, 60])
        guard notes.count == 2 else { return }
        // The split waits for the smoothed pitch (a median over 70 ms) to leave the note held.
        #expect(Self.near(notes[1].start, 0.5, 0.05) && notes[0].end == notes[1].start)
    }

    @Test("a scoop into a note and a vibrato of half a semitone stay one note, at the held pitch")
    func scoopAndVibrato() throws {
        let scoop: (Double) -> Double = { t in t < 0.05 ? 55 + 2 * t / 0.05 : 57 }
        let vibrato: (Double) -> Double = { t in 64 + 0.5 * sin(2 * Double.pi * 5.5 * t) }
        let samples = Self.voice([(0.1, nil, 0), (0.6, scoop, 0.3), (0.3, nil, 0), (0.8, vibrato, 0.3), (0.1, nil, 0)])
        let notes = try Transcriber().notes(in: samples, rate: Self.rate)
        #expect(notes.count == 2)
        guard notes.count == 2 else { return }
        #expect(Self.near(notes[0].midi, 57, 0.05) && Self.near(notes[0].start, 0.1, Self.edge))
        // The median of the held half is the vibrato's centre.
        #expect(Self.near(notes[1].midi, 64, 0.15), "\(notes[1])")
        #expect(Self.near(notes[1].start, 1.0, Self.edge) && Self.near(notes[1].end, 1.8, Self.edge))
    }

    @Test("a 90 ms note whose scoop from 150 cents under never arrives is taken at the pitch it was going to")
    func shortScoop() throws {
        for target in [57.0, 62, 69, 72] {
            let scoop: (Double) -> Double = { t in target - 1.5 * exp(-t / 0.06) }
            let samples = Self.voice([(0.2, nil, 0), (0.09, scoop, 0.3), (0.2, nil, 0)])
            let notes = try Transcriber().notes(in: samples, rate: Self.rate)
            #expect(notes.map { $0.midi.rounded() } == [target], "\(notes)")
        }
    }

    /// Voiced frames (fractional MIDI) the tracker gave for notes of simulated sung takes
    /// (scripts/voice_synth.py, one step at 120 BPM), and what each is heard as.
    @Test("held pitch: a scoop cut short, a legato slide into the next note, a fall at the release")
    func heldPitch() {
        let frames = { (cents: [Int]) in cents.map { Double($0) / 100 } }
        // Sung at 65 with a scoop that ends 31 cents under it: the second half's median is 64.42.
        let cutShort = frames([6385, 6414, 6402, 6412, 6419, 6425, 6432, 6441, 6442, 6449, 6469])
        #expect(Transcriber.heldPitch(cutShort, seconds: 0.11).rounded() == 65)
        #expect(Transcriber.median(Array(cutShort.dropFirst(cutShort.count / 2))).rounded() == 64)
        // Sung at 59 for 350 ms, running legato into 60 at its end: the glide is the next note's.
        let slide = frames([
            5874, 5810, 5830, 5850, 5828, 5851, 5858, 5864, 5868, 5872, 5872, 5877, 5879, 5891, 5894, 5894, 5893,
            5896, 5896, 5902, 5902, 5896, 5901, 5914, 5925, 5913, 5936, 5928, 5935, 5944, 5950, 5953, 5959
        ])
        #expect(Transcriber.heldPitch(slide, seconds: 0.35).rounded() == 59)
        // A short note at 59 whose last frames are the next note leaping in (0.3 semitone a frame).
        let leap = frames([5900, 5901, 5899, 5900, 5902, 5905, 5906, 5940, 5975, 5990])
        #expect(Transcriber.heldPitch(leap, seconds: 0.1).rounded() == 59)
        // Held at 60, falling away at the release: not a glide into anything.
        let fall = frames([6000, 6001, 5999, 6000, 6001, 6000, 5990, 5970, 5950, 5930])
        #expect(Transcriber.heldPitch(fall, seconds: 0.1).rounded() == 60)
        // A vibrato turns back: the median of the second half, as for any note held.
        let vibrato = frames([6400, 6420, 6440, 6445, 6430, 6400, 6370, 6355, 6360, 6380, 6410, 6440])
        #expect(Transcriber.heldPitch(vibrato, seconds: 0.12) == Transcriber.median(Array(vibrato.dropFirst(6))))
    }

    @Test("a blip shorter than 80 ms is left out; a dropout of 10 ms inside a note is bridged")
    func blipsAndDropouts() throws {
        let samples = Self.voice([
            (0.2, nil, 0), (0.04, Self.held(62), 0.3), (0.3, nil, 0), (0.3, Self.held(62), 0.3), (0.01, nil, 0),
            (0.3, Self.held(62), 0.3), (0.2, nil, 0)
        ])
        let notes = try Transcriber().notes(in: samples, rate: Self.rate)
        #expect(notes.count == 1)
        guard let note = notes.first else { return }
        #expect(Self.near(note.start, 0.54, Self.edge) && Self.near(note.end, 1.15, Self.edge) && Self.near(note.midi, 62, 0.05))
    }

    @Test("silence has no notes")
    func silence() throws {
        #expect(try Transcriber().notes(in: [Float](repeating: 0, count: 16000), rate: Self.rate).isEmpty)
    }

    typealias Heard = Transcriber.HeardNote

    @Test("the song: each note at its nearest step, its length in steps cut at its pattern's end, a pattern per stretch")
    func song() {
        // 120 bpm: a step (a sixteenth) is 0.125 s.
        let heard = [
            Heard(start: 0.01, end: 0.26, midi: 60.4, level: -20),   // step 0, 2 steps
            Heard(start: 0.37, end: 0.9, midi: 61.6, level: -20),   // step 3, 4 steps cut to 1
            Heard(start: 1.0, end: 1.12, midi: 63.0, level: -10)   // step 8: the third pattern, accented
        ]
        let song = Transcriber().song(heard, name: "take", steps: 4, track: .melody)
        #expect(song.name == "take" && song.bpm == 120 && song.scale == nil)
        #expect(song.patterns.map(\.name) == ["A", "B", "C"] && song.patterns.allSatisfy { $0.length == 4 })
        #expect(song.chain.map(\.pattern) == ["A", "B", "C"])
        #expect(song.patterns[0].notes(.melody) == [SongNote(step: 0, pitch: 60, length: 2), SongNote(step: 3, pitch: 62)])
        #expect(song.patterns[1].tracks.isEmpty)
        #expect(song.patterns[2].tracks == [.melody: [SongNote(step: 0, pitch: 63, velocity: .accent)]])
    }

    @Test("with a scale, each pitch is the scale note nearest it (the lower on a tie), and the song keeps the scale")
    func scaleLock() throws {
        let scale = try #require(Scale(parsing: "C major"))
        let transcriber = Transcriber(bpm: 90, scale: scale)
        let heard = [61.2, 63.4, 66.0, 70.3].enumerated().map { k, midi in
            Heard(start: Double(k) / 6, end: Double(k) / 6 + 0.1, midi: midi, level: -20)
        }
        // 90 bpm: a step is 1/6 s.
        let song = transcriber.song(heard, name: "s", steps: 16, track: .bass)
        #expect(song.scale == scale && song.bpm == 90)
        #expect(song.patterns.count == 1)
        #expect(song.patterns[0].notes(.bass).map(\.pitch) == [60, 62, 65, 69])
        #expect(song.patterns[0].notes(.bass).map(\.step) == [0, 1, 2, 3])
    }

    @Test("pitches beyond MIDI are clamped; a take past the longest song keeps its first patterns")
    func limits() {
        let heard = [Heard(start: 0, end: 0.1, midi: 131.2, level: -20), Heard(start: 0.2, end: 0.3, midi: -4, level: -20)]
        let song = Transcriber().song(heard, name: "x", steps: 16, track: .melody)
        #expect(song.patterns[0].notes(.melody).map(\.pitch) == [127, 0])
        let long = Transcriber().song(
            [Heard(start: 0, end: 0.1, midi: 60, level: -20), Heard(start: 2000, end: 2000.1, midi: 62, level: -20)],
            name: "y", steps: 16, track: .melody)
        #expect(long.patterns.count == Song.maxPatterns)
        #expect(long.patterns.flatMap { $0.notes(.melody) }.map(\.pitch) == [60])
    }

    @Test("pattern names: A ... Z, then A2, B2 ...; the median of an even count is the middle pair's mean")
    func names() {
        #expect((0..<3).map(Transcriber.patternName) == ["A", "B", "C"])
        #expect([25, 26, 27, 52].map(Transcriber.patternName) == ["Z", "A2", "B2", "A3"])
        #expect(Transcriber.median([3, 1, 2]) == 2 && Transcriber.median([4, 1, 3, 2]) == 2.5 && Transcriber.median([]) == 0)
        #expect(Transcriber.level([Float](repeating: 0.5, count: 100), from: 0, to: 1, rate: 100) == 10 * log10(0.25))
        #expect(Transcriber.level([0.5], from: 2, to: 3, rate: 100) == -120)
    }
}
