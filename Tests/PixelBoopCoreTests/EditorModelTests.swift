import Foundation
import Testing

@testable import PixelBoopCore

@Suite("Editor model")
struct EditorModelTests {
    @Test("starts on step 1 of melody at C4; moves, wraps, clamps; tracks cycle both ways")
    func cursor() {
        var m = EditorModel(version1: Song(name: "t"))
        #expect(m.track == .melody && m.step == 0 && m.cursorPitch == 60 && m.cursorLabel == "C4")
        m.move(rows: 1)
        #expect(m.cursorLabel == "C#4")
        m.move(steps: -1)
        #expect(m.step == 15)   // wraps
        m.move(steps: 4)
        #expect(m.step == 3)
        m.move(rows: 200)
        #expect(m.cursorPitch == 127)
        m.cycleTrack(by: 1)
        #expect(m.track == .chords)
        m.cycleTrack(by: -2)
        #expect(m.track == .rhythm && m.cursorLabel == "kick" && m.cursorPitch == 36)
        m.move(rows: -3)
        #expect(m.cursorLabel == "closed hat" && m.cursorPitch == 42)
    }

    @Test("toggle places with the current velocity and removes; velocity and length keys edit the note")
    func edits() {
        var m = EditorModel(version1: Song(name: "t"))
        #expect(m.toggle() == SongNote(step: 0, pitch: 60))
        m.setVelocity(.accent)
        m.changeLength(by: 1)
        m.changeLength(by: 100)   // clamped to the pattern's end
        #expect(m.songPattern.notes(.melody) == [SongNote(step: 0, pitch: 60, velocity: .accent, length: 16)])
        m.move(steps: 5)   // on the tail: toggling removes the note
        #expect(m.noteUnderCursor != nil)
        #expect(m.toggle() == nil)
        #expect(m.songPattern.notes(.melody).isEmpty)
        #expect(m.toggle() == SongNote(step: 5, pitch: 60, velocity: .accent))   // new notes take the velocity
        #expect(m.isModified)
    }

    @Test("undo and redo step through every edit; a drag is one step; at least 100 levels")
    func undo() {
        var m = EditorModel(version1: Song(name: "t"))
        for _ in 0..<150 {
            m.toggle()
            m.move(steps: 1)
        }
        // 150 toggles across 16 steps: steps 1-6 ten times (off), steps 7-16 nine times (on).
        #expect(m.songPattern.notes(.melody).count == 10)
        for _ in 0..<150 { m.undo() }
        #expect(m.songPattern.notes(.melody).isEmpty && !m.isModified)
        m.redo()
        #expect(m.songPattern.notes(.melody).count == 1)
        m.beginGroup()
        for s in 4..<8 {
            m.moveTo(step: s, row: 64)
            m.place()
        }
        m.endGroup()
        #expect(m.songPattern.notes(.melody).count == 5)
        m.undo()
        #expect(m.songPattern.notes(.melody).count == 1)
        m.redo()
        #expect(m.songPattern.notes(.melody).count == 5)
        m.undo()
        m.undo()
        m.undo()
        #expect(m.message == "nothing to undo")
    }

    @Test("shortening asks when notes would go, and removes or trims them only when confirmed")
    func shorten() {
        var m = EditorModel(
            version1: Song(
                name: "t", length: 16,
                tracks: [
                    .melody: [SongNote(step: 2, pitch: 60, length: 10), SongNote(step: 12, pitch: 62)]
                ]))
        m.changeLength(steps: -1)
        #expect(m.question == .shorten(to: 8, affected: 2))
        #expect(m.songPattern.length == 16)
        m.confirmShorten()
        #expect(m.songPattern.length == 8)
        #expect(m.songPattern.notes(.melody) == [SongNote(step: 2, pitch: 60, length: 6)])
        m.changeLength(steps: 1)
        #expect(m.songPattern.length == 16 && m.question == nil)
        m.changeBPM(by: 500)
        #expect(m.song.bpm == 200)
    }

    @Test("the saved form parses with the strict loader back to the same music")
    func roundTrip() throws {
        let pattern = try PieceFile.load(path: EditorModelTests.example("demo.json"))
        let data = try pattern.version1FileData()
        let back = try Song.parseVersion1(data, file: "demo.json")
        #expect(EditorModel.sameNotes(back, pattern))
        #expect(try back.version1FileData() == data)
    }

    static func example(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/\(name)").path
    }

    @Test("H and L stop at the first and last step; h and l wrap; no count overflows")
    func jumps() {
        var m = EditorModel(version1: Song(name: "t"))
        m.moveTo(step: 12, row: 60)   // step 13
        m.jump(steps: 4)
        #expect(m.step == 15)
        m.jump(steps: 4)
        #expect(m.step == 15)   // not 3: no wrap
        m.jump(steps: -4)
        #expect(m.step == 11)
        m.jump(steps: -100)
        #expect(m.step == 0)
        m.jump(steps: -4)
        #expect(m.step == 0)
        m.jump(steps: Int.max)
        #expect(m.step == 15)
        m.jump(steps: Int.min)
        #expect(m.step == 0)
        m.move(steps: -1)
        #expect(m.step == 15)   // h still wraps
        m.move(steps: Int.min)
        #expect((0..<16).contains(m.step))
    }

    @Test("a reopened file shows its notes: each track's cursor starts on its first note")
    func reopenShowsNotes() {
        let pattern = Song(
            name: "high", bpm: 120, length: 16,
            tracks: [
                .melody: [SongNote(step: 5, pitch: 100), SongNote(step: 2, pitch: 96)],
                .bass: [SongNote(step: 0, pitch: 28)], .rhythm: [SongNote(step: 0, pitch: 49)]
            ])
        var m = EditorModel(version1: pattern)
        #expect(m.track == .melody && m.step == 0 && m.cursorPitch == 96)
        var view = EditorView(colorMode: .none)
        let rows = view.visibleRows(for: m, height: 24)
        #expect(rows.contains(96) && rows.contains(100))
        let f = view.frame(
            model: m, width: 80, height: 24, playStep: nil, playing: false, sound: .silent("s"), fileName: "f")
        #expect(f.lines.first { $0.hasPrefix("C7 ") }?.contains("o") == true)
        #expect(f.lines.first { $0.hasPrefix("E7 ") }?.contains("o") == true)
        m.cycleTrack(by: 2)
        #expect(m.cursorLabel == "E1" && view.visibleRows(for: m, height: 24).contains(28))
        m.cycleTrack(by: 1)
        #expect(m.cursorLabel == "crash")
        // An empty track starts where it always did.
        #expect(EditorModel(version1: Song(name: "e")).cursorLabel == "C4")
    }
}
