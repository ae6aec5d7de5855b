import Glibc

/// The groove the song file holds, from the keys: the current pattern's swing (`f` / `F`), and
/// the probability (`a` / `A`), condition (`z` / `Z`) and ratchet (`r` / `R`) of the block's
/// notes or the note under the cursor. Each change is one undo step.
extension EditorModel {
    /// The conditions `z` / `Z` go through: none, the a-th of every b passes for b = 2 ... 4, then
    /// FILL, PRE and NEI and their negations (`Y` types any other, such as 5:8 or !3:4).
    public static let conditions: [SongNote.Condition?] =
        [nil] + (2...4).flatMap { b in (1...b).map { SongNote.Condition(a: $0, b: b) } }
        + [.fill, .previous, .neighbour].flatMap { [SongNote.Condition($0), SongNote.Condition($0, negated: true)] }

    /// `Y`: the condition typed ("5:8", "!PRE"; empty: none) for the block's notes or the note under the cursor.
    public mutating func setCondition(_ condition: SongNote.Condition?) {
        groove("condition") { $0.condition = condition }
    }

    /// The note covering the cursor, with its groove.
    public var songNoteUnderCursor: SongNote? {
        songPattern.notes(track).first { $0.pitch == cursorPitch && $0.step <= step && step < $0.step + $0.length }
    }

    /// The swing the current pattern plays with (its own, else the song's).
    public var swing: Double { songPattern.swing ?? song.swing }

    /// `f` / `F`: the current pattern's swing 5 % more or less (50 ... 75). Back at the song's
    /// swing, the pattern keeps none of its own (so a version-1 file stays version 1).
    public mutating func changeSwing(by delta: Double) {
        let value = min(max(swing + delta, Song.swingRange.lowerBound), Song.swingRange.upperBound)
        guard value != swing else { return }
        let songSwing = song.swing
        editPattern { $0.swing = value == songSwing ? nil : value }
        message = "pattern \(songPattern.name): swing \(Int(value)) %"
    }

    /// `a` / `A`: the chance the notes play on a pass, 10 % more or less (0 ... 100).
    public mutating func changeProbability(by delta: Int) {
        groove("probability") { n in n.probability = min(max(n.probability + delta, 0), 100) }
    }

    /// `r` / `R`: hits inside the step, one more or fewer (1 ... 4); a ratchet fills one step, so
    /// longer notes are left as they are.
    public mutating func changeRatchet(by delta: Int) {
        groove("ratchet") { n in if n.length == 1 { n.ratchet = min(max(n.ratchet + delta, 1), 4) } }
    }

    /// `z` / `Z`: the next or previous condition (none, 1:2, 2:2, 1:3, ... 4:4).
    public mutating func cycleCondition(by delta: Int) {
        guard let first = hasBlock ? blockNoteIndexes().first.map({ songPattern.notes(track)[$0] }) : songNoteUnderCursor
        else {
            message = "no note under the cursor"
            return
        }
        let all = EditorModel.conditions
        let i = all.firstIndex { $0 == first.condition } ?? 0
        let next = all[((i + delta) % all.count + all.count) % all.count]
        groove("condition") { $0.condition = next }
    }

    /// Applies `change` to the block's notes, or to the note under the cursor; says what it did.
    private mutating func groove(_ what: String, _ change: (inout SongNote) -> Void) {
        if hasBlock {
            changeBlock(change)
            message = "\(what) of \(counted(blockNoteIndexes().count, "note")): set"
            return
        }
        guard let existing = noteUnderCursor else {
            message = "no note under the cursor"
            return
        }
        if what == "ratchet" && existing.length > 1 {
            message = "a ratchet fills one step: shorten the note to one step first ([)"
            return
        }
        replace(existing, change)
        if let n = songNoteUnderCursor { message = "\(what): \(EditorModel.grooveText(n, always: true))" }
    }

    /// The note's groove for the status line: "50% 1:2 x2" (only what differs from a plain note,
    /// unless `always`).
    public static func grooveText(_ n: SongNote, always: Bool = false) -> String {
        var parts: [String] = []
        if always || n.probability < 100 { parts.append("\(n.probability)%") }
        if let c = n.condition { parts.append(c.text) } else if always { parts.append("every pass") }
        if always || n.ratchet > 1 { parts.append("x\(n.ratchet)") }
        return parts.joined(separator: " ")
    }

    // MARK: What the loop plays

    /// What `p` plays: the whole song chain (`G`), or the pattern on the grid looped at the
    /// song's tempo, through the same timeline as `render` (swing, probability, conditions,
    /// ratchets, instruments, mute and solo).
    public var audibleSong: Song {
        var played = playsChain ? song : patternLoop
        if playsChain, let r = playedRange { played.chain = Array(song.chain[r]) }
        if fillMode { for i in played.chain.indices { played.chain[i].fill = true } }
        return played
    }

    /// The pattern on the grid looped as its chain entry plays it (the cursor's entry when it
    /// plays this pattern, else the first that does): at the entry's tempo, transpose and fill, so
    /// a section is auditioned as the song plays it. A pattern in no entry plays at the song's tempo.
    var patternLoop: Song {
        let name = songPattern.name
        let at = song.chain.indices.contains(chainIndex) && song.chain[chainIndex].pattern == name ? chainIndex : nil
        guard let i = at ?? song.chain.firstIndex(where: { $0.pattern == name }) else {
            return song.looping(pattern: name) ?? song
        }
        var loop = song
        loop.chain = [song.chain[i]]
        loop.chain[0].repeats = 1
        return loop
    }

    /// The tempo the loop plays at: what is heard while it plays, else what `p` would play.
    public var loopBPM: Double {
        heard?.bpm ?? (playsChain ? song.chain.first?.bpm : patternLoop.chain.first?.bpm) ?? song.bpm
    }

    /// The chain's entries the loop plays, when a range is set (an edit may have shortened the chain).
    public var playedRange: ClosedRange<Int>? {
        guard let r = chainRange, !song.chain.isEmpty else { return nil }
        let last = song.chain.count - 1
        return min(r.lowerBound, last)...min(r.upperBound, last)
    }

    /// The chain entry heard, counted in the whole chain (the transport counts in what it plays).
    public var heardEntry: Int? {
        heard.map { $0.entry + (playsChain ? playedRange?.lowerBound ?? 0 : 0) }
    }

    /// `p` in the chain panel: the chain loop from the cursor's entry to the last.
    public mutating func playChain(fromEntry i: Int) {
        playsChain = true
        chainRange = i...(song.chain.count - 1)
        chainRangeAnchor = nil
        message = "the loop plays the chain from entry \(i + 1) (G: the pattern)"
    }

    /// `v` in the chain panel: marks the first entry of a range, then loops from it to the cursor's.
    public mutating func markChainRange() {
        guard let a = chainRangeAnchor else {
            chainRangeAnchor = chainIndex
            message = "entry \(chainIndex + 1): the range's first; v on its last loops it"
            return
        }
        chainRangeAnchor = nil
        playsChain = true
        chainRange = min(a, chainIndex)...max(a, chainIndex)
        message = "the loop plays entries \(chainRange!.lowerBound + 1)...\(chainRange!.upperBound + 1) (G: the pattern)"
    }
}
