import Foundation
import Testing

@testable import PixelBoopCore

/// Block editing as in trackers (EditorModel+Block.swift): `v` marks a block, y copies, x cuts,
/// P pastes at the cursor, Delete deletes, t/T o/O transpose, ( ) nudge, D duplicates; each is
/// one undo step, and undo brings back the song exactly.
@Suite("Editor model: block")
struct EditorModelBlockTests {
    /// A one-pattern version-2 song whose melody has three notes with fields a version-1 pattern
    /// has no place for, so a round trip that drops one of them shows.
    static func song(length: Int = 16) -> Song {
        let melody = [
            SongNote(step: 0, pitch: 64, velocity: .accent, length: 2, probability: 50),
            SongNote(step: 1, pitch: 62, condition: SongNote.Condition(a: 1, b: 2)),
            SongNote(step: 2, pitch: 60, velocity: .sustain, ratchet: 3, offset: 0.25)
        ]
        let bass = [SongNote(step: 1, pitch: 36)]
        return Song(name: "s", patterns: [SongPattern(name: "A", length: length, tracks: [.melody: melody, .bass: bass])])
    }

    /// A model on `song()` with the block from (step 0, E4) to (step 2, C4) ended by a second `v`.
    static func marked() -> EditorModel {
        var m = EditorModel(song: song(), version1: false)
        m.moveTo(step: 0, row: 64)
        m.toggleBlock()
        m.moveTo(step: 2, row: 60)
        m.toggleBlock()
        return m
    }

    @Test("the block's corners: the higher pitch is the top; it follows the cursor until v ends it")
    func corners() {
        var m = EditorModel(song: Self.song(), version1: false)
        #expect(m.block == nil && !m.hasBlock && !m.inBlock(step: 0, row: 60))
        m.moveTo(step: 3, row: 60)
        m.toggleBlock()
        m.moveTo(step: 1, row: 65)
        #expect(m.block! == (1, 3, 65, 60))   // still follows the cursor
        #expect(m.inBlock(step: 2, row: 62) && !m.inBlock(step: 0, row: 62) && !m.inBlock(step: 2, row: 66))
        m.toggleBlock()
        m.moveTo(step: 10, row: 40)
        #expect(m.block! == (1, 3, 65, 60))   // ended: the cursor no longer moves it
        m.toggleBlock()   // a third v starts a new block at the cursor
        #expect(m.block! == (10, 10, 40, 40))
        m.clearBlock()
        #expect(!m.hasBlock)
    }

    @Test("Shift+arrows start a block at the cursor and extend it")
    func extend() {
        var m = EditorModel(song: Self.song(), version1: false)
        m.moveTo(step: 2, row: 60)
        m.extendBlock(steps: 2, rows: 3)
        #expect(m.block! == (2, 4, 63, 60))
        m.extendBlock(steps: -3)
        #expect(m.block! == (1, 2, 63, 60))
    }

    @Test("rhythm rows are lanes: the lower lane index is the top, and t moves a drum a lane up")
    func rhythmLanes() {
        var m = EditorModel(song: Song(name: "r", patterns: [SongPattern(name: "A")]), version1: false)
        m.cycleTrack(by: -1)
        #expect(m.track == .rhythm)
        m.moveTo(step: 0, row: 3)   // closed hat
        m.place()
        m.toggleBlock()
        m.moveTo(step: 1, row: 1)
        #expect(m.block! == (0, 1, 1, 3))
        m.transpose(by: 1)
        #expect(m.songPattern.notes(.rhythm) == [SongNote(step: 0, pitch: DrumLane.all[2].key)])
        #expect(m.row == 0)   // the cursor moved up a lane with the block
    }

    @Test("copy then paste elsewhere: same shape, the notes keep every field; past the end is left out")
    func copyPaste() {
        var m = Self.marked()
        m.copyBlock()
        #expect(m.message == "copied 3 notes")
        let before = m.songPattern.notes(.melody)
        m.moveTo(step: 14, row: 67)
        let heard = m.paste()
        #expect(m.message == "pasted 2 notes")   // the third falls on step 17 of 16
        let pasted = m.songPattern.notes(.melody).filter { $0.step >= 14 }
        var first = before[0]
        first.step = 14
        first.pitch = 67
        var second = before[1]
        second.step = 15
        second.pitch = 65
        second.length = 1
        #expect(pasted == [first, second])
        #expect(heard == [SongNote(step: 14, pitch: 67, velocity: .accent, length: 2), SongNote(step: 15, pitch: 65)])
        m.undo()
        #expect(m.song == Self.song())
    }

    @Test("a pasted note is clipped to the pattern's end and keeps its ratchet and micro-timing")
    func pasteClips() {
        var m = Self.marked()
        m.copyBlock()
        m.clearBlock()
        m.moveTo(step: 13, row: 72)
        m.paste()
        let notes = m.songPattern.notes(.melody).filter { $0.step >= 13 }
        #expect(notes.map(\.step) == [13, 14, 15])
        #expect(notes.map(\.pitch) == [72, 70, 68])
        #expect(notes.map(\.length) == [2, 1, 1])
        #expect(notes[2].ratchet == 3 && notes[2].offset == 0.25)
    }

    @Test("cut then paste at the block's top-left gives back the very song; undo of the cut too")
    func cutPasteRoundTrip() {
        var m = Self.marked()
        m.cutBlock()
        #expect(m.songPattern.notes(.melody).isEmpty)
        #expect(m.songPattern.notes(.bass) == [SongNote(step: 1, pitch: 36)])   // another track stays
        m.clearBlock()
        m.moveTo(step: 0, row: 64)
        m.paste()
        #expect(m.song == Self.song())
        m.undo()
        m.undo()
        #expect(m.song == Self.song() && !m.isModified)
        #expect(!m.canUndo)   // the cut was one undo step, the paste another
    }

    @Test("paste replaces the notes on its cells; drums and pitched notes do not mix")
    func pasteReplacesAndRefuses() {
        var m = Self.marked()
        m.copyBlock()
        m.clearBlock()
        m.moveTo(step: 1, row: 62)   // the copy's cells (1,62) (2,60) (3,58): two hold notes already
        m.paste()
        let melody = m.songPattern.notes(.melody)
        #expect(melody.count == 4)
        let replaced = melody.first { $0.step == 2 && $0.pitch == 60 }!
        #expect(replaced.condition == SongNote.Condition(a: 1, b: 2) && replaced.ratchet == 1)
        #expect(melody.first { $0.step == 1 && $0.pitch == 62 }!.probability == 50)
        let song = m.song
        m.cycleTrack(by: -1)
        #expect(m.paste().isEmpty && m.message == "notes paste on a pitched track")
        #expect(m.song == song)
        var empty = EditorModel(song: Self.song(), version1: false)
        empty.paste()
        #expect(empty.message == "nothing copied (y copies a block)")
    }

    @Test("Delete removes the notes starting inside the block, or the note under the cursor")
    func delete() {
        var m = EditorModel(song: Self.song(), version1: false)
        m.moveTo(step: 1, row: 64)   // the tail of the note on step 0
        m.toggleBlock()
        m.moveTo(step: 2, row: 60)
        m.deleteBlock()
        #expect(m.songPattern.notes(.melody).map(\.step) == [0])
        m.clearBlock()
        m.moveTo(step: 1, row: 64)
        m.deleteBlock()   // no block: the note covering the cursor
        #expect(m.songPattern.notes(.melody).isEmpty)
        m.undo()
        m.undo()
        #expect(m.song == Self.song())
    }

    @Test("transpose up then down, and an octave up then down, give back the very song")
    func transposeRoundTrip() {
        var m = Self.marked()
        m.transpose(by: 1)
        #expect(m.songPattern.notes(.melody).map(\.pitch) == [65, 63, 61])
        #expect(m.block! == (0, 2, 65, 61))   // the block moves with its notes
        m.transpose(by: -1)
        #expect(m.song == Self.song())
        m.transpose(by: 12)
        #expect(m.songPattern.notes(.melody).map(\.pitch) == [76, 74, 72])
        m.transpose(by: -12)
        #expect(m.song == Self.song())
        #expect(m.songPattern.notes(.bass) == Self.song().patterns[0].notes(.bass))
    }

    @Test("a move that would push a note off the pattern is refused whole, with no undo step")
    func refusedMoves() {
        var m = Self.marked()
        m.nudge(by: -1)
        #expect(m.message == "a note would leave the pattern: not moved")
        #expect(m.song == Self.song() && !m.canUndo)
        m.nudge(by: 1)
        #expect(m.songPattern.notes(.melody).map(\.step) == [1, 2, 3])
        #expect(m.block! == (1, 3, 64, 60) && m.step == 3)
        m.nudge(by: -1)
        #expect(m.song == Self.song())
        var high = EditorModel(song: Self.song(), version1: false)
        high.moveTo(step: 0, row: 64)
        for _ in 0..<5 { high.transpose(by: 12) }   // 64 + 60 = 124: a sixth octave would pass 127
        #expect(high.songPattern.notes(.melody).first { $0.step == 0 }!.pitch == 124)
        high.transpose(by: 12)
        #expect(high.message == "a note would leave the pattern: not moved")
    }

    @Test("under a scale lock t moves by scale degrees: an F chord in A minor becomes G")
    func scaleDegrees() {
        let chord = [60, 65, 69].map { SongNote(step: 0, pitch: $0) }
        var m = EditorModel(song: Song(name: "k", patterns: [SongPattern(name: "A", tracks: [.melody: chord])]), version1: false)
        m.setScale(Scale(parsing: "A minor")!)
        m.moveTo(step: 0, row: 69)
        m.toggleBlock()
        m.moveTo(step: 0, row: 60)
        m.transpose(by: 1)
        #expect(m.songPattern.notes(.melody).map(\.pitch) == [62, 67, 71])   // G: D G B
        m.transpose(by: 12)   // octaves stay octaves
        #expect(m.songPattern.notes(.melody).map(\.pitch) == [74, 79, 83])
    }

    @Test("D duplicates the block after itself and moves onto the copy; the clipboard is kept")
    func duplicate() {
        var m = EditorModel(song: Self.song(length: 8), version1: false)
        m.moveTo(step: 0, row: 40)
        m.place()   // a note outside the duplicated block, copied to the clipboard
        m.toggleBlock()
        m.copyBlock()
        let clip = m.clipboard
        m.clearBlock()
        m.moveTo(step: 0, row: 64)
        m.toggleBlock()
        m.moveTo(step: 2, row: 60)
        m.duplicateBlock()
        #expect(m.clipboard == clip)
        #expect(m.block! == (3, 5, 64, 60) && m.step == 3 && m.row == 64)
        let copy = m.songPattern.notes(.melody).filter { $0.step >= 3 }
        #expect(copy.map(\.step) == [3, 4, 5] && copy.map(\.pitch) == [64, 62, 60])
        m.duplicateBlock()   // the second copy runs past step 8: clipped, the block stops at the end
        #expect(m.songPattern.notes(.melody).filter { $0.step >= 6 }.map(\.step) == [6, 7])
        #expect(m.block! == (6, 7, 64, 60))
        m.duplicateBlock()
        #expect(m.message == "no room after the block")
        m.undo()
        m.undo()
        m.undo()
        #expect(m.song == Self.song(length: 8))
    }

    @Test("1 2 3 on a block set every note's velocity in one undo step")
    func blockVelocity() {
        var m = Self.marked()
        m.setVelocity(.level(90))
        #expect(m.songPattern.notes(.melody).allSatisfy { $0.velocity == .level(90) })
        m.undo()
        #expect(m.song == Self.song())
    }
}
