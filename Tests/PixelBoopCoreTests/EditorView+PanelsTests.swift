import Foundation
import Testing

@testable import PixelBoopCore

/// The panels over the grid (EditorView+Panels.swift): the keys (`?`), the song chain (`g`) and
/// the track's instrument and mix (`I`).
@Suite("The editor's panels")
struct EditorViewPanelsTests {
    /// The panel's text on `row` of `f`: `width` columns from `left`, trailing blanks trimmed.
    static func line(_ f: ScreenFrame, _ row: Int, left: Int, width: Int) -> String {
        let text = Array(f.text(row: row))
        return String(String(text[left..<(left + width)]).reversed().drop { $0 == " " }.reversed())
    }

    static func chainSong() -> Song {
        Song(
            name: "c",
            patterns: [SongPattern(name: "A"), SongPattern(name: "B", length: 12)],
            chain: [
                ChainEntry(pattern: "A", repeats: 2), ChainEntry(pattern: "B", bpm: 96.6, transpose: -5),
                ChainEntry(pattern: "A", transpose: 7, fill: true)
            ])
    }

    @Test("the keys fit two columns of 38 characters, and every one is on an 80×24 screen")
    func help() {
        #expect(EditorView.helpColumns.joined().allSatisfy { $0.count <= 38 })
        var f = ScreenFrame(width: 80, height: 24)
        for row in 0..<24 { f.put(String(repeating: "#", count: 80), column: 0, row: row) }
        EditorView(colorMode: .truecolor).drawHelp(&f)
        let shown = f.lines.joined(separator: "\n")
        for key in EditorView.helpColumns.joined() { #expect(shown.contains(key), "\(key)") }
        #expect(f.lines[0].hasPrefix(" keys"))
        // The grid beside the panel is blanked: the 80th column shows none of it.
        #expect((0..<22).allSatisfy { !f.text(row: $0).contains("#") })
        #expect(f[1, 1].style == CellStyle(fg: .bright, reverse: true))
    }

    @Test("the chain lists each entry's pattern, repeats, length, tempo, transpose and fill")
    func chain() {
        var m = EditorModel(song: Self.chainSong(), version1: false)
        m.moveChainCursor(by: 1)
        var f = ScreenFrame(width: 80, height: 24)
        EditorView(colorMode: .truecolor).drawChain(&f, model: m)
        let lines = (2..<7).map { Self.line(f, $0, left: 10, width: 60) }
        #expect(
            lines == [
                " song chain (3 entries, 2 patterns)", "     1  A  x2  16 steps", " >   2  B  x1  12 steps 96 BPM -5 st",
                "     3  A  x1  16 steps +7 st fill", ""
            ])
        #expect(Self.line(f, 10, left: 10, width: 60) == " p play from here  v v loop a range  Esc close")
    }

    @Test("the entry being heard is marked, and the looped range; ASCII without colour")
    func chainPlaying() {
        var m = EditorModel(song: Self.chainSong(), version1: false)
        m.playChain(fromEntry: 1)
        m.heard = SongPosition(entry: 1, pattern: 0, step: 0, bpm: 120)   // the 2nd entry of the range
        for (mode, mark) in [(ColorMode.truecolor, "◀"), (.none, "<")] {
            var f = ScreenFrame(width: 80, height: 24)
            EditorView(colorMode: mode).drawChain(&f, model: m)
            #expect(Self.line(f, 3, left: 10, width: 60) == " >   1  A  x2  16 steps")
            #expect(Self.line(f, 4, left: 10, width: 60) == "  |  2  B  x1  12 steps 96 BPM -5 st")
            #expect(Self.line(f, 5, left: 10, width: 60) == "  |  3  A  x1  16 steps +7 st fill  \(mark) playing")
        }
    }

    @Test("a chain longer than the screen scrolls so the panel's cursor stays in sight")
    func chainScrolls() {
        let entries = (0..<40).map { ChainEntry(pattern: "A", repeats: $0 % 4 + 1) }
        var m = EditorModel(song: Song(name: "l", patterns: [SongPattern(name: "A")], chain: entries), version1: false)
        m.moveChainCursor(by: 30)
        var f = ScreenFrame(width: 80, height: 24)
        EditorView(colorMode: .truecolor).drawChain(&f, model: m)
        let list = (3..<18).map { Self.line(f, $0, left: 10, width: 60) }
        #expect(list.first == "    24  A  x4  16 steps" && list.last == "    38  A  x2  16 steps")
        #expect(list.filter { $0.hasPrefix(" >") } == [" >  31  A  x3  16 steps"])
    }

    @Test("the instrument panel shows each field with its value, the cursor's marked, and mute and solo")
    func instrument() {
        var m = EditorModel(song: Self.chainSong(), version1: false)
        m.cycleTrack(by: -1)
        m.moveInstrumentField(by: 1)
        m.toggleSolo()
        var f = ScreenFrame(width: 80, height: 24)
        EditorView(colorMode: .truecolor).drawInstrument(&f, model: m)
        let lines = (2..<10).map { Self.line(f, $0, left: 15, width: 50) }
        func field(_ mark: String, _ name: String, _ value: String) -> String {
            " \(mark) " + name.padding(toLength: 10, withPad: " ", startingAt: 0) + " " + value
        }
        #expect(
            lines == [
                " rhythm: instrument and mix", field(" ", "kit", Instrument.Kit.gm.rawValue), field(">", "level", "1.00"),
                field(" ", "pan", "+0.00"), "   mute off  solo on  (m, M)", "", " j k field   h l change   Esc close", ""
            ])
    }
}
