import Foundation
import Testing

@testable import PixelBoopCore

/// The cursor and the note edits (EditorModel+Edits.swift): moves under a scale lock, mouse
/// clicks, placing and removing, velocity and length keys, the tempo, the pattern's length and a
/// track's own loop.
@Suite("Editor model: edits")
struct EditorModelEditsTests {
    static func empty(length: Int = 16) -> EditorModel {
        EditorModel(song: Song(name: "e", patterns: [SongPattern(name: "A", length: length)]), version1: false)
    }

    @Test("under a scale lock up and down walk the scale's notes, and a click snaps to the nearest")
    func scaleMoves() {
        var m = Self.empty()
        m.setScale(Scale(parsing: "C major")!)
        m.moveTo(step: 0, row: 64)   // E4
        m.move(rows: 1)
        #expect(m.cursorPitch == 65)   // F: E -> F is a semitone in C major
        m.move(rows: 1)
        #expect(m.cursorPitch == 67)   // G: F# is skipped
        m.move(rows: -3)
        #expect(m.cursorPitch == 62)
        m.moveTo(step: 3, row: 61)   // C#4: the lower one on a tie
        #expect(m.cursorPitch == 60 && m.step == 3)
        m.moveTo(step: 99, row: 500)
        #expect(m.step == 15 && m.cursorPitch == 127)   // G9 is in C major
        m.move(rows: 1)
        #expect(m.cursorPitch == 127)   // no scale note above: it stays
    }

    @Test("setting a scale moves the cursor onto it; chooseScale keeps it in a version-2 song only")
    func chooseScale() {
        var m = Self.empty()
        m.moveTo(step: 0, row: 61)
        m.chooseScale(Scale(parsing: "A minor")!)
        #expect(m.cursorPitch == 60 && m.song.scale == Scale(parsing: "A minor"))
        m.undo()
        #expect(m.song.scale == nil)
        var v1 = EditorModel(version1: Song(name: "p"))
        v1.chooseScale(Scale(parsing: "D dorian")!)
        #expect(v1.scale == Scale(parsing: "D dorian") && v1.song.scale == nil && !v1.canUndo)
    }

    @Test("H and L jump without wrapping; h and l wrap by any count")
    func jumps() {
        var m = Self.empty(length: 12)
        m.jump(steps: 8)
        m.jump(steps: 8)
        #expect(m.step == 11)
        m.jump(steps: Int.min)
        #expect(m.step == 0)
        m.move(steps: -25)
        #expect(m.step == 11)   // -25 = -1 - 2 * 12
    }

    @Test("Tab cycles the tracks and leaves the block behind; the rhythm cursor is clamped to its lanes")
    func tracks() {
        var m = Self.empty()
        m.toggleBlock()
        m.cycleTrack(by: 5)
        #expect(m.track == .chords && !m.hasBlock)
        m.cycleTrack(by: 2)
        m.moveTo(step: 0, row: 999)
        #expect(m.row == DrumLane.all.count - 1)
        m.move(rows: -5)
        #expect(m.row == DrumLane.all.count - 1)
    }

    @Test("a note is not placed past a track's own loop, and says why")
    func placePastOwnLoop() {
        var m = Self.empty()
        m.setTrackLength(12)
        m.moveTo(step: 13, row: 60)
        #expect(m.place() == nil)
        #expect(m.message == "the melody loops 12 steps: step 14 is past its end (C changes it)")
        m.moveTo(step: 11, row: 60)
        #expect(m.place() == SongNote(step: 11, pitch: 60))
        #expect(m.place() == nil)   // a note covers the cell already
    }

    @Test("velocity keys change the note starting at the cursor, not one whose tail is there")
    func velocityOnTail() {
        var m = Self.empty()
        m.place()
        m.changeLength(by: 3)
        m.move(steps: 2)
        m.setVelocity(.accent)
        #expect(m.songPattern.notes(.melody)[0].velocity == .normal && m.velocity == .accent)
        m.move(steps: -2)
        m.setVelocity(.sustain)
        #expect(m.songPattern.notes(.melody)[0].velocity == .sustain)
    }

    @Test("length keys stop at 1 and at the track's end; a ratcheted note keeps one step")
    func lengths() {
        var m = Self.empty()
        m.changeLength(by: 1)
        #expect(m.message == "no note under the cursor")
        m.moveTo(step: 14, row: 60)
        m.place()
        m.changeLength(by: -3)
        #expect(m.songPattern.notes(.melody)[0].length == 1 && !m.canRedo)
        m.changeLength(by: 5)
        #expect(m.songPattern.notes(.melody)[0].length == 2)
        let ratcheted = SongNote(step: 0, pitch: 50, ratchet: 2)
        var r = EditorModel(
            song: Song(name: "r", patterns: [SongPattern(name: "A", tracks: [.melody: [ratcheted]])]), version1: false)
        r.moveTo(step: 0, row: 50)
        r.changeLength(by: 1)
        #expect(r.message == "a ratcheted note fills one step (its hits repeat inside it)")
        #expect(r.songPattern.notes(.melody) == [ratcheted])
    }

    @Test("the tempo takes tenths of a BPM and stays within 60 ... 200")
    func tempo() {
        var m = Self.empty()
        m.setBPM(97.54)
        #expect(m.song.bpm == 97.5)
        m.changeBPM(by: 1000)
        #expect(m.song.bpm == Song.bpmRange.upperBound)
        m.changeBPM(by: -1000)
        #expect(m.song.bpm == Song.bpmRange.lowerBound)
        m.undo()
        m.undo()
        m.undo()
        #expect(m.song.bpm == 120 && !m.canUndo)
    }

    @Test("< and > step through 8 16 24 32 48 64, from any length to the next one that way")
    func lengthSteps() {
        var m = Self.empty(length: 20)
        m.changeLength(steps: 1)
        #expect(m.songPattern.length == 24)
        m.requestLength(20)
        m.changeLength(steps: -1)
        #expect(m.songPattern.length == 16)
        for _ in 0..<8 { m.changeLength(steps: 1) }
        #expect(m.songPattern.length == 64)
        for _ in 0..<8 { m.changeLength(steps: -1) }
        #expect(m.songPattern.length == 8)
        m.requestLength(65)
        m.requestLength(0)
        #expect(m.songPattern.length == 8)
    }

    @Test("shortening counts only the notes of tracks that follow the pattern's length")
    func shortenOwnLoops() {
        let melody = [SongNote(step: 10, pitch: 60, length: 4)]
        let bass = [SongNote(step: 20, pitch: 40)]
        let p = SongPattern(name: "A", length: 32, tracks: [.melody: melody, .bass: bass], trackLengths: [.bass: 24])
        var m = EditorModel(song: Song(name: "s", patterns: [p]), version1: false)
        m.moveTo(step: 30, row: 60)
        m.requestLength(12)
        #expect(m.question == .shorten(to: 12, affected: 1))
        #expect(m.songPattern.length == 32)
        m.confirmShorten()
        #expect(m.question == nil && m.songPattern.length == 12 && m.step == 11)
        #expect(m.songPattern.notes(.melody) == [SongNote(step: 10, pitch: 60, length: 2)])
        #expect(m.songPattern.notes(.bass) == bass)   // its own 24-step loop is left alone
        m.confirmShorten()   // no question: nothing
        m.undo()
        #expect(m.songPattern == p)
    }

    @Test("C gives a track its own loop and cuts its notes past the end; one undo brings them back")
    func trackLength() {
        let melody = [SongNote(step: 2, pitch: 60, length: 6), SongNote(step: 9, pitch: 62)]
        let p = SongPattern(name: "A", tracks: [.melody: melody])
        var m = EditorModel(song: Song(name: "s", patterns: [p]), version1: false)
        m.setTrackLength(6)
        #expect(m.songPattern.trackLengths[.melody] == 6)
        #expect(m.songPattern.notes(.melody) == [SongNote(step: 2, pitch: 60, length: 4)])
        #expect(m.message == "the melody loops its own 6 steps; 2 notes past its end cut (u undoes)")
        m.setTrackLength(0)   // clamped to the smallest loop
        #expect(m.songPattern.trackLengths[.melody] == SongPattern.lengths.lowerBound)
        m.undo()
        m.setTrackLength(nil)
        #expect(m.message == "the melody follows the pattern's 16 steps")
        #expect(m.songPattern.trackLengths[.melody] == nil)
        m.undo()
        m.undo()
        #expect(m.songPattern == p)
    }
}
