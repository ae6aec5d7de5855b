import Glibc

/// How the editor may colour: 24-bit, the 256-colour palette, or not at all (NO_COLOR,
/// TERM=dumb: plain ASCII glyphs, with only reverse video and underline for the cursor and the
/// playhead).
public enum ColorMode: Sendable, Equatable {
    case truecolor, palette256, none

    /// From the environment, as terminals advertise it.
    public static func detect(_ environment: [String: String]) -> ColorMode {
        if environment["NO_COLOR"].map({ !$0.isEmpty }) == true || environment["TERM"] == "dumb" { return .none }
        let colorterm = environment["COLORTERM"]?.lowercased() ?? ""
        return colorterm == "truecolor" || colorterm == "24bit" ? .truecolor : .palette256
    }
}

/// One character cell's look.
public struct CellStyle: Sendable, Equatable, Hashable {
    public enum Color: Sendable, Equatable, Hashable {
        case none, faint, dim, text, bright, normal, accent, sustain, playhead, cursorLine, title
    }

    public var fg: Color = .none
    public var bg: Color = .none
    public var bold = false
    public var reverse = false
    public var underline = false

    public init(
        fg: Color = .none, bg: Color = .none, bold: Bool = false, reverse: Bool = false,
        underline: Bool = false
    ) {
        self.fg = fg
        self.bg = bg
        self.bold = bold
        self.reverse = reverse
        self.underline = underline
    }

    public static let plain = CellStyle()
}

public struct Cell: Sendable, Equatable {
    public var char: Character
    public var style: CellStyle

    public init(_ char: Character, _ style: CellStyle = .plain) {
        self.char = char
        self.style = style
    }

    public static let blank = Cell(" ")

    /// The second column of a wide character: nothing is sent for it (the terminal moved two).
    public static func continuation(_ style: CellStyle) -> Cell { Cell("\u{0}", style) }
    public var isContinuation: Bool { char == "\u{0}" }
    var isWide: Bool { CellWidth.of(char) == 2 }
}

/// A whole screen of cells, row by row.
public struct ScreenFrame: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        cells = Array(repeating: .blank, count: width * height)
    }

    public subscript(column: Int, row: Int) -> Cell {
        get { cells[row * width + column] }
        set { if column >= 0, column < width, row >= 0, row < height { cells[row * width + column] = newValue } }
    }

    /// Writes `text` from `column` on `row`, clipped at the right edge. Every text on the screen
    /// comes through here, names from a file or the command line among them: control characters
    /// (ESC, C1 such as U+009B, newlines) are shown escaped (`OneLine`), never sent to the terminal.
    /// A wide character (CJK, an emoji: `CellWidth`) takes its cell and the next, which holds
    /// `Cell.continuation`; one that would not fit at the right edge leaves a blank there.
    public mutating func put(_ text: String, column: Int, row: Int, style: CellStyle = .plain) {
        var x = column
        for ch in OneLine.escape(text) {
            guard x < width else { break }
            let columns = CellWidth.of(ch)
            guard x + columns <= width else {
                place(Cell(" ", style), x, row, columns: 1)
                break
            }
            place(Cell(ch, style), x, row, columns: columns)
            x += columns
        }
    }

    /// Sets `columns` cells from `x`; a wide character they cut in half (on either side) becomes a
    /// blank, so a row never holds half of one.
    private mutating func place(_ cell: Cell, _ x: Int, _ y: Int, columns: Int) {
        guard x >= 0, x + columns <= width, y >= 0, y < height else { return }
        if self[x, y].isContinuation, x > 0 { self[x - 1, y] = Cell(" ", self[x - 1, y].style) }
        let after = x + columns
        if after < width, self[after, y].isContinuation { self[after, y] = Cell(" ", self[after, y].style) }
        self[x, y] = cell
        if columns == 2 { self[x + 1, y] = .continuation(cell.style) }
    }

    /// The characters of one row (for tests and snapshots).
    public func text(row: Int) -> String {
        String(cells[(row * width)..<((row + 1) * width)].filter { !$0.isContinuation }.map(\.char))
    }

    /// Every row's characters, trailing blanks trimmed.
    public var lines: [String] {
        (0..<height).map { String(text(row: $0).reversed().drop { $0 == " " }.reversed()) }
    }
}

/// What the status line says about sound.
public enum SoundStatus: Sendable, Equatable {
    case silent(String)
    /// The device was lost and is tried again: said even on a narrow status line.
    case reconnecting
    case device(name: String, latencyMilliseconds: Double)
}

/// Draws the editor: a title line, a step ruler, the grid (steps across; pitches or drum lanes
/// down), a message line and the status line. Holds the scroll position of the pitch rows.
public struct EditorView: Sendable {
    public static let minWidth = 80
    public static let minHeight = 24
    static let labelWidth = 11
    static let cellWidth = 2

    public var colorMode: ColorMode
    /// The highest pitch shown, per tonal track (the window scrolls to keep the cursor in view).
    private var topPitch: [TrackKind: Int] = [:]
    /// The first drum lane shown (the rhythm track scrolls through every General MIDI key).
    private var laneTop = 0
    /// The first step shown (patterns wider than the screen scroll to keep the cursor in view).
    public private(set) var leftStep = 0

    public init(colorMode: ColorMode) { self.colorMode = colorMode }

    var ascii: Bool { colorMode == .none }

    /// Steps that fit a screen of this width.
    static func gridSteps(width: Int) -> Int { max(1, (width - labelWidth) / cellWidth) }

    /// Scrolls the steps so the cursor is in view; returns the steps shown.
    mutating func visibleSteps(for model: EditorModel, width: Int) -> Range<Int> {
        let count = EditorView.gridSteps(width: width)
        let length = model.songPattern.length
        if model.step < leftStep { leftStep = model.step }
        if model.step >= leftStep + count { leftStep = model.step - count + 1 }
        leftStep = max(0, min(leftStep, length - count))
        return leftStep..<min(length, leftStep + count)
    }

    /// Grid rows that fit a screen of this height.
    static func gridRows(height: Int) -> Int { height - 4 }

    /// The rows shown for the model's track, top to bottom: pitches (high to low) or lane indexes.
    public mutating func visibleRows(for model: EditorModel, height: Int) -> [Int] {
        let count = EditorView.gridRows(height: height)
        if model.track == .rhythm {
            // Lanes scroll as pitches do: the cursor's lane always on screen.
            if model.row < laneTop { laneTop = model.row }
            if model.row >= laneTop + count { laneTop = model.row - count + 1 }
            laneTop = max(0, min(laneTop, DrumLane.all.count - count))
            return Array(laneTop..<min(laneTop + count, DrumLane.all.count))
        }
        var top = topPitch[model.track] ?? EditorView.initialTop(model, rows: count)
        if model.row > top { top = model.row }
        if model.row <= top - count { top = model.row + count - 1 }
        top = min(max(top, count - 1), Limits.midiNote.upperBound)
        topPitch[model.track] = top
        return (0..<count).map { top - $0 }.filter { $0 >= 0 }
    }

    /// Where a track's window starts the first time it is shown: its notes in the middle when
    /// they fit (the cursor is on the first of them), else the cursor in the middle.
    static func initialTop(_ model: EditorModel, rows count: Int) -> Int {
        let pitches = model.songPattern.notes(model.track).map(\.pitch).filter { EditorModel.pitchRange.contains($0) }
        if let lo = pitches.min(), let hi = pitches.max(), hi - lo < count {
            return min(Limits.midiNote.upperBound, (lo + hi + 1) / 2 + count / 2)
        }
        return min(Limits.midiNote.upperBound, model.row + count / 2)
    }

    /// The wheel: `rows` up (positive) or down, without moving the cursor off screen for good.
    public mutating func scroll(_ model: EditorModel, by rows: Int, height: Int) {
        guard model.track != .rhythm else { return }
        let count = EditorView.gridRows(height: height)
        let top = (topPitch[model.track] ?? model.row + count / 2) + rows
        topPitch[model.track] = min(max(top, count - 1), Limits.midiNote.upperBound)
    }

    /// The grid cell under a mouse position (1-based column and row, as reported): the step and
    /// the row value (pitch or lane), or nil outside the grid.
    public mutating func cell(column: Int, row: Int, model: EditorModel, width: Int, height: Int)
        -> (step: Int, row: Int)?
    {
        // Any terminal (or anything writing to ours) may report any number: only positions on a
        // screen of this size are looked at, so nothing below can overflow.
        guard (1...max(1, width)).contains(column), (1...max(1, height)).contains(row) else { return nil }
        let x = column - 1 - EditorView.labelWidth
        let y = row - 1 - 2
        guard x >= 0, y >= 0 else { return nil }
        let steps = visibleSteps(for: model, width: width)
        let step = steps.lowerBound + x / EditorView.cellWidth
        let rows = visibleRows(for: model, height: height)
        guard steps.contains(step), y < rows.count else { return nil }
        return (step, rows[y])
    }

    /// The whole screen. `playStep` is the step being heard (nil when stopped).
    public mutating func frame(
        model: EditorModel, width: Int, height: Int, playStep: Int?, playing: Bool,
        sound: SoundStatus, fileName: String
    ) -> ScreenFrame {
        var f = ScreenFrame(width: max(width, 1), height: max(height, 1))
        guard width >= EditorView.minWidth, height >= EditorView.minHeight else {
            f.put("terminal too small (need \(EditorView.minWidth)×\(EditorView.minHeight))", column: 0, row: 0)
            return f
        }
        let pattern = model.songPattern
        drawTitle(&f, model: model)
        let steps = visibleSteps(for: model, width: width)
        // The step ruler: beat numbers every four steps.
        for s in stride(from: 0, to: pattern.length, by: 4) where steps.contains(s) {
            f.put(
                String(s + 1), column: EditorView.labelWidth + (s - steps.lowerBound) * EditorView.cellWidth, row: 1,
                style: CellStyle(fg: .dim))
        }
        let rows = visibleRows(for: model, height: height)
        let play = playStep.map { (($0 % pattern.length) + pattern.length) % pattern.length }
        for (y, value) in rows.enumerated() {
            drawRow(&f, model: model, value: value, y: y + 2, play: play, steps: steps)
        }
        if model.showHelp {
            drawHelp(&f)
        } else if model.panel == .chain {
            drawChain(&f, model: model)
        } else if model.panel == .instrument {
            drawInstrument(&f, model: model)
        }
        // The message line: typed text, a question, a message, a hint about the pitch, or the keys.
        let asking = model.prompt != nil || model.question != nil
        let prompt = messageLine(model: model, fileName: fileName, width: width)
        f.put(
            prompt, column: 0, row: height - 2,
            style: asking ? CellStyle(fg: .bright, bold: true) : CellStyle(fg: .dim))
        drawStatus(&f, model: model, playing: playing, sound: sound, fileName: fileName, row: height - 1)
        return f
    }

    /// What the line above the status line says, shortened at a word to fit `width` (a typed line
    /// keeps its own scrolling). Questions put their answer keys first, so a long path after
    /// them is what goes.
    func messageLine(model: EditorModel, fileName: String, width: Int) -> String {
        if let prompt = model.prompt { return prompt.line(width: width, ascii: ascii) }
        return EditorView.shortened(fullMessage(model: model, fileName: fileName), to: width, ascii: ascii)
    }

    /// `text` if it fits `width` cells, else cut after its last whole word that leaves room for
    /// "…" ("..." in ASCII); a first word longer than the line is cut inside it.
    static func shortened(_ text: String, to width: Int, ascii: Bool) -> String {
        guard CellWidth.of(text) > width, width > 0 else { return text }
        let mark = ascii ? "..." : "…"
        let room = width - CellWidth.of(mark)
        guard room > 0 else { return String(mark.prefix(width)) }
        var kept = ""
        var used = 0
        var lastSpace: String.Index?
        var next: Character?
        for c in text {
            let w = CellWidth.of(c)
            if used + w > room {
                next = c
                break
            }
            if c == " " { lastSpace = kept.endIndex }
            kept.append(c)
            used += w
        }
        // Cut inside a word: back to the space before it (a first word too long stays cut).
        if next != " ", let cut = lastSpace, cut > kept.startIndex { kept = String(kept[..<cut]) }
        while kept.last == " " || kept.last == "," || kept.last == ":" { kept.removeLast() }
        return kept + mark
    }

    private func fullMessage(model: EditorModel, fileName: String) -> String {
        switch model.question {
        case .saveBeforeQuit: return "save changes? (y/n/c)"
        case .shorten(let to, let affected):
            return "shorten to \(to) steps? (y/n) \(counted(affected, "note")) past step \(to) will be removed or trimmed"
        case .restore:
            let source = model.restoreSource ?? fileName + ".save"
            if PathText.lastComponent(source) == fileName + ".save" {
                return "\(fileName).save holds unsaved changes: restore them? (y/n)"
            }
            return "restore unsaved changes of \(fileName)? (y/n) kept in \(OneLine.escape(source))"
        case .overwriteReadOnly(let path):
            return "overwrite read-only file \(OneLine.escape(PathText.lastComponent(path)))? (y/n, W: save elsewhere)"
        case .overwriteExisting(let path):
            return "\(OneLine.escape(path)) exists: replace it? (y/n)"
        case .openElsewhere(let path, let holder):
            return "\(OneLine.escape(PathText.lastComponent(path))) is open in \(holder): save anyway? (y/n, W: save elsewhere)"
        case .changedOnDisk(let path):
            return
                "\(OneLine.escape(PathText.lastComponent(path))) changed on disk: o overwrite, r reload, W save elsewhere, Esc keep editing"
        case .replaceExport(let path):
            return "\(OneLine.escape(path)) exists: replace it with the export? (y/n)"
        case nil:
            return model.message ?? model.pitchHint ?? "? help   space toggle   p play   u undo   s save   q quit"
        }
    }

    private func drawTitle(_ f: inout ScreenFrame, model: EditorModel) {
        f.put("PixelBoop", column: 0, row: 0, style: CellStyle(fg: .title, bold: true))
        var x = 11
        for kind in TrackKind.allCases {
            let current = kind == model.track
            let inst = model.song.instrument(kind)
            let name = kind.rawValue + (inst.mute ? "(m)" : "") + (inst.solo ? "(s)" : "")
            let label = current ? "[\(name)]" : " \(name) "
            f.put(label, column: x, row: 0, style: current ? CellStyle(fg: .bright, bold: true) : CellStyle(fg: .dim))
            x += label.count + 1
        }
        // Mute and solo marks may leave too little room: the shorter form, or nothing, rather than overlap.
        let velocity = ["new notes: \(model.velocity.rawValue)", model.velocity.rawValue].first { x + $0.count <= f.width }
        if let velocity { f.put(velocity, column: f.width - velocity.count, row: 0, style: CellStyle(fg: .text)) }
    }

    private func drawRow(
        _ f: inout ScreenFrame, model: EditorModel, value: Int, y: Int, play: Int?, steps: Range<Int>
    ) {
        let pattern = model.songPattern
        let rhythm = model.track == .rhythm
        let pitch = rhythm ? DrumLane.all[value].key : value
        let isC = !rhythm && pitch % 12 == 0
        let cursorRow = value == model.row
        // Scale lock: the rows outside the scale are drawn faintly.
        let outside = !rhythm && model.scale.map { !$0.contains(pitch) } == true
        let label = rhythm ? DrumLane.all[value].name : NoteName(midi: pitch).description
        f.put(
            label, column: 0, row: y,
            style: CellStyle(
                fg: cursorRow ? .bright : outside ? .faint : isC ? .text : .dim, bold: !outside && (isC || cursorRow)))
        let mine = pattern.notes(model.track).filter { $0.pitch == pitch }
        // The other tonal tracks, faintly behind the current one.
        let others =
            rhythm
            ? []
            : TrackKind.allCases.filter { $0 != model.track && $0 != .rhythm }
                .flatMap { pattern.notes($0) }.filter { $0.pitch == pitch }
        for s in steps {
            let x = EditorView.labelWidth + (s - steps.lowerBound) * EditorView.cellWidth
            var glyph: Character = ascii ? (s % 4 == 0 ? ":" : ".") : (s % 4 == 0 ? "┆" : "·")
            // Past the track's own loop (polymeter) there is nothing to play or place.
            if outside || s >= model.songPattern.length(of: model.track) { glyph = " " }
            var tail: Character = " "
            var style = CellStyle(fg: isC && !outside ? .dim : .faint)
            if let note = mine.first(where: { $0.step <= s && s < $0.step + $0.length }) {
                let color = EditorView.color(note.velocity)
                let last = s == note.step + note.length - 1
                if note.step == s {
                    glyph = ascii ? EditorView.asciiGlyph(note.velocity) : "●"
                    style = CellStyle(fg: color, bold: note.velocity == .accent)
                } else {
                    glyph = ascii ? "=" : "━"
                    style = CellStyle(fg: color)
                }
                tail = last ? " " : (ascii ? "=" : "━")
            } else if others.contains(where: { $0.step <= s && s < $0.step + $0.length }) {
                glyph = ascii ? "+" : "•"
                style = CellStyle(fg: .dim)
            }
            if s == play {
                if ascii { style.underline = true } else { style.bg = .playhead }
            }
            if model.inBlock(step: s, row: value) {
                if ascii { style.underline = true } else { style.bg = .cursorLine }
            }
            var tailStyle = style
            if s == model.step && cursorRow {
                style.reverse = true
                tailStyle.reverse = true
            }
            f[x, y] = Cell(glyph, style)
            f[x + 1, y] = Cell(tail, tailStyle)
        }
    }

    private func drawStatus(
        _ f: inout ScreenFrame, model: EditorModel, playing: Bool, sound: SoundStatus,
        fileName: String, row: Int
    ) {
        let name = fileName + (model.isModified ? "*" : "")
        var line = statusText(model: model, playing: playing, sound: sound, name: name, width: f.width)
        if line.count < f.width { line += String(repeating: " ", count: f.width - line.count) }
        f.put(line, column: 0, row: row, style: CellStyle(fg: .bright, reverse: true))
    }

    static func color(_ v: Velocity) -> CellStyle.Color {
        switch v {
        case .normal: .normal
        case .accent: .accent
        case .sustain: .sustain
        case .level(let v): v >= EditorModel.accentVelocity ? .accent : .normal
        }
    }

    static func asciiGlyph(_ v: Velocity) -> Character {
        switch v {
        case .normal: "o"
        case .accent: "O"
        case .sustain: "s"
        case .level(let v): v >= EditorModel.accentVelocity ? "O" : "o"
        }
    }
}
