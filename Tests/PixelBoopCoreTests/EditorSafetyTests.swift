import Foundation
import Testing

@testable import PixelBoopCore

@Suite("Editor: input from anywhere, cursor ends, reopening, hints, the status line")
struct EditorSafetyTests {
    @Test("mouse reports: digits only, saturated; positions off screen are no cell (no overflow)")
    func mouseNumbers() {
        var p = TerminalInput()
        #expect(p.feed(Array("\u{1B}[<0;-9223372036854775808;5M".utf8)).isEmpty)   // a sign: not a report
        #expect(p.feed(Array("\u{1B}[<0;;5M\u{1B}[<0;5;5;5M\u{1B}[<0;5M".utf8)).isEmpty)
        #expect(
            p.feed(Array("\u{1B}[<0;99999999999999999999999;9223372036854775807M".utf8))
                == [.mouse(button: .left, column: 99_999, row: 99_999, pressed: true, drag: false)])
        var view = EditorView(colorMode: .none)
        let model = EditorModel(pattern: Pattern(name: "t"))
        for (column, row) in [(Int.min, 5), (Int.max, 5), (5, Int.min), (5, Int.max), (Int.min, Int.min), (0, 0), (81, 5)] {
            #expect(view.cell(column: column, row: row, model: model, width: 80, height: 24) == nil)
        }
    }

    @Test("H and L stop at the first and last step; h and l wrap; no count overflows")
    func jumps() {
        var m = EditorModel(pattern: Pattern(name: "t"))
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
        let pattern = Pattern(
            name: "high", bpm: 120, length: 16,
            tracks: [
                .melody: [Note(step: 5, pitch: 100), Note(step: 2, pitch: 96)],
                .bass: [Note(step: 0, pitch: 28)], .rhythm: [Note(step: 0, pitch: 49)]
            ])
        var m = EditorModel(pattern: pattern)
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
        #expect(EditorModel(pattern: Pattern(name: "e")).cursorLabel == "C4")
    }

    @Test("useful pitch range per track from its lowpass and the 20 Hz floor; hints outside it")
    func pitchRange() {
        #expect(PitchRange.highest(.melody) == 107)   // B7, 3951 Hz <= 2 x 2 kHz
        #expect(PitchRange.highest(.chords) == 111)   // D#8, 4978 Hz <= 2 x 2.5 kHz
        #expect(PitchRange.highest(.bass) == 93)   // A6, 1760 Hz <= 2 x 900 Hz
        #expect(PitchRange.lowest == 16)   // E0, 20.6 Hz
        #expect(PitchRange.tag(pitch: 127, kind: .melody) == "too high")
        #expect(PitchRange.tag(pitch: 0, kind: .bass) == "too low")
        #expect(PitchRange.tag(pitch: 60, kind: .melody) == nil)
        #expect(PitchRange.tag(pitch: 0, kind: .rhythm) == nil)
        #expect(PitchRange.hint(pitch: 127, kind: .melody)?.hasPrefix("G9 (12544 Hz) is far above") == true)
        #expect(PitchRange.hint(pitch: 0, kind: .melody)?.hasPrefix("C-1 (8.2 Hz) is below hearing") == true)
        var m = EditorModel(pattern: Pattern(name: "t"))
        #expect(m.pitchHint == nil)
        m.move(rows: 200)
        var view = EditorView(colorMode: .truecolor)
        let f = view.frame(
            model: m, width: 80, height: 24, playStep: nil, playing: false, sound: .silent("s"), fileName: "f")
        #expect(f.lines[22].hasPrefix("G9 (12544 Hz) is far above the melody's 2 kHz lowpass"))
        #expect(f.lines[23].contains("G9 too high"))
    }

    @Test("the status line fits any width, keeps the name whole while it fits, shortens the rest first")
    func statusLine() {
        var view = EditorView(colorMode: .truecolor)
        var m = EditorModel(pattern: Pattern(name: "t"))
        m.toggle()
        let name = "a-rather-long-pattern-file-name-for-the-status-line.json"
        for sound in [
            SoundStatus.device(name: "pulse", latencyMilliseconds: 8.7), .silent("no sound device: editing silently"),
            .reconnecting
        ] {
            for width in [200, 120, 80, 70, 60, 58, 57, 40, 20, 5, 1] {
                let line = view.statusText(model: m, playing: true, sound: sound, name: name + "*", width: width)
                #expect(line.count <= width, "width \(width): \(line)")
                if name.count + 2 <= width { #expect(line.contains(name + "*"), "width \(width): \(line)") }
            }
        }
        let at80 = view.statusText(
            model: m, playing: false, sound: .device(name: "pulse", latencyMilliseconds: 8.7), name: name + "*", width: 80)
        #expect(at80 == " \(name)*│mel│1/16│C4│120│■│n1")
        // A device being reconnected says so on an 80-column line with a usual file name.
        let reconnecting = view.statusText(
            model: m, playing: true, sound: .reconnecting, name: "reconnect.json*", width: 80)
        #expect(reconnecting.contains("reconnecting"), "\(reconnecting)")
        let f = view.frame(
            model: m, width: 80, height: 24, playStep: nil, playing: false,
            sound: .device(name: "pulse", latencyMilliseconds: 8.7), fileName: name)
        #expect(f.text(row: 23).hasPrefix(" \(name)*"))
    }

    @Test("the path line: typing, Backspace, Ctrl-U, Ctrl-W, Enter, Esc; its end shown when long")
    func pathPrompt() {
        var p = PathPrompt(label: "save as", text: "/tmp/a.json")
        #expect(p.apply(.backspace) == .editing && p.text == "/tmp/a.jso")
        _ = p.apply(.char("n"))
        _ = p.apply(.char("é"))
        #expect(p.text == "/tmp/a.jsoné")
        _ = p.apply(.control("w"))
        #expect(p.text == "/tmp/")
        _ = p.apply(.control("u"))
        #expect(p.apply(.enter) == .editing)   // nothing typed: nothing to save to
        for c in "  b.json " { _ = p.apply(.char(c)) }
        #expect(p.apply(.enter) == .done("b.json"))
        #expect(p.apply(.escape) == .cancelled)
        let long = PathPrompt(label: "save as", text: String(repeating: "x", count: 300) + "/end.json")
        let line = long.line(width: 80)
        #expect(line.count <= 80 && line.hasPrefix("save as: …") && line.hasSuffix("/end.json▏"))
    }
}
