import Glibc

extension EditorModel {
    // MARK: Undo

    /// A mouse drag: every note it paints is one undo step.
    public mutating func beginGroup() {
        guard !grouping else { return }
        pushUndo()
        grouping = true
    }

    public mutating func endGroup() {
        grouping = false
        // A drag that changed nothing leaves no undo step.
        if let last = undoStack.last, last.song == song { undoStack.removeLast() }
    }

    /// Undo returns the whole song as it was, and the grid to the pattern the change was made in.
    public mutating func undo() {
        guard let what = travel(from: \.undoStack, to: \.redoStack, "undo") else { return }
        message = "undone: \(what)" + (undoStack.isEmpty ? " (nothing older)" : "")
    }

    public mutating func redo() {
        guard let what = travel(from: \.redoStack, to: \.undoStack, "redo") else { return }
        message = "redone: \(what)"
    }

    /// Undo and redo alike: the song as it is goes onto `to`, the last snapshot of `from` comes
    /// back; returns what that changed, or nil (saying there is nothing to `verb`) when `from` is empty.
    private mutating func travel(
        from: WritableKeyPath<EditorModel, [Snapshot]>, to: WritableKeyPath<EditorModel, [Snapshot]>, _ verb: String
    ) -> String? {
        guard let target = self[keyPath: from].popLast() else {
            message = "nothing to \(verb)"
            return nil
        }
        // The way back leads to the pattern the change is in (the target's), not to the one shown
        // when the key was pressed: a redo after switching patterns lands where the note is.
        self[keyPath: to].append(Snapshot(song: song, current: target.current))
        let what = EditorModel.change(from: song, to: target.song)
        restore(target)
        return what
    }

    /// What an undo or redo changes, in a few words ("pattern B, melody: 2 notes"), so that a `u`
    /// pressed once too often says what it took back, and where.
    static func change(from a: Song, to b: Song) -> String {
        if a.bpm != b.bpm { return "tempo \(Limits.text(a.bpm)) -> \(Limits.text(b.bpm)) BPM" }
        if a.patterns.map(\.name) != b.patterns.map(\.name) { return "the patterns (\(a.patterns.count) -> \(b.patterns.count))" }
        for (pa, pb) in zip(a.patterns, b.patterns) where pa != pb {
            for kind in TrackKind.allCases where pa.notes(kind) != pb.notes(kind) {
                let before = pa.notes(kind)
                let after = pb.notes(kind)
                let changed = before.filter { !after.contains($0) }.count + after.filter { !before.contains($0) }.count
                return
                    "pattern \(pb.name), \(kind.rawValue): \(counted(max(1, changed / (before.count == after.count ? 2 : 1)), "note"))"
            }
            return "pattern \(pb.name)'s length, swing or track lengths"
        }
        if a.chain != b.chain { return "the chain" }
        if a.instruments != b.instruments { return "an instrument or the mix" }
        return "the song's settings"
    }

    private mutating func restore(_ snapshot: Snapshot) {
        song = snapshot.song
        current = min(snapshot.current, song.patterns.count - 1)
        step = min(step, songPattern.length - 1)
        chainIndex = min(chainIndex, song.chain.count - 1)
        clearBlock()
    }

    /// After a successful save: this is the song on disk now.
    public mutating func markSaved() { savedSong = song }

    /// The file as another program left it, read back: one undo step (u brings this session's
    /// version back), and the song on disk from now on.
    public mutating func reload(_ disk: Song) {
        editSong { $0 = disk }
        current = min(current, song.patterns.count - 1)
        step = min(step, songPattern.length - 1)
        chainIndex = min(chainIndex, song.chain.count - 1)
        clearBlock()
        markSaved()
    }

    mutating func pushUndo() {
        undoStack.append(Snapshot(song: song, current: current))
        if undoStack.count > EditorModel.undoLevels { undoStack.removeFirst(undoStack.count - EditorModel.undoLevels) }
        redoStack.removeAll()
    }

    /// One undo step: `change` applied to the whole song (none when it changed nothing).
    mutating func editSong(_ change: (inout Song) -> Void) {
        if !grouping { pushUndo() }
        change(&song)
        for i in song.patterns.indices {
            for (kind, notes) in song.patterns[i].tracks where notes.isEmpty { song.patterns[i].tracks[kind] = nil }
        }
        if !grouping, let last = undoStack.last, last.song == song { undoStack.removeLast() }
    }

    /// One undo step on the pattern on the grid.
    mutating func editPattern(_ change: (inout SongPattern) -> Void) {
        let i = current
        editSong { change(&$0.patterns[i]) }
    }

    /// Equal as a version-1 file holds it: the same name, tempo, first pattern's length and notes
    /// per track (empty tracks and note order do not matter).
    public static func sameNotes(_ a: Song, _ b: Song) -> Bool {
        guard a.name == b.name, a.bpm == b.bpm, let p = a.patterns.first, let q = b.patterns.first, p.length == q.length
        else { return false }
        let inOrder = { (n: [SongNote]) in n.sorted { ($0.step, $0.pitch) < ($1.step, $1.pitch) } }
        return TrackKind.allCases.allSatisfy { inOrder(p.notes($0)) == inOrder(q.notes($0)) }
    }
}
