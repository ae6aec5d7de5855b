import Foundation
import Testing

@testable import PixelBoopCore

/// Undo and redo over the whole song (EditorModel+Undo.swift): every edit is one step, a drag is
/// one step, undo brings back the song exactly and the grid to the pattern the change was made in,
/// and says what it took back.
@Suite("Editor model: undo")
struct EditorModelUndoTests {
    static func twoPatterns() -> Song {
        Song(
            name: "s",
            patterns: [
                SongPattern(name: "A", tracks: [.melody: [SongNote(step: 0, pitch: 60)]]),
                SongPattern(name: "B", length: 8, tracks: [.bass: [SongNote(step: 4, pitch: 40, probability: 70)]])
            ])
    }

    @Test("undo returns the grid to the pattern the change was made in, and says what changed")
    func undoShowsWhere() {
        var m = EditorModel(song: Self.twoPatterns(), version1: false)
        m.showPattern(1)
        m.cycleTrack(by: 2)
        #expect(m.track == .bass)
        m.moveTo(step: 6, row: 43)
        m.place()
        m.showPattern(0)
        m.undo()
        #expect(m.current == 1 && m.song == Self.twoPatterns())
        #expect(m.message == "undone: pattern B, bass: 1 note (nothing older)")
        m.redo()
        #expect(m.message == "redone: pattern B, bass: 1 note")
        #expect(m.song.patterns[1].notes(.bass).count == 2)
        m.redo()
        #expect(m.message == "nothing to redo")
    }

    @Test("redo, too, returns the grid to the pattern the change is in, whatever pattern was shown")
    func redoShowsWhere() {
        var m = EditorModel(song: Self.twoPatterns(), version1: false)
        m.showPattern(1)
        m.place()
        let placed = m.song
        m.showPattern(0)
        m.undo()
        #expect(m.current == 1)
        m.showPattern(0)
        m.redo()
        #expect(m.current == 1 && m.song == placed)
        m.showPattern(0)
        m.undo()
        #expect(m.current == 1 && m.song == Self.twoPatterns())
    }

    @Test("the undo message names a tempo, a length, the chain, the mix and the patterns")
    func changeWords() {
        let a = Self.twoPatterns()
        var b = a
        b.bpm = 97.5
        #expect(EditorModel.change(from: a, to: b) == "tempo 120 -> 97.5 BPM")
        b = a
        b.patterns[0].length = 32
        #expect(EditorModel.change(from: a, to: b) == "pattern A's length, swing or track lengths")
        b = a
        b.chain.reverse()
        #expect(EditorModel.change(from: a, to: b) == "the chain")
        b = a
        b.instruments[.chords] = Instrument()
        b.instruments[.chords]!.pan = 0.5
        #expect(EditorModel.change(from: a, to: b) == "an instrument or the mix")
        b = a
        b.patterns.append(SongPattern(name: "C"))
        #expect(EditorModel.change(from: a, to: b) == "the patterns (2 -> 3)")
        b = a
        b.seed = 7
        #expect(EditorModel.change(from: a, to: b) == "the song's settings")
        b = a
        b.patterns[1].tracks[.bass]![0].pitch = 41   // one note changed: counted once, not twice
        #expect(EditorModel.change(from: a, to: b) == "pattern B, bass: 1 note")
        b.patterns[1].tracks[.bass]!.append(SongNote(step: 5, pitch: 41))
        b.patterns[1].tracks[.bass]!.append(SongNote(step: 6, pitch: 41))
        #expect(EditorModel.change(from: a, to: b) == "pattern B, bass: 4 notes")
    }

    @Test("a drag is one undo step; a drag that changed nothing leaves none")
    func groups() {
        var m = EditorModel(song: Self.twoPatterns(), version1: false)
        m.beginGroup()
        m.beginGroup()   // a second begin inside a drag adds no step
        m.endGroup()
        #expect(!m.canUndo)
        m.beginGroup()
        for s in 2..<6 {
            m.moveTo(step: s, row: 62)
            m.place()
        }
        m.endGroup()
        #expect(m.songPattern.notes(.melody).count == 5)
        m.undo()
        #expect(m.song == Self.twoPatterns() && !m.canUndo)
    }

    @Test("an edit that changes nothing leaves no undo step; a new edit forgets the redo steps")
    func noOpAndRedoLoss() {
        var m = EditorModel(song: Self.twoPatterns(), version1: false)
        m.editSong { _ in }
        m.setBPM(120)
        #expect(!m.canUndo)
        m.setBPM(130)
        m.undo()
        #expect(m.canRedo)
        m.setBPM(140)
        #expect(!m.canRedo && m.song.bpm == 140)
    }

    @Test("an edit that empties a track removes the track, so undo compares songs as saved")
    func emptyTracksDropped() {
        var m = EditorModel(song: Self.twoPatterns(), version1: false)
        m.moveTo(step: 0, row: 60)
        m.remove()
        #expect(m.songPattern.tracks[.melody] == nil)
        m.undo()
        #expect(m.song == Self.twoPatterns() && !m.isModified)
    }

    @Test("undo keeps the last 500 steps: the oldest are dropped, in order")
    func levels() {
        var m = EditorModel(song: Self.twoPatterns(), version1: false)
        // Tempos 60.1, 60.2, ... 111: every edit a different tempo within 60 ... 200 BPM.
        for i in 1...(EditorModel.undoLevels + 10) { m.setBPM(60 + Double(i) / 10) }
        var undone = 0
        while m.canUndo {
            m.undo()
            undone += 1
        }
        #expect(undone == EditorModel.undoLevels)
        #expect(m.song.bpm == 61)   // the song after the 10th edit: the first ten are gone
        #expect(m.message == "undone: tempo 61.1 -> 61 BPM (nothing older)")
    }

    @Test("undo clamps the cursor and the chain entry to the song it brings back, and ends the block")
    func restoreClamps() {
        var m = EditorModel(song: Self.twoPatterns(), version1: false)
        m.requestLength(64)
        m.moveTo(step: 40, row: 60)
        m.toggleBlock()
        m.undo()
        #expect(m.step == 15 && !m.hasBlock)
    }

    @Test("reload is an undo step and the song on disk from then on; undo brings the session's back")
    func reload() {
        var m = EditorModel(song: Self.twoPatterns(), version1: false)
        m.showPattern(1)
        m.setBPM(90)
        let session = m.song
        let disk = Song(name: "s", bpm: 100, patterns: [SongPattern(name: "A", length: 8)])
        m.reload(disk)
        #expect(m.song == disk && m.savedSong == disk && !m.isModified)
        #expect(m.current == 0 && m.step <= 7)
        m.undo()
        #expect(m.song == session && m.isModified)
        m.markSaved()
        #expect(!m.isModified)
    }

    @Test("sameNotes: equal as music whatever the note order and empty tracks")
    func sameNotes() {
        let a = Song(name: "p", tracks: [.melody: [SongNote(step: 0, pitch: 60), SongNote(step: 2, pitch: 64)], .bass: []])
        var b = Song(name: "p", tracks: [.melody: [SongNote(step: 2, pitch: 64), SongNote(step: 0, pitch: 60)]])
        #expect(EditorModel.sameNotes(a, b))
        b.patterns[0].tracks[.melody]![0].velocity = .accent
        #expect(!EditorModel.sameNotes(a, b))
        var c = a
        c.bpm = 121
        #expect(!EditorModel.sameNotes(a, c))
    }
}
