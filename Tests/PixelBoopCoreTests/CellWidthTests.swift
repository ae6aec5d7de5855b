import Testing

@testable import PixelBoopCore

/// Wide characters on the editor's screen: a CJK character or an emoji takes two columns on the
/// frame and on the terminal, a row never holds half of one, and the writer sends each once.
@Suite("Wide characters")
struct CellWidthTests {
    @Test("widths: ASCII, accents and box drawing 1; CJK, Hangul, full-width and emoji 2")
    func widths() {
        for c: Character in ["a", "ü", "u\u{308}", "┆", "●", "é", "→"] { #expect(CellWidth.of(c) == 1, "\(c)") }
        for c: Character in ["漢", "한", "Ａ", "🎵", "😀", "❤\u{FE0F}"] { #expect(CellWidth.of(c) == 2, "\(c)") }
        #expect(CellWidth.of("ü 🎵 x") == 6)
    }

    @Test("put: a wide character takes two cells; one that does not fit leaves a blank; no half is left")
    func put() {
        var f = ScreenFrame(width: 6, height: 1)
        f.put("a🎵b", column: 0, row: 0)
        #expect(f.text(row: 0) == "a🎵b  " && f[2, 0].isContinuation)
        f.put("x", column: 2, row: 0)   // over the emoji's second half: its first half goes too
        #expect(f.text(row: 0) == "a xb  ")
        f.put("漢字", column: 3, row: 0)   // the second does not fit at the edge
        #expect(f.text(row: 0) == "a x漢 ")
    }

    @Test("the writer sends a wide character once and nothing for its second column; a change next to one is redrawn whole")
    func writer() {
        var w = ScreenWriter(colorMode: .none)
        var f = ScreenFrame(width: 8, height: 1)
        f.put("ü 🎵 x", column: 0, row: 0)
        let first = w.update(to: f)
        #expect(first.contains("ü 🎵 x") && !first.contains("\u{0}"))
        var g = f
        g.put("y", column: 5, row: 0)
        let second = CellWidthTests.withoutStyles(w.update(to: g))
        #expect(second.contains("\u{1B}[1;6Hy") && !second.contains("🎵"))
        var h = g
        h.put("🎶", column: 2, row: 0)
        let third = CellWidthTests.withoutStyles(w.update(to: h))
        #expect(third.contains("\u{1B}[1;3H🎶") && !third.contains("\u{0}"), "\(Array(third.unicodeScalars))")
    }

    /// The output without its SGR sequences (ESC [ ... m), which the writer puts before a run.
    static func withoutStyles(_ s: String) -> String {
        var out = ""
        var inSGR = false
        var previous: Character = " "
        for c in s {
            if inSGR {
                if c == "m" { inSGR = false }
            } else if previous == "\u{1B}" && c == "[" {
                out.append(c)
            } else {
                out.append(c)
            }
            previous = c
        }
        // Drop ESC [ <digits;> m runs: those that end in m before any letter H.
        var result = ""
        var i = out.startIndex
        while i < out.endIndex {
            if out[i] == "\u{1B}", let m = out[i...].firstIndex(where: { $0.isLetter }), out[m] == "m" {
                i = out.index(after: m)
                continue
            }
            result.append(out[i])
            i = out.index(after: i)
        }
        return result
    }

    @Test("a message wider than the line is shortened after a whole word, never inside one")
    func shortenedAtAWord() {
        let text = "song.json changed on disk: o overwrite, r reload, W save elsewhere, Esc keep editing"
        #expect(EditorView.shortened(text, to: 200, ascii: false) == text)
        #expect(EditorView.shortened(text, to: 40, ascii: false) == "song.json changed on disk: o overwrite…")
        #expect(EditorView.shortened(text, to: 40, ascii: true) == "song.json changed on disk: o...")
        #expect(EditorView.shortened("ünïcödé wörds wïdé 🎵🎵 and more", to: 22, ascii: false) == "ünïcödé wörds wïdé…")
        #expect(EditorView.shortened("averyveryverylongword and", to: 10, ascii: false) == "averyvery…")
        for width in 1...90 { #expect(CellWidth.of(EditorView.shortened(text, to: width, ascii: false)) <= width) }
    }
}
