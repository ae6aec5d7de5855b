import Foundation
import Testing

@testable import PixelBoopCore

/// The screen writer (ScreenWriter.swift): frames to terminal bytes, only the changed cells,
/// inside synchronized output, in the colour mode the terminal takes.
@Suite("Screen writer")
struct ScreenWriterTests {
    static let begin = "\u{1B}[?2026h"
    static let end = "\u{1B}[0m\u{1B}[?2026l"

    static func frame(_ rows: [String]) -> ScreenFrame {
        var f = ScreenFrame(width: rows[0].count, height: rows.count)
        for (y, text) in rows.enumerated() { f.put(text, column: 0, row: y) }
        return f
    }

    @Test("the first frame clears the screen and sends every cell; the same frame again sends nothing")
    func firstFrame() {
        var w = ScreenWriter(colorMode: .none)
        let out = w.update(to: Self.frame(["abc", "de "]))
        #expect(out == Self.begin + "\u{1B}[0m\u{1B}[2J\u{1B}[1;1H\u{1B}[0mabc\u{1B}[2;1Hde " + Self.end)
        #expect(w.update(to: Self.frame(["abc", "de "])) == "")
    }

    @Test("a changed cell is one cursor move and its character; separate runs get a move each")
    func changedCells() {
        var w = ScreenWriter(colorMode: .none)
        _ = w.update(to: Self.frame(["abcdef", "ghijkl"]))
        let out = w.update(to: Self.frame(["aXYdeZ", "ghijkl"]))
        #expect(out == Self.begin + "\u{1B}[1;2H\u{1B}[0mXY\u{1B}[1;6HZ" + Self.end)
    }

    @Test("a new size, or invalidate, draws the whole screen again")
    func fullRedraws() {
        var w = ScreenWriter(colorMode: .none)
        _ = w.update(to: Self.frame(["ab"]))
        #expect(w.update(to: Self.frame(["ab", "cd"])).contains("\u{1B}[2J"))
        w.invalidate()
        let again = w.update(to: Self.frame(["ab", "cd"]))
        #expect(again.contains("\u{1B}[2J") && again.contains("ab") && again.contains("cd"))
    }

    @Test(
        "colours as 24-bit, as the 256-colour palette, or left out",
        arguments: [
            (ColorMode.truecolor, "\u{1B}[0;1;38;2;255;176;40;48;2;40;44;96m"),
            (ColorMode.palette256, "\u{1B}[0;1;38;5;214;48;5;17m"),
            (ColorMode.none, "\u{1B}[0;1m")
        ])
    func colours(_ mode: ColorMode, _ expected: String) {
        let w = ScreenWriter(colorMode: mode)
        #expect(w.sgr(CellStyle(fg: .accent, bg: .playhead, bold: true)) == expected)
        #expect(w.sgr(CellStyle(reverse: true, underline: true)) == "\u{1B}[0;4;7m")
    }

    @Test("a style is sent where it changes, not again for cells that share it")
    func stylesOnChange() {
        var f = ScreenFrame(width: 4, height: 1)
        let bold = CellStyle(bold: true)
        f.put("ab", column: 0, row: 0, style: bold)
        f.put("cd", column: 2, row: 0)
        var w = ScreenWriter(colorMode: .none)
        #expect(w.update(to: f) == Self.begin + "\u{1B}[0m\u{1B}[2J\u{1B}[1;1H\u{1B}[0;1mab\u{1B}[0mcd" + Self.end)
    }

    @Test("half of a wide character, set cell by cell, is sent as a blank")
    func halfWide() {
        var f = ScreenFrame(width: 3, height: 1)
        f[2, 0] = Cell("漢")   // no room for its second column
        f[0, 0] = .continuation(.plain)   // a second column with no first
        var w = ScreenWriter(colorMode: .none)
        #expect(w.update(to: f).contains("\u{1B}[1;1H\u{1B}[0m   "))
    }

    /// What a terminal shows after `bytes`: cursor moves (CSI row;col H), clears (CSI 2J), styles
    /// and modes skipped, every other character written where the cursor is.
    static func apply(_ bytes: String, to screen: inout [[Character]]) {
        var scalars = Array(bytes)[...]
        var row = 0
        var col = 0
        while let c = scalars.popFirst() {
            guard c == "\u{1B}" else {
                screen[row][col] = c
                col += 1
                continue
            }
            _ = scalars.popFirst()   // [
            var params = ""
            while let p = scalars.popFirst() {
                if p.isLetter {
                    if p == "H" {
                        let n = params.split(separator: ";").map { Int($0)! }
                        (row, col) = (n[0] - 1, n[1] - 1)
                    } else if p == "J" {
                        screen = screen.map { $0.map { _ in " " } }
                    }
                    break
                }
                params.append(p)
            }
        }
    }

    @Test("any run of frames, written one after the other, leaves the terminal showing the last")
    func terminalFollows() {
        var rng = SeededGenerator(seed: 2026)
        var w = ScreenWriter(colorMode: .palette256)
        var screen: [[Character]] = Array(repeating: Array(repeating: "?", count: 12), count: 5)
        var f = ScreenFrame(width: 12, height: 5)
        let colours: [CellStyle.Color] = [.none, .accent, .dim]
        for _ in 0..<200 {
            for _ in 0..<Int.random(in: 0...6, using: &rng) {
                let style = CellStyle(fg: colours.randomElement(using: &rng)!, bold: Bool.random(using: &rng))
                let ch = Character(UnicodeScalar(UInt8.random(in: 0x61...0x66, using: &rng)))
                f.put(
                    String(ch), column: Int.random(in: 0..<12, using: &rng), row: Int.random(in: 0..<5, using: &rng), style: style
                )
            }
            Self.apply(w.update(to: f), to: &screen)
            #expect(screen.map { String($0) } == (0..<5).map { f.text(row: $0) })
        }
    }
}
