import Foundation
import Testing

@testable import PixelBoopCore

/// Piano mode (EditorModel+Piano.swift): the computer keyboard's two rows as a tracker's piano,
/// each typed note placed at the cursor with the remembered length and the cursor moved on.
@Suite("Editor model: piano")
struct EditorModelPianoTests {
    static func empty() -> EditorModel {
        EditorModel(song: Song(name: "p", patterns: [SongPattern(name: "A")]), version1: false)
    }

    @Test("the two rows lay out two chromatic octaves from C, as Schism Tracker and FT2 do")
    func layout() {
        #expect("zsxdcvgbhnjm,".map { PianoEntry.keys[$0]! } == Array(0...12))
        #expect("q2w3er5t6y7ui".map { PianoEntry.keys[$0]! } == Array(12...24))
        #expect(PianoEntry.keys.count == 26 && PianoEntry.keys["a"] == nil)
        #expect(PianoEntry().summary == "piano C4 len 1 +1")
    }

    @Test("K turns it on and off; keys do nothing while it is off")
    func toggle() {
        var m = Self.empty()
        #expect(m.pianoNote("z") == nil && m.song == Self.empty().song)
        m.togglePiano()
        #expect(m.piano == PianoEntry())
        m.togglePiano()
        #expect(m.piano == nil && m.message == "piano mode off (K: on)")
    }

    @Test("a typed note is placed at the cursor, heard, and the cursor moves on by the step")
    func typing() {
        var m = Self.empty()
        m.togglePiano()
        m.setVelocity(.accent)
        #expect(m.pianoNote("z") == SongNote(step: 0, pitch: 60, velocity: .accent))
        #expect(m.pianoNote("e") == SongNote(step: 1, pitch: 76, velocity: .accent))
        #expect(m.step == 2 && m.cursorPitch == 76)
        #expect(m.pianoNote("a") == nil)   // not a piano key
        #expect(m.songPattern.notes(.melody).map(\.pitch) == [60, 76])
        m.undo()
        #expect(m.songPattern.notes(.melody).map(\.pitch) == [60])
    }

    @Test("octave, length and step are set and clamped; the length stops at the pattern's end")
    func settings() {
        var m = Self.empty()
        m.changePiano(octave: 1)   // off: nothing
        #expect(m.piano == nil)
        m.togglePiano()
        m.changePiano(octave: -1, length: 3, advance: 3)
        #expect(m.message == "piano C3 len 4 +4")
        m.changePiano(octave: -20, length: 40, advance: -40)
        #expect(m.piano == PianoEntry(octave: 0, length: 16, advance: 0))
        m.changePiano(octave: 3, length: -13)
        m.moveTo(step: 14, row: 60)
        #expect(m.pianoNote("x") == SongNote(step: 14, pitch: 50, length: 2))   // D3, 3 steps clipped to 2
        #expect(m.step == 14)   // a step of 0 stays
    }

    @Test("re-striking a pitch replaces the note covering the cursor; chord mode stacks on one step")
    func chords() {
        var m = Self.empty()
        m.togglePiano()
        m.changePiano(length: 3, advance: -1)   // length 4, the cursor stays
        m.pianoNote("c")
        m.moveTo(step: 2, row: 64)
        m.pianoNote("c")   // E4 again inside the first one's tail: it replaces that note
        #expect(m.songPattern.notes(.melody) == [SongNote(step: 2, pitch: 64, length: 4)])
        m.changePiano(advance: 1)
        m.togglePianoChord()
        #expect(m.piano!.chord && m.message == "chord: typed notes stay on this step (/ moves on)")
        m.moveTo(step: 8, row: 60)
        for key: Character in ["z", "d", "b"] { m.pianoNote(key) }
        #expect(m.step == 8)
        #expect(m.songPattern.notes(.melody).filter { $0.step == 8 }.map(\.pitch) == [60, 63, 67])
        m.togglePianoChord()   // chord off: past the chord by the step
        #expect(m.step == 9 && !m.piano!.chord)
    }

    @Test("on the rhythm track the keys walk the drum lanes, kick first")
    func drums() {
        var m = Self.empty()
        m.cycleTrack(by: -1)
        m.togglePiano()
        #expect(m.pianoNote("z") == SongNote(step: 0, pitch: 36))
        #expect(m.pianoNote("s") == SongNote(step: 1, pitch: 38))
        #expect(m.pianoNote("i")?.pitch == DrumLane.all[24].key)
        #expect(m.row == 24)
    }

    @Test("a note outside the track's useful range is refused with a message, nothing placed")
    func outOfRange() {
        var m = Self.empty()
        m.togglePiano()
        m.changePiano(octave: 4)   // the lower row's C is C8, above the melody's B7 (twice its 2 kHz lowpass)
        #expect(m.pianoNote("z") == nil)
        #expect(m.message == "C8 is outside the melody's range: not placed")
        #expect(m.songPattern.notes(.melody).isEmpty && !m.canUndo)
    }
}
