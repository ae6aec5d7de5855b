import Foundation
import Testing

@testable import PixelBoopCore

@Suite("Editor model")
struct EditorModelTests {
    @Test("starts on step 1 of melody at C4; moves, wraps, clamps; tracks cycle both ways")
    func cursor() {
        var m = EditorModel(pattern: Pattern(name: "t"))
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
        var m = EditorModel(pattern: Pattern(name: "t"))
        #expect(m.toggle() == Note(step: 0, pitch: 60))
        m.setVelocity(.accent)
        m.changeLength(by: 1)
        m.changeLength(by: 100)   // clamped to the pattern's end
        #expect(m.pattern.notes(.melody) == [Note(step: 0, pitch: 60, velocity: .accent, length: 16)])
        m.move(steps: 5)   // on the tail: toggling removes the note
        #expect(m.noteUnderCursor != nil)
        #expect(m.toggle() == nil)
        #expect(m.pattern.notes(.melody).isEmpty)
        #expect(m.toggle() == Note(step: 5, pitch: 60, velocity: .accent))   // new notes take the velocity
        #expect(m.isModified)
    }

    @Test("undo and redo step through every edit; a drag is one step; at least 100 levels")
    func undo() {
        var m = EditorModel(pattern: Pattern(name: "t"))
        for _ in 0..<150 {
            m.toggle()
            m.move(steps: 1)
        }
        // 150 toggles across 16 steps: steps 1-6 ten times (off), steps 7-16 nine times (on).
        #expect(m.pattern.notes(.melody).count == 10)
        for _ in 0..<150 { m.undo() }
        #expect(m.pattern.notes(.melody).isEmpty && !m.isModified)
        m.redo()
        #expect(m.pattern.notes(.melody).count == 1)
        m.beginGroup()
        for s in 4..<8 {
            m.moveTo(step: s, row: 64)
            m.place()
        }
        m.endGroup()
        #expect(m.pattern.notes(.melody).count == 5)
        m.undo()
        #expect(m.pattern.notes(.melody).count == 1)
        m.redo()
        #expect(m.pattern.notes(.melody).count == 5)
        m.undo()
        m.undo()
        m.undo()
        #expect(m.message == "nothing to undo")
    }

    @Test("shortening asks when notes would go, and removes or trims them only when confirmed")
    func shorten() {
        var m = EditorModel(
            pattern: Pattern(
                name: "t", length: 16,
                tracks: [
                    .melody: [Note(step: 2, pitch: 60, length: 10), Note(step: 12, pitch: 62)]
                ]))
        m.changeLength(steps: -1)
        #expect(m.question == .shorten(to: 8, affected: 2))
        #expect(m.pattern.length == 16)
        m.confirmShorten()
        #expect(m.pattern.length == 8)
        #expect(m.pattern.notes(.melody) == [Note(step: 2, pitch: 60, length: 6)])
        m.changeLength(steps: 1)
        #expect(m.pattern.length == 16 && m.question == nil)
        m.changeBPM(by: 500)
        #expect(m.pattern.bpm == 200)
    }

    @Test("the saved form parses with the strict loader back to the same music")
    func roundTrip() throws {
        let pattern = try Pattern.load(path: EditorModelTests.example("demo.json"))
        let data = try pattern.fileData()
        let back = try Pattern.parse(data, file: "demo.json")
        #expect(EditorModel.sameNotes(back, pattern))
        #expect(try back.fileData() == data)
    }

    static func example(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/\(name)").path
    }
}

@Suite("Terminal input")
struct TerminalInputTests {
    @Test("keys, arrows, Shift-Tab, control keys")
    func keys() {
        var p = TerminalInput()
        #expect(p.feed(Array("hj k".utf8)) == [.char("h"), .char("j"), .char(" "), .char("k")])
        #expect(
            p.feed([0x1B, 0x5B, 0x41, 0x1B, 0x4F, 0x44, 0x1B, 0x5B, 0x5A, 0x09, 0x0D, 0x12, 0x03])
                == [.arrow(.up), .arrow(.left), .shiftTab, .tab, .enter, .control("r"), .control("c")])
    }

    @Test("every sequence split at every byte gives the same events")
    func splitReads() {
        let bytes = Array("\u{1B}[<0;12;5M\u{1B}[<32;14;5M\u{1B}[<0;14;5m\u{1B}[Bq\u{1B}[<65;3;3M".utf8)
        var whole = TerminalInput()
        let expected = whole.feed(bytes)
        #expect(
            expected == [
                .mouse(button: .left, column: 12, row: 5, pressed: true, drag: false),
                .mouse(button: .left, column: 14, row: 5, pressed: true, drag: true),
                .mouse(button: .left, column: 14, row: 5, pressed: false, drag: false),
                .arrow(.down), .char("q"),
                .mouse(button: .wheelDown, column: 3, row: 3, pressed: true, drag: false)
            ])
        for cut in 1..<bytes.count {
            var p = TerminalInput()
            let events = p.feed(bytes[..<cut]) + p.feed(bytes[cut...])
            #expect(events == expected, "split at \(cut)")
        }
        // One byte at a time.
        var p = TerminalInput()
        #expect(bytes.flatMap { p.feed([$0]) } == expected)
    }

    @Test("a lone ESC is Escape only once nothing follows; unknown sequences are skipped, UTF-8 is a character")
    func escape() {
        var p = TerminalInput()
        #expect(p.feed([0x1B]).isEmpty && p.isWaiting)
        #expect(p.flush() == [.escape])
        #expect(
            p.feed(Array("\u{1B}[15~é\u{1B}[<2;1;1M".utf8))
                == [.char("é"), .mouse(button: .right, column: 1, row: 1, pressed: true, drag: false)])
        // Invalid UTF-8 and C1 controls are skipped a byte at a time, never typed.
        #expect(p.feed([0xC3, 0x28, 0xC2, 0x85, 0xFF, 0x80, 0x61]) == [.char("("), .char("a")])
    }
}

@Suite("Editor screen")
struct EditorScreenTests {
    static let pattern = Pattern(
        name: "snap", bpm: 120, length: 16,
        tracks: [
            .melody: [Note(step: 0, pitch: 60), Note(step: 4, pitch: 64, velocity: .accent, length: 3)],
            .bass: [Note(step: 8, pitch: 62, velocity: .sustain, length: 2)]
        ])

    @Test("80x24: title, ruler, grid with note starts, tails and the other tracks faintly, status line")
    func snapshot() {
        var view = EditorView(colorMode: .truecolor)
        let model = EditorModel(pattern: EditorScreenTests.pattern)
        let f = view.frame(
            model: model, width: 80, height: 24, playStep: 5, playing: true,
            sound: .device(name: "pulse", latencyMilliseconds: 8.7), fileName: "snap.json")
        let lines = f.lines
        #expect(lines[0] == "PixelBoop  [melody]  chords   bass   rhythm                    new notes: normal")
        #expect(lines[1] == "           1       5       9       13")
        let row = { (label: String) in lines.first { $0.hasPrefix(label + " ") } ?? "" }
        #expect(row("E4") == "E4         ┆ · · · ●━━━━ · ┆ · · · ┆ · · ·")
        #expect(row("D4") == "D4         ┆ · · · ┆ · · · • • · · ┆ · · ·")
        #expect(row("C4") == "C4         ● · · · ┆ · · · ┆ · · · ┆ · · ·")
        #expect(lines[23] == " snap.json │ melody │ step 1/16 │ C4 │ 120 BPM │ playing │ pulse 8.7 ms")
        // The playhead column is highlighted; the cursor cell is in reverse video.
        #expect(f[11 + 2 * 5, 5].style.bg == .playhead)
        let c4 = lines.firstIndex { $0.hasPrefix("C4 ") }!
        #expect(f[11, c4].style.reverse)
    }

    @Test("NO_COLOR and TERM=dumb: ASCII glyphs and no colour; too small: one line")
    func asciiAndSmall() {
        #expect(ColorMode.detect(["NO_COLOR": "1", "TERM": "xterm"]) == .none)
        #expect(ColorMode.detect(["TERM": "dumb"]) == .none)
        #expect(ColorMode.detect(["COLORTERM": "truecolor"]) == .truecolor)
        #expect(ColorMode.detect(["TERM": "xterm-256color"]) == .palette256)
        var view = EditorView(colorMode: .none)
        var model = EditorModel(pattern: EditorScreenTests.pattern)
        model.cycleTrack(by: 2)   // bass: the cursor starts on its first note, D4
        let f = view.frame(
            model: model, width: 80, height: 24, playStep: nil, playing: false,
            sound: .silent("no sound device: editing silently"), fileName: "snap.json")
        #expect(f.lines.first { $0.hasPrefix("D4 ") } == "D4         : . . . : . . . s== . . : . . .")
        #expect(f.lines.first { $0.hasPrefix("E4 ") } == "E4         : . . . + + + . : . . . : . . .")
        // The sound's detail gives way first.
        #expect(f.lines[23] == " snap.json | bass | step 1/16 | D4 | 120 BPM | stopped | no sound device")
        var writer = ScreenWriter(colorMode: .none)
        #expect(!writer.update(to: f).contains("38;"))
        let small = view.frame(
            model: model, width: 79, height: 24, playStep: nil, playing: false,
            sound: .silent(""), fileName: "x")
        #expect(small.lines.filter { !$0.isEmpty } == ["terminal too small (need 80×24)"])
    }

    @Test("the writer rewrites only changed cells, inside synchronized output")
    func diff() {
        var view = EditorView(colorMode: .palette256)
        var model = EditorModel(pattern: EditorScreenTests.pattern)
        var writer = ScreenWriter(colorMode: .palette256)
        let first = writer.update(
            to: view.frame(
                model: model, width: 80, height: 24, playStep: nil, playing: false,
                sound: .silent("s"), fileName: "f"))
        #expect(first.hasPrefix("\u{1B}[?2026h") && first.hasSuffix("\u{1B}[?2026l"))
        #expect(first.count > 2000)
        let same = writer.update(
            to: view.frame(
                model: model, width: 80, height: 24, playStep: nil, playing: false,
                sound: .silent("s"), fileName: "f"))
        #expect(same.isEmpty)
        model.move(steps: 1)
        let moved = writer.update(
            to: view.frame(
                model: model, width: 80, height: 24, playStep: nil,
                playing: false, sound: .silent("s"), fileName: "f"))
        #expect(!moved.isEmpty && moved.count < 400)
    }

    @Test("a mouse position maps to the step and the pitch row under it")
    func mouseMapping() {
        var view = EditorView(colorMode: .none)
        let model = EditorModel(pattern: EditorScreenTests.pattern)
        let f = view.frame(
            model: model, width: 80, height: 24, playStep: nil, playing: false, sound: .silent(""),
            fileName: "f")
        let c4Row = f.lines.firstIndex { $0.hasPrefix("C4 ") }! + 1
        #expect(view.cell(column: 12, row: c4Row, model: model, width: 80, height: 24)! == (0, 60))
        #expect(view.cell(column: 12 + 2 * 7 + 1, row: c4Row - 2, model: model, width: 80, height: 24)! == (7, 62))
        #expect(view.cell(column: 5, row: c4Row, model: model, width: 80, height: 24) == nil)
        #expect(view.cell(column: 12 + 2 * 16, row: c4Row, model: model, width: 80, height: 24) == nil)
    }
}
