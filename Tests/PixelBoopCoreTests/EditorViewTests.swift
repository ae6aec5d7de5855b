import Foundation
import Testing

@testable import PixelBoopCore

@Suite("Editor screen (EditorView)")
struct EditorViewTests {
    static let pattern = Song(
        name: "snap", bpm: 120, length: 16,
        tracks: [
            .melody: [SongNote(step: 0, pitch: 60), SongNote(step: 4, pitch: 64, velocity: .accent, length: 3)],
            .bass: [SongNote(step: 8, pitch: 62, velocity: .sustain, length: 2)]
        ])

    @Test("80x24: title, ruler, grid with note starts, tails and the other tracks faintly, status line")
    func snapshot() {
        var view = EditorView(colorMode: .truecolor)
        let model = EditorModel(version1: EditorViewTests.pattern)
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
        // The note under the cursor (normal, one step) comes last, its shortest form first to go.
        #expect(lines[23] == " snap.json │ melody │ step 1/16 │ C4 │ 120 BPM │ playing │ pulse 8.7 ms │ n1")
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
        var model = EditorModel(version1: EditorViewTests.pattern)
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
        var model = EditorModel(version1: EditorViewTests.pattern)
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
        let model = EditorModel(version1: EditorViewTests.pattern)
        let f = view.frame(
            model: model, width: 80, height: 24, playStep: nil, playing: false, sound: .silent(""),
            fileName: "f")
        let c4Row = f.lines.firstIndex { $0.hasPrefix("C4 ") }! + 1
        #expect(view.cell(column: 12, row: c4Row, model: model, width: 80, height: 24)! == (0, 60))
        #expect(view.cell(column: 12 + 2 * 7 + 1, row: c4Row - 2, model: model, width: 80, height: 24)! == (7, 62))
        #expect(view.cell(column: 5, row: c4Row, model: model, width: 80, height: 24) == nil)
        #expect(view.cell(column: 12 + 2 * 16, row: c4Row, model: model, width: 80, height: 24) == nil)
    }

    @Test("text put on the screen never carries a control: ESC, BEL and C1 are shown escaped")
    func escapesControls() {
        var f = ScreenFrame(width: 40, height: 1)
        f.put("a\u{1B}]0;t\u{07}\u{1B}[2J\u{9B}b", column: 0, row: 0)
        #expect(f.lines[0] == "a\\e]0;t\\u{7}\\e[2J\\u{9B}b")
        var cell = ScreenFrame(width: 2, height: 1)
        cell[0, 0] = Cell("\u{1B}")
        cell[1, 0] = Cell("\u{9B}")
        var writer = ScreenWriter(colorMode: .none)
        let out = writer.update(to: cell)
        #expect(!out.unicodeScalars.contains("\u{9B}") && out.contains("\u{FFFD}\u{FFFD}"))
    }
}
