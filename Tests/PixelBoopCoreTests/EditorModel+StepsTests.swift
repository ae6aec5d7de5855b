import Testing

@testable import PixelBoopCore

/// Steps inserted and deleted on the current track (the rest of it moves, the other tracks stay),
/// and the whole track as a block; each one undo step.
@Suite("Editor model: insert and delete a step, select all")
struct EditorModelStepsTests {
    static func model() -> EditorModel {
        EditorModel(
            version1: Song(
                name: "s", length: 8,
                tracks: [
                    .melody: [
                        SongNote(step: 0, pitch: 60, length: 3), SongNote(step: 2, pitch: 62), SongNote(step: 5, pitch: 64),
                        SongNote(step: 7, pitch: 65)
                    ],
                    .bass: [SongNote(step: 2, pitch: 36)]
                ]))
    }

    static func melody(_ m: EditorModel) -> [[Int]] {
        m.songPattern.notes(.melody).map { [$0.step, $0.pitch, $0.length] }.sorted { $0.lexicographicallyPrecedes($1) }
    }

    @Test func insertMovesTheRestOfTheTrackAndDropsWhatFallsOffTheEnd() {
        var m = Self.model()
        m.move(steps: 2)
        m.insertStep()
        // The note sounding across the cursor keeps its length; step 7's note falls off the end.
        #expect(Self.melody(m) == [[0, 60, 3], [3, 62, 1], [6, 64, 1]])
        #expect(m.songPattern.notes(.bass) == [SongNote(step: 2, pitch: 36)])
        #expect(m.message == "melody: a step inserted at 3; 1 note pushed past the end")
        m.undo()
        #expect(Self.melody(m) == [[0, 60, 3], [2, 62, 1], [5, 64, 1], [7, 65, 1]])
    }

    @Test func deleteRemovesTheStepsNotesAndPullsTheRestIn() {
        var m = Self.model()
        m.move(steps: 2)
        m.deleteStep()
        // The long note across the cursor is a step shorter; step 2's note is gone.
        #expect(Self.melody(m) == [[0, 60, 2], [4, 64, 1], [6, 65, 1]])
        #expect(m.songPattern.notes(.bass) == [SongNote(step: 2, pitch: 36)])
        #expect(m.message == "melody: step 3 deleted with 1 note")
    }

    @Test func insertingOnATrackOfItsOwnLengthUsesThatLength() {
        var m = Self.model()
        m.setTrackLength(6)
        m.move(steps: 5)
        m.insertStep()
        #expect(Self.melody(m) == [[0, 60, 3], [2, 62, 1]])
    }

    @Test func selectAllTakesEveryNoteOfTheTrack() {
        var m = Self.model()
        m.selectAll()
        #expect(m.blockNoteIndexes().count == 4)
        m.copyBlock()
        m.clearBlock()
        m.cycleTrack(by: 1)
        m.selectAll()
        #expect(m.blockNoteIndexes().isEmpty)
    }

    @Test func aVelocityKeyOnANotesTailSetsOnlyTheNextNotes() {
        var m = Self.model()
        m.move(steps: 1)   // on the tail of the 3-step C4 at step 0
        m.setVelocity(.accent)
        #expect(m.songPattern.notes(.melody)[0].velocity == .normal && m.velocity == .accent)
        m.move(steps: -1)
        m.setVelocity(.sustain)
        #expect(m.songPattern.notes(.melody)[0].velocity == .sustain)
    }

    @Test func undoAndRedoSayWhatTheyChanged() {
        var m = Self.model()
        m.setBPM(128)
        m.move(steps: 4)
        m.toggle()
        m.undo()
        #expect(m.message == "undone: pattern A, melody: 1 note")
        m.undo()
        #expect(m.message == "undone: tempo 128 -> 120 BPM (nothing older)")
        m.redo()
        #expect(m.message == "redone: tempo 120 -> 128 BPM")
    }
}
