import Glibc

extension EditorModel {
    // MARK: Cursor

    /// Moves by `steps` columns (wrapping at the ends: h and l) and `rows` rows (up = +1 = a
    /// semitone higher, or the next note of the locked scale; on rhythm, up is the lane above),
    /// clamped at the top and bottom. An open block follows the cursor.
    public mutating func move(steps: Int = 0, rows dy: Int = 0) {
        let length = songPattern.length
        if steps != 0 { step = ((step + steps % length) % length + length) % length }
        if dy != 0 {
            if track == .rhythm {
                rows[.rhythm] = min(max(row - dy, 0), DrumLane.all.count - 1)
            } else {
                var r = row
                for _ in 0..<abs(dy) { r = nextRow(from: r, by: dy > 0 ? 1 : -1) }
                rows[track] = r
            }
        }
    }

    /// The next pitch up (+1) or down (-1) from `r`: in the locked scale when there is one.
    func nextRow(from r: Int, by direction: Int) -> Int {
        var p = r + direction
        while let scale, EditorModel.pitchRange.contains(p), !scale.contains(p) { p += direction }
        return EditorModel.pitchRange.contains(p) ? p : r
    }

    /// H and L: `steps` columns, stopping at the first and the last step (a jump never wraps).
    public mutating func jump(steps: Int) {
        let length = songPattern.length
        step = min(max(step + max(min(steps, length), -length), 0), length - 1)
    }

    /// Why the cursor's pitch is hardly worth placing on this track (`PitchRange`), or nil.
    public var pitchHint: String? { PitchRange.hint(pitch: cursorPitch, kind: track, song.instrument(track)) }

    /// Puts the cursor on a cell (a mouse click): `row` as in `rows`, snapped to the locked scale.
    public mutating func moveTo(step newStep: Int, row newRow: Int) {
        step = min(max(newStep, 0), songPattern.length - 1)
        if track == .rhythm {
            rows[.rhythm] = min(max(newRow, 0), DrumLane.all.count - 1)
        } else {
            let r = min(max(newRow, EditorModel.pitchRange.lowerBound), EditorModel.pitchRange.upperBound)
            rows[track] = scale?.nearest(r) ?? r
        }
    }

    /// Tab / Shift-Tab: melody -> chords -> bass -> rhythm -> melody. The block stays with its track.
    public mutating func cycleTrack(by delta: Int) {
        let all = TrackKind.allCases
        let i = all.firstIndex(of: track)!
        track = all[((i + delta) % all.count + all.count) % all.count]
        clearBlock()
    }

    /// `S`: the scale lock, kept by a version-2 song (`"scale"`; a version-1 file has no place
    /// for it), as one undo step.
    public mutating func chooseScale(_ newScale: Scale?) {
        setScale(newScale)
        if !savesVersion1 { editSong { $0.scale = newScale } }
    }

    /// The scale lock (`--scale`, the song's `"scale"`): the cursor moves onto its nearest note.
    public mutating func setScale(_ newScale: Scale?) {
        scale = newScale
        if let newScale, track != .rhythm { rows[track] = newScale.nearest(row) }
    }

    // MARK: Notes

    /// Space / Enter / a left click: removes the note covering the cursor, or places one (length 1,
    /// the current velocity). Returns the placed note (to be auditioned), or nil when one was removed.
    @discardableResult
    public mutating func toggle() -> SongNote? {
        if remove() { return nil }
        return place()
    }

    /// Places a note at the cursor unless one covers it (a drag paints with this). Returns it.
    @discardableResult
    public mutating func place() -> SongNote? {
        guard noteUnderCursor == nil else { return nil }
        let own = songPattern.length(of: track)
        guard step < own else {
            message = "the \(track.rawValue) loops \(own) steps: step \(step + 1) is past its end (C changes it)"
            return nil
        }
        let note = SongNote(step: step, pitch: cursorPitch, velocity: velocity, length: 1)
        let kind = track
        editPattern { p in
            p.tracks[kind, default: []].append(note)
            p.tracks[kind]?.sort { ($0.step, $0.pitch) < ($1.step, $1.pitch) }
        }
        return SongNote(step: note.step, pitch: note.pitch, velocity: note.velocity, length: 1)
    }

    /// Removes the note covering the cursor (a right click). True when there was one.
    @discardableResult
    public mutating func remove() -> Bool {
        guard let existing = noteUnderCursor else { return false }
        let kind = track
        editPattern { $0.tracks[kind]?.removeAll { $0.step == existing.step && $0.pitch == existing.pitch } }
        return true
    }

    /// Keys 1, 2, 3: the velocity for new notes, and for the block's notes or the note starting
    /// at the cursor (on a note's tail they set only the next notes', as a tracker's velocity
    /// column belongs to the row a note starts on).
    public mutating func setVelocity(_ v: Velocity) {
        velocity = v
        if hasBlock { return changeBlock { $0.velocity = v } }
        guard let existing = noteUnderCursor, existing.step == step, existing.velocity != v else { return }
        replace(existing) { $0.velocity = v }
    }

    /// `]` / `[`: the note under the cursor one step longer or shorter (1 ... to the pattern's end).
    public mutating func changeLength(by delta: Int) {
        guard let existing = noteUnderCursor else {
            message = "no note under the cursor"
            return
        }
        let length = min(max(existing.length + delta, 1), songPattern.length(of: track) - existing.step)
        guard length != existing.length else { return }
        let ratchet = songPattern.notes(track).first { $0.step == existing.step && $0.pitch == existing.pitch }?.ratchet ?? 1
        guard ratchet == 1 else {
            message = "a ratcheted note fills one step (its hits repeat inside it)"
            return
        }
        replace(existing) { $0.length = length }
    }

    /// `+` / `-` by 5, `=` / `_` by 1, or typed: the song's tempo within `Song.bpmRange` (the header's BOOP_TEMPO_BPM_MIN ... _MAX).
    public mutating func changeBPM(by delta: Double) { setBPM(song.bpm + delta) }

    public mutating func setBPM(_ value: Double) {
        // Tenths of a BPM, as a typed 97.5 asks; the keys step by whole ones.
        let bpm = min(max((value * 10).rounded() / 10, Song.bpmRange.lowerBound), Song.bpmRange.upperBound)
        guard bpm != song.bpm else { return }
        editSong { $0.bpm = bpm }
    }

    /// `<` / `>`: the next length (8, 16, 24, 32, 48, 64; 8/16/24/32 keep a version-1 file).
    /// Growing applies at once; shrinking asks first when it would remove or trim notes
    /// (`question`), and `confirmShorten` applies it.
    public mutating func changeLength(steps direction: Int) {
        let lengths = EditorModel.lengths
        let now = songPattern.length
        let i = lengths.firstIndex(of: now) ?? (lengths.firstIndex { $0 > now } ?? lengths.count) - (direction > 0 ? 1 : 0)
        let j = min(max(i + direction, 0), lengths.count - 1)
        requestLength(lengths[j])
    }

    /// `N` (typed) and `<` / `>`: the pattern's length, any of 1 ... 64 steps (a 12-step bar of 3/4
    /// in 16ths, a 5-step loop); shrinking asks first when it would remove or trim notes.
    public mutating func requestLength(_ newLength: Int) {
        let now = songPattern.length
        guard newLength != now, (1...EditorModel.lengths.last!).contains(newLength) else { return }
        // A track of its own length keeps it: only the tracks that follow the pattern's are cut.
        let affected = songPattern.tracks.filter { songPattern.trackLengths[$0.key] == nil }.values.joined()
            .filter { $0.step + $0.length > newLength }.count
        if newLength < now && affected > 0 {
            question = .shorten(to: newLength, affected: affected)
            return
        }
        applyLength(newLength)
    }

    static let lengths = [8, 16, 24, 32, 48, 64]

    public mutating func confirmShorten() {
        guard case .shorten(let newLength, _) = question else { return }
        question = nil
        applyLength(newLength)
    }

    mutating func applyLength(_ newLength: Int) {
        editPattern { p in
            for kind in TrackKind.allCases where p.trackLengths[kind] == nil {
                guard var notes = p.tracks[kind] else { continue }
                notes.removeAll { $0.step >= newLength }
                for i in notes.indices where notes[i].step + notes[i].length > newLength {
                    notes[i].length = newLength - notes[i].step
                }
                p.tracks[kind] = notes
            }
            p.length = newLength
        }
        step = min(step, newLength - 1)
        clearBlock()
    }

    /// `C`: the track's own loop (polymeter; nil: the pattern's length again). Notes past the new
    /// end are removed (one undo step brings them back), as a shorter pattern cuts its notes.
    public mutating func setTrackLength(_ steps: Int?) {
        let kind = track
        let value = steps.map { min(max($0, SongPattern.lengths.lowerBound), SongPattern.lengths.upperBound) }
        let end = value ?? songPattern.length
        guard songPattern.trackLengths[kind] != value else { return }
        let cut = songPattern.notes(kind).filter { $0.step + $0.length > end }.count
        editPattern { p in
            p.trackLengths[kind] = value
            guard var notes = p.tracks[kind] else { return }
            notes.removeAll { $0.step >= end }
            for i in notes.indices where notes[i].step + notes[i].length > end { notes[i].length = end - notes[i].step }
            p.tracks[kind] = notes
        }
        let loops = value.map { "loops its own \($0) steps" } ?? "follows the pattern's \(end) steps"
        message = "the \(kind.rawValue) \(loops)" + (cut > 0 ? "; \(counted(cut, "note")) past its end cut (u undoes)" : "")
    }

    mutating func replace(_ note: SongNote, _ change: (inout SongNote) -> Void) {
        let kind = track
        editPattern { p in
            guard let i = p.tracks[kind]?.firstIndex(where: { $0.step == note.step && $0.pitch == note.pitch }) else { return }
            change(&p.tracks[kind]![i])
        }
    }
}
