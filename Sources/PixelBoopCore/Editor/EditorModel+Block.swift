import Glibc

/// Notes copied from a block: steps and rows counted from its top-left corner.
struct Clipboard: Sendable, Equatable {
    var track: TrackKind
    /// (step offset, row offset down from the top, the note)
    var notes: [(dStep: Int, dRow: Int, note: SongNote)]

    static func == (a: Clipboard, b: Clipboard) -> Bool {
        a.track == b.track && a.notes.elementsEqual(b.notes) { $0.dStep == $1.dStep && $0.dRow == $1.dRow && $0.note == $1.note }
    }
}

/// Block editing as in trackers: `v` starts a block at the cursor and ends it; the cursor (and
/// Shift+arrows) extend it; y copies, x cuts, P pastes with its top-left at the cursor, Delete
/// deletes, t/T and o/O transpose, ( and ) nudge, 1 2 3 set the velocity. Each is one undo step.
extension EditorModel {
    /// The block's corners: steps s0...s1, rows top...bottom as the grid shows them (for pitched
    /// tracks the higher pitch is the top; for rhythm the lower lane index).
    public var block: (s0: Int, s1: Int, top: Int, bottom: Int)? {
        guard let a = blockAnchor else { return nil }
        let b = blockEnd ?? (step, row)
        let s0 = min(a.step, b.step)
        let s1 = max(a.step, b.step)
        if track == .rhythm { return (s0, s1, min(a.row, b.row), max(a.row, b.row)) }
        return (s0, s1, max(a.row, b.row), min(a.row, b.row))
    }

    public var hasBlock: Bool { blockAnchor != nil }

    /// True when a cell (step, row value) lies in the block.
    public func inBlock(step s: Int, row r: Int) -> Bool {
        guard let b = block, (b.s0...b.s1).contains(s) else { return false }
        return track == .rhythm ? (b.top...b.bottom).contains(r) : (b.bottom...b.top).contains(r)
    }

    /// `v`: starts a block at the cursor, or ends the one that follows it (a second `v` on an ended
    /// block starts a new one).
    public mutating func toggleBlock() {
        if blockAnchor != nil && blockEnd == nil {
            blockEnd = (step, row)
        } else {
            blockAnchor = (step, row)
            blockEnd = nil
        }
    }

    /// Shift+arrows: a block from the cursor when none follows it, then the move extends it.
    public mutating func extendBlock(steps: Int = 0, rows dy: Int = 0) {
        if blockAnchor == nil || blockEnd != nil {
            blockAnchor = (step, row)
            blockEnd = nil
        }
        move(steps: steps, rows: dy)
    }

    public mutating func clearBlock() {
        blockAnchor = nil
        blockEnd = nil
    }

    /// The indexes (in the current track's notes) of the notes starting inside the block.
    func blockNoteIndexes() -> [Int] {
        let notes = songPattern.notes(track)
        return notes.indices.filter { i in row(ofPitch: notes[i].pitch).map { inBlock(step: notes[i].step, row: $0) } ?? false }
    }

    /// `y`: copies the block's notes.
    public mutating func copyBlock() {
        guard let b = block else {
            message = "no block (v starts one)"
            return
        }
        let notes = songPattern.notes(track)
        let picked = blockNoteIndexes().map { i -> (Int, Int, SongNote) in
            let r = row(ofPitch: notes[i].pitch)!
            return (notes[i].step - b.s0, track == .rhythm ? r - b.top : b.top - r, notes[i])
        }
        clipboard = Clipboard(track: track, notes: picked.map { (dStep: $0.0, dRow: $0.1, note: $0.2) })
        message = "copied \(counted(picked.count, "note"))"
    }

    /// `x`: copies the block's notes, then removes them (one undo step).
    public mutating func cutBlock() {
        guard hasBlock else {
            message = "no block (v starts one)"
            return
        }
        copyBlock()
        deleteBlock()
    }

    /// Delete: removes the block's notes, or the note under the cursor (one undo step).
    public mutating func deleteBlock() {
        guard hasBlock else {
            remove()
            return
        }
        let doomed = Set(blockNoteIndexes())
        let kind = track
        editPattern { p in
            p.tracks[kind] = p.notes(kind).enumerated().filter { !doomed.contains($0.offset) }.map(\.element)
        }
    }

    /// `P`: pastes the copied notes with the block's top-left at the cursor, replacing notes on
    /// the same cells; what falls past the pattern's end or off the rows is left out. Returns the
    /// pasted notes (to be heard).
    @discardableResult
    public mutating func paste() -> [SongNote] {
        guard let clip = clipboard, !clip.notes.isEmpty else {
            message = "nothing copied (y copies a block)"
            return []
        }
        guard (clip.track == .rhythm) == (track == .rhythm) else {
            message = clip.track == .rhythm ? "drums paste on the rhythm track" : "notes paste on a pitched track"
            return []
        }
        let length = songPattern.length
        var placed: [SongNote] = []
        for item in clip.notes {
            var n = item.note
            n.step = step + item.dStep
            let r = track == .rhythm ? row + item.dRow : row - item.dRow
            guard n.step < length else { continue }
            if track == .rhythm {
                guard DrumLane.all.indices.contains(r) else { continue }
            } else {
                guard EditorModel.pitchRange.contains(r) else { continue }
            }
            n.pitch = pitch(ofRow: r)
            n.length = min(n.length, length - n.step)
            if n.ratchet > 1 { n.length = 1 }
            placed.append(n)
        }
        let kind = track
        editPattern { p in
            let cells = Set(placed.map { [$0.step, $0.pitch] })
            var notes = p.notes(kind).filter { !cells.contains([$0.step, $0.pitch]) } + placed
            notes.sort { ($0.step, $0.pitch) < ($1.step, $1.pitch) }
            p.tracks[kind] = notes
        }
        message = "pasted \(counted(placed.count, "note"))"
        return placed.map { SongNote(step: $0.step, pitch: $0.pitch, velocity: $0.velocity, length: $0.length) }
    }

    /// `D`: the block copied and pasted right after itself; the block and the cursor move onto
    /// the copy, so `D` again continues the run. One undo step.
    @discardableResult
    public mutating func duplicateBlock() -> [SongNote] {
        guard let b = block else {
            message = "no block (v starts one)"
            return []
        }
        let width = b.s1 - b.s0 + 1
        guard b.s1 + 1 < songPattern.length else {
            message = "no room after the block"
            return []
        }
        let kept = clipboard
        copyBlock()
        step = b.s1 + 1
        rows[track] = b.top
        let placed = paste()
        clipboard = kept
        blockAnchor = (b.s0 + width, b.top)
        blockEnd = (min(b.s1 + width, songPattern.length - 1), b.bottom)
        return placed
    }

    /// `t` / `T` (a semitone; a lane on rhythm) and `o` / `O` (an octave): the block's notes, or
    /// the note under the cursor, up (+) or down (-). The block and the cursor move with them.
    /// Under a scale lock a melodic track moves by scale degrees instead (`t t` on an F chord in A
    /// minor gives G, then A minor), so the notes stay in key; octaves (`o` `O`) stay octaves.
    public mutating func transpose(by semitones: Int) {
        if let scale, track != .rhythm, abs(semitones) == 1 { return moveNotes(steps: 0, rows: 0, degrees: (scale, semitones)) }
        let rowDelta = track == .rhythm ? -semitones.signum() : semitones
        moveNotes(steps: 0, rows: rowDelta)
    }

    /// `(` / `)`: the block's notes, or the note under the cursor, one step earlier or later.
    public mutating func nudge(by steps: Int) { moveNotes(steps: steps, rows: 0) }

    /// Moves the selected notes; refused (with a message) when one would leave the pattern.
    private mutating func moveNotes(steps ds: Int, rows dr: Int, degrees: (Scale, Int)? = nil) {
        let notes = songPattern.notes(track)
        var picked = blockNoteIndexes()
        if !hasBlock, let n = noteUnderCursor, let i = notes.firstIndex(where: { $0.step == n.step && $0.pitch == n.pitch }) {
            picked = [i]
        }
        guard !picked.isEmpty else {
            message = hasBlock ? "no notes in the block" : "no note under the cursor"
            return
        }
        var moved: [SongNote] = []
        var cursorDelta = dr
        for i in picked {
            var n = notes[i]
            guard let r = row(ofPitch: n.pitch) else { continue }
            var nr = r + dr
            if let (scale, by) = degrees { nr = scale.pitch(n.pitch, movedBy: by) ?? -1 }
            if n.step == step && n.pitch == cursorPitch || i == picked.first { cursorDelta = nr - r }
            n.step += ds
            let rowOK = track == .rhythm ? DrumLane.all.indices.contains(nr) : EditorModel.pitchRange.contains(nr)
            guard rowOK, n.step >= 0, n.step + n.length <= songPattern.length else {
                message = "a note would leave the pattern: not moved"
                return
            }
            n.pitch = pitch(ofRow: nr)
            moved.append(n)
        }
        let kind = track
        let gone = Set(picked)
        editPattern { p in
            let cells = Set(moved.map { [$0.step, $0.pitch] })
            var kept = p.notes(kind).enumerated().filter { !gone.contains($0.offset) }.map(\.element)
            kept.removeAll { cells.contains([$0.step, $0.pitch]) }
            p.tracks[kind] = (kept + moved).sorted { ($0.step, $0.pitch) < ($1.step, $1.pitch) }
        }
        shiftSelection(steps: ds, rows: cursorDelta)
    }

    /// The block (ended or following the cursor) and the cursor move with the notes.
    private mutating func shiftSelection(steps ds: Int, rows dr: Int) {
        if let a = blockAnchor { blockAnchor = (a.step + ds, a.row + dr) }
        if let e = blockEnd { blockEnd = (e.step + ds, e.row + dr) }
        step = min(max(step + ds, 0), songPattern.length - 1)
        rows[track] = row + dr
    }

    /// Applies `change` to every note of the block (one undo step).
    mutating func changeBlock(_ change: (inout SongNote) -> Void) {
        let picked = blockNoteIndexes()
        let kind = track
        editPattern { p in for i in picked { change(&p.tracks[kind]![i]) } }
    }
}
