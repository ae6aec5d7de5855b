import Glibc

/// Patterns and the chain: `}` / `{` go through the patterns, `c` clones the current one and `n`
/// adds an empty one right after it (in the pattern list and in the chain); the chain panel (`g`)
/// adds, duplicates, renames, deletes and reorders entries and sets their repeats. Each change is
/// one undo step.
extension EditorModel {
    /// `}` / `{`: the next or previous pattern (wrapping).
    public mutating func selectPattern(by delta: Int) {
        let n = song.patterns.count
        showPattern(((current + delta) % n + n) % n)
    }

    public mutating func showPattern(_ index: Int) {
        guard song.patterns.indices.contains(index) else { return }
        current = index
        step = min(step, songPattern.length - 1)
        clearBlock()
        message = "pattern \(songPattern.name) (\(current + 1)/\(song.patterns.count))"
    }

    /// A name no pattern has: A, B, ... Z, then P27, P28, ...
    func freshName() -> String {
        let taken = Set(song.patterns.map(\.name))
        for c in UnicodeScalar("A").value...UnicodeScalar("Z").value {
            let name = String(Character(UnicodeScalar(c)!))
            if !taken.contains(name) { return name }
        }
        var i = 27
        while taken.contains("P\(i)") { i += 1 }
        return "P\(i)"
    }

    /// `c` (clone) and `n` (empty): a new pattern right after the current one, in the list and in
    /// the chain (after the current pattern's first entry), shown at once.
    public mutating func addPattern(clone: Bool) {
        guard song.patterns.count < Song.maxPatterns else {
            message = "a song holds at most \(Song.maxPatterns) patterns"
            return
        }
        var new = clone ? songPattern : SongPattern(name: "", length: songPattern.length)
        new.name = freshName()
        let at = current
        let entry = song.chain.firstIndex { $0.pattern == songPattern.name }
        editSong { s in
            s.patterns.insert(new, at: at + 1)
            s.chain.insert(ChainEntry(pattern: new.name), at: (entry ?? s.chain.count - 1) + 1)
        }
        showPattern(at + 1)
        if let entry { chainIndex = entry + 1 }
        message = "\(clone ? "cloned" : "new") pattern \(new.name)"
    }

    // MARK: The chain panel

    public mutating func moveChainCursor(by delta: Int) {
        chainIndex = min(max(chainIndex + delta, 0), song.chain.count - 1)
    }

    /// Enter in the chain: the entry's pattern on the grid.
    public mutating func openChainEntry() {
        guard let i = song.patterns.firstIndex(where: { $0.name == song.chain[chainIndex].pattern }) else { return }
        showPattern(i)
        panel = nil
    }

    /// `a`: another entry of the same pattern after the cursor's entry.
    public mutating func repeatChainEntry() {
        guard song.chain.count < Song.maxChain else { return }
        let i = chainIndex
        editSong { $0.chain.insert(ChainEntry(pattern: $0.chain[i].pattern), at: i + 1) }
        chainIndex += 1
    }

    /// `d`: the entry's pattern cloned into a new pattern, played right after it.
    public mutating func duplicateChainEntry() {
        guard let p = song.patterns.firstIndex(where: { $0.name == song.chain[chainIndex].pattern }) else { return }
        current = p
        let i = chainIndex
        guard song.patterns.count < Song.maxPatterns else { return }
        var new = song.patterns[p]
        new.name = freshName()
        editSong { s in
            s.patterns.insert(new, at: p + 1)
            s.chain.insert(ChainEntry(pattern: new.name), at: i + 1)
        }
        chainIndex = i + 1
        current = p + 1
    }

    /// `x` / Delete: removes the entry (never the last one); a pattern no entry plays any more
    /// stays in the song (`{` / `}` reach it).
    public mutating func deleteChainEntry() {
        guard song.chain.count > 1 else {
            message = "the chain keeps at least one entry"
            return
        }
        let i = chainIndex
        editSong { _ = $0.chain.remove(at: i) }
        chainIndex = min(chainIndex, song.chain.count - 1)
    }

    /// `X`: the entry's pattern removed from the song, with every entry that plays it (never the
    /// last pattern, nor the last entry).
    public mutating func deleteChainPattern() {
        let name = song.chain[chainIndex].pattern
        guard song.patterns.count > 1, song.chain.contains(where: { $0.pattern != name }) else {
            message = "the song keeps at least one pattern in its chain"
            return
        }
        editSong { s in
            s.patterns.removeAll { $0.name == name }
            s.chain.removeAll { $0.pattern == name }
        }
        current = min(current, song.patterns.count - 1)
        chainIndex = min(chainIndex, song.chain.count - 1)
        message = "pattern \(name) deleted"
    }

    /// `K` / `J`: the entry one place earlier or later.
    public mutating func moveChainEntry(by delta: Int) {
        let i = chainIndex
        let j = i + delta
        guard song.chain.indices.contains(j) else { return }
        editSong { $0.chain.swapAt(i, j) }
        chainIndex = j
    }

    /// `+` / `-`: repeats of the entry (1...256).
    public mutating func changeRepeats(by delta: Int) {
        let i = chainIndex
        let r = min(max(song.chain[i].repeats + delta, Song.repeatRange.lowerBound), Song.repeatRange.upperBound)
        editSong { $0.chain[i].repeats = r }
    }

    /// `]` / `[`: the entry plays the next or previous pattern.
    public mutating func cycleChainPattern(by delta: Int) {
        let i = chainIndex
        let n = song.patterns.count
        let p = song.patterns.firstIndex { $0.name == song.chain[i].pattern } ?? 0
        let name = song.patterns[((p + delta) % n + n) % n].name
        editSong { $0.chain[i].pattern = name }
    }

    /// `b` in the chain: the entry's own tempo (nil: the song's).
    public mutating func setEntryBPM(_ bpm: Double?) {
        let i = chainIndex
        let value = bpm.map { min(max($0.rounded(), Song.bpmRange.lowerBound), Song.bpmRange.upperBound) }
        editSong { $0.chain[i].bpm = value }
    }

    /// `t` in the chain: the entry's transpose (semitones, its pitched notes; the drums stay).
    public mutating func setEntryTranspose(_ semitones: Int) {
        let i = chainIndex
        let t = min(max(semitones, ChainEntry.transposeRange.lowerBound), ChainEntry.transposeRange.upperBound)
        let pattern = song.pattern(named: song.chain[i].pattern)!
        let pitches = TrackKind.allCases.filter { $0 != .rhythm }.flatMap { pattern.notes($0).map(\.pitch) }
        if let bad = pitches.first(where: { !Limits.midiNote.contains($0 + t) }) {
            message = "transpose \(t): \(NoteName(midi: bad)) would leave the MIDI notes (\(Limits.text(Limits.midiNote)))"
            return
        }
        editSong { $0.chain[i].transpose = t }
    }

    /// `f` in the chain: the entry is a fill, or no longer one (its FILL notes play, !FILL rest).
    public mutating func toggleEntryFill() {
        let i = chainIndex
        editSong { $0.chain[i].fill.toggle() }
        message = "entry \(i + 1): " + (song.chain[i].fill ? "a fill (FILL notes play)" : "not a fill")
    }

    /// `r`: renames the entry's pattern (every entry that plays it follows).
    public mutating func renamePattern(to newName: String) {
        let old = song.chain[chainIndex].pattern
        guard !newName.isEmpty, newName.count <= 64 else {
            message = "a pattern name has 1 to 64 characters"
            return
        }
        guard newName == old || song.pattern(named: newName) == nil else {
            message = "a pattern named \(newName) exists"
            return
        }
        editSong { s in
            for i in s.patterns.indices where s.patterns[i].name == old { s.patterns[i].name = newName }
            for i in s.chain.indices where s.chain[i].pattern == old { s.chain[i].pattern = newName }
        }
    }
}
