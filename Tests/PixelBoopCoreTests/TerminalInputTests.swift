import Foundation
import Testing

@testable import PixelBoopCore

@Suite("Terminal input")
struct TerminalInputTests {
    @Test("keys, arrows, Shift-Tab, control keys")
    func keys() {
        var p = TerminalInput()
        #expect(p.feed(Array("hj k".utf8)) == [.char("h"), .char("j"), .char(" "), .char("k")])
        #expect(
            p.feed([0x1B, 0x5B, 0x41, 0x1B, 0x4F, 0x44, 0x1B, 0x5B, 0x5A, 0x09, 0x0D, 0x12, 0x03])
                == [.arrow(.up), .arrow(.left), .shiftTab, .tab, .enter, .control("r"), .control("c")])
        #expect(p.feed(Array("\u{1B}[2~\u{1B}[3~".utf8)) == [.insert, .delete])
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

    @Test("mouse reports: digits only, saturated; positions off screen are no cell (no overflow)")
    func mouseNumbers() {
        var p = TerminalInput()
        #expect(p.feed(Array("\u{1B}[<0;-9223372036854775808;5M".utf8)).isEmpty)   // a sign: not a report
        #expect(p.feed(Array("\u{1B}[<0;;5M\u{1B}[<0;5;5;5M\u{1B}[<0;5M".utf8)).isEmpty)
        #expect(
            p.feed(Array("\u{1B}[<0;99999999999999999999999;9223372036854775807M".utf8))
                == [.mouse(button: .left, column: 99_999, row: 99_999, pressed: true, drag: false)])
        var view = EditorView(colorMode: .none)
        let model = EditorModel(version1: Song(name: "t"))
        for (column, row) in [(Int.min, 5), (Int.max, 5), (5, Int.min), (5, Int.max), (Int.min, Int.min), (0, 0), (81, 5)] {
            #expect(view.cell(column: column, row: row, model: model, width: 80, height: 24) == nil)
        }
    }
}
