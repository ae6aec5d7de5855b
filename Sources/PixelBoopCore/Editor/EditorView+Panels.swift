import Glibc

/// The panels over the grid: the keys (`?`), the song chain (`g`) and the track's instrument (`I`).
extension EditorView {
    /// The keys in two columns (each at most 38 characters, so both fit 80 columns).
    static let helpColumns: [[String]] = [
        [
            "arrows, h j k l  move (up: higher)",
            "H L              four steps left/right",
            "space, Enter     place/remove a note",
            "1 2 3  V         velocity; V: 1..127",
            "[ ]              shorter / longer note",
            "Tab, Shift-Tab   next / previous track",
            "p                play / stop the loop",
            "G                loop: pattern / chain",
            "+ -  = _  b      tempo ±5 / ±1 / typed",
            "< >  N           length 8..64 / typed",
            "C                track's own length",
            "u, Ctrl-R        undo / redo",
            "s, Ctrl-S        save;  W  save as",
            "E                export (.wav / .mid)",
            "S                scale lock (C maj...)",
            "Ctrl-Z           suspend (fg: back)",
            "q, Ctrl-C        quit (asks to save)",
            "*                record (MIDI, voice)",
            "mouse: click toggles, drag paints,",
            "  right: remove, drag: block; wheel"
        ],
        [
            "v  Shift+arrows  mark a block",
            "Esc              clear the block",
            "y x P            copy / cut / paste",
            "Delete, Backspc  delete block or note",
            "t T  o O         transpose ±1 / ±12",
            "( )  D           nudge; duplicate",
            "Ctrl-A           the whole track",
            "e, Ins  d        insert / delete step",
            "} {              next / prev. pattern",
            "c n              clone / new pattern",
            "g                the song chain",
            "I                instrument and mix",
            "m M              mute / solo the track",
            "f F              swing +5 / -5 %",
            "a A  r R         chance ±10 %, ratchet",
            "z Z  Y           condition / typed",
            "Q                fill mode on / off",
            "i  K             MIDI entry / piano",
            "% & ! @          quantize/mode/click",
            "? or Esc         close this help"
        ]
    ]

    func drawHelp(_ f: inout ScreenFrame) {
        let columnWidth = 38
        let width = columnWidth * 2 + 3
        let left = max(0, (f.width - width) / 2)
        let rows = EditorView.helpColumns.map(\.count).max() ?? 0
        let top = max(0, min(2, f.height - 2 - rows - 2))
        let style = CellStyle(fg: .bright, reverse: true)
        // The grid beside the panel is blanked: a narrow screen's last column would show through.
        for row in top...(top + rows + 1) {
            f.put(String(repeating: " ", count: f.width), column: 0, row: row, style: CellStyle())
        }
        f.put(" keys" + String(repeating: " ", count: width - 5), column: left, row: top, style: style)
        for i in 0..<rows {
            let parts = EditorView.helpColumns.map { i < $0.count ? $0[i] : "" }
            let line = " " + parts.map { $0.padded(to: columnWidth) }.joined(separator: " ")
            f.put(line.padded(to: width), column: left, row: top + 1 + i, style: style)
        }
        f.put(String(repeating: " ", count: width), column: left, row: top + 1 + rows, style: style)
    }

    /// The chain: one line per entry (its pattern, repeats, tempo), the panel's cursor marked.
    func drawChain(_ f: inout ScreenFrame, model: EditorModel) {
        let width = 60
        let left = max(0, (f.width - width) / 2)
        let style = CellStyle(fg: .bright, reverse: true)
        let listRows = max(1, f.height - 9)
        let first = max(0, min(model.chainIndex - listRows / 2, model.song.chain.count - listRows))
        var lines = [
            "song chain (\(counted(model.song.chain.count, "entry", "entries")), \(counted(model.song.patterns.count, "pattern")))"
        ]
        for i in first..<min(model.song.chain.count, first + listRows) {
            let e = model.song.chain[i]
            let length = model.song.pattern(named: e.pattern)?.length ?? 0
            let bpm = e.bpm.map { " \(Int($0)) BPM" } ?? ""
            let shift = (e.transpose == 0 ? "" : " \(e.transpose > 0 ? "+" : "")\(e.transpose) st") + (e.fill ? " fill" : "")
            // The entry the playing chain is in.
            let heard = model.heardEntry == i ? (ascii ? "  < playing" : "  ◀ playing") : ""
            let looped = model.playsChain && model.playedRange?.contains(i) == true ? "|" : " "
            lines.append(
                "\(i == model.chainIndex ? ">" : " ")\(looped)\(String(i + 1).leftPad(3))  \(e.pattern)  x\(e.repeats)  \(length) steps\(bpm)\(shift)\(heard)"
            )
        }
        lines += [
            "", "Enter edit  a again  d duplicate  n new  r rename", "x delete  X delete the pattern  J K move",
            "+ - repeats  [ ] pattern  b tempo  t transpose  f fill",
            "p play from here  v v loop a range  Esc close"
        ]
        for (i, line) in lines.enumerated() {
            f.put(" " + line.padded(to: width - 1), column: left, row: 2 + i, style: style)
        }
    }

    /// The track's instrument and mix: one field a line, the panel's cursor marked.
    func drawInstrument(_ f: inout ScreenFrame, model: EditorModel) {
        let width = 50
        let left = max(0, (f.width - width) / 2)
        let style = CellStyle(fg: .bright, reverse: true)
        var lines = ["\(model.track.rawValue): instrument and mix"]
        for (i, field) in EditorModel.instrumentFields(model.track).enumerated() {
            lines.append(
                "\(i == model.instrumentField ? ">" : " ") \(field.padded(to: 10)) \(model.instrumentValue(field))"
            )
        }
        let inst = model.instrument
        lines += [
            "  mute \(inst.mute ? "on" : "off")  solo \(inst.solo ? "on" : "off")  (m, M)", "",
            "j k field   h l change   Esc close"
        ]
        for (i, line) in lines.enumerated() {
            f.put(" " + line.padded(to: width - 1), column: left, row: 2 + i, style: style)
        }
    }
}

extension String {
    func leftPad(_ n: Int) -> String { count >= n ? self : String(repeating: " ", count: n - count) + self }
}
