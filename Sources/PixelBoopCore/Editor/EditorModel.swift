import Foundation

/// A drum lane of the rhythm track: its General MIDI key and the name the grid shows.
public struct DrumLane: Sendable, Equatable {
    public let key: Int
    public let name: String

    /// The rhythm track's rows, top to bottom.
    public static let all: [DrumLane] = [
        DrumLane(key: 36, name: "kick"), DrumLane(key: 38, name: "snare"), DrumLane(key: 39, name: "clap"),
        DrumLane(key: 42, name: "closed hat"), DrumLane(key: 46, name: "open hat"),
        DrumLane(key: 45, name: "low tom"), DrumLane(key: 47, name: "mid tom"), DrumLane(key: 50, name: "high tom"),
        DrumLane(key: 49, name: "crash"), DrumLane(key: 51, name: "ride")
    ]

    public static func name(forKey key: Int) -> String? { all.first { $0.key == key }?.name }
}

/// The editor's state, free of terminal and sound: the pattern, the cursor, the current track,
/// the velocity for new notes, undo and redo. Every edit goes through here, so the tests drive
/// exactly what the keys and the mouse do.
public struct EditorModel: Sendable {
    /// What the model asks of the user before it goes on.
    public enum Question: Sendable, Equatable {
        /// Unsaved changes at quit: y saves and quits, n quits, c (or anything else) goes back.
        case saveBeforeQuit
        /// A shorter pattern would remove or trim these notes: y applies it.
        case shorten(to: Int, affected: Int)
        /// FILE.save holds unsaved work from a session that ended from outside: y restores it.
        case restore
        /// The file to be written has no write permission: y replaces it all the same, W saves
        /// elsewhere, anything else leaves it.
        case overwriteReadOnly(path: String)
        /// Save as named another file that exists: y replaces it.
        case overwriteExisting(path: String)
    }

    public static let undoLevels = 500
    public static let pitchRange = Limits.midiNote

    public private(set) var pattern: Pattern
    /// The pattern as last saved (or loaded): `isModified` compares with it.
    public private(set) var savedPattern: Pattern
    public private(set) var track: TrackKind = .melody
    /// The cursor's step, 0-based.
    public private(set) var step = 0
    /// The cursor's row per track: a MIDI pitch for melody, chords and bass; a lane index for rhythm.
    public private(set) var rows: [TrackKind: Int] = [.melody: 60, .chords: 60, .bass: 48, .rhythm: 0]
    /// The velocity of notes placed from now on (keys 1, 2, 3).
    public private(set) var velocity: Velocity = .normal
    public var question: Question?
    /// A line of typed text (the path to save to); keys go to it while it is open.
    public var prompt: PathPrompt?
    /// Where the unsaved work offered by `.restore` was found.
    public var restoreSource: String?
    public var showHelp = false
    /// One line for the user (saved, nothing to undo, ...), cleared by the next key.
    public var message: String?

    private var undoStack: [Pattern] = []
    private var redoStack: [Pattern] = []
    private var grouping = false

    public init(pattern: Pattern, saved: Pattern? = nil) {
        self.pattern = pattern
        self.savedPattern = saved ?? pattern
        // A tonal track's cursor starts on its first note (earliest step, then highest pitch), so
        // a reopened file shows its notes wherever they lie; an empty track starts at C4 (C3 bass).
        for kind in TrackKind.allCases where kind != .rhythm {
            let first = pattern.notes(kind).filter { EditorModel.pitchRange.contains($0.pitch) }
                .min { ($0.step, -$0.pitch) < ($1.step, -$1.pitch) }
            if let first { rows[kind] = first.pitch }
        }
        if let lane = pattern.notes(.rhythm).compactMap({ n in DrumLane.all.firstIndex { $0.key == n.pitch } }).min() {
            rows[.rhythm] = lane
        }
    }

    public var isModified: Bool { !EditorModel.sameNotes(pattern, savedPattern) }
    public var canUndo: Bool { !undoStack.isEmpty }
    public var canRedo: Bool { !redoStack.isEmpty }

    /// The cursor's row on the current track (pitch, or lane index for rhythm).
    public var row: Int { rows[track] ?? 0 }

    /// The MIDI pitch (or GM drum key) under the cursor.
    public var cursorPitch: Int { track == .rhythm ? DrumLane.all[row].key : row }

    /// "C4", "F#3", or the drum's name.
    public var cursorLabel: String {
        track == .rhythm ? DrumLane.all[row].name : NoteName(midi: row).description
    }

    /// The note of the current track that covers the cursor's cell (its start or its tail).
    public var noteUnderCursor: Note? { note(at: step, pitch: cursorPitch, in: track) }

    public func note(at step: Int, pitch: Int, in kind: TrackKind) -> Note? {
        pattern.notes(kind).first { $0.pitch == pitch && $0.step <= step && step < $0.step + $0.length }
    }

    // MARK: Cursor

    /// Moves by `steps` columns (wrapping at the ends: h and l) and `rows` rows (up = +1 = a
    /// semitone higher; on rhythm, up is the lane above), clamped at the top and bottom.
    public mutating func move(steps: Int = 0, rows dy: Int = 0) {
        if steps != 0 { step = ((step + steps % pattern.length) % pattern.length + pattern.length) % pattern.length }
        if dy != 0 {
            if track == .rhythm {
                rows[.rhythm] = min(max(row - dy, 0), DrumLane.all.count - 1)
            } else {
                rows[track] = min(max(row + dy, EditorModel.pitchRange.lowerBound), EditorModel.pitchRange.upperBound)
            }
        }
    }

    /// H and L: `steps` columns, stopping at the first and the last step (a jump never wraps).
    public mutating func jump(steps: Int) {
        step = min(max(step + max(min(steps, pattern.length), -pattern.length), 0), pattern.length - 1)
    }

    /// Why the cursor's pitch is hardly worth placing on this track (`PitchRange`), or nil.
    public var pitchHint: String? { PitchRange.hint(pitch: cursorPitch, kind: track) }

    /// Puts the cursor on a cell (a mouse click): `row` as in `rows`.
    public mutating func moveTo(step newStep: Int, row newRow: Int) {
        step = min(max(newStep, 0), pattern.length - 1)
        if track == .rhythm {
            rows[.rhythm] = min(max(newRow, 0), DrumLane.all.count - 1)
        } else {
            rows[track] = min(max(newRow, EditorModel.pitchRange.lowerBound), EditorModel.pitchRange.upperBound)
        }
    }

    /// Tab / Shift-Tab: melody -> chords -> bass -> rhythm -> melody.
    public mutating func cycleTrack(by delta: Int) {
        let all = TrackKind.allCases
        let i = all.firstIndex(of: track)!
        track = all[((i + delta) % all.count + all.count) % all.count]
    }

    // MARK: Edits

    /// Space / Enter / a left click: removes the note covering the cursor, or places one (length 1,
    /// the current velocity). Returns the placed note (to be auditioned), or nil when one was removed.
    @discardableResult
    public mutating func toggle() -> Note? {
        if let existing = noteUnderCursor {
            let kind = track
            edit { $0.tracks[kind]?.removeAll { $0 == existing } }
            return nil
        }
        return place()
    }

    /// Places a note at the cursor unless one covers it (a drag paints with this). Returns it.
    @discardableResult
    public mutating func place() -> Note? {
        guard noteUnderCursor == nil else { return nil }
        let note = Note(step: step, pitch: cursorPitch, velocity: velocity, length: 1)
        let kind = track
        edit { p in
            p.tracks[kind, default: []].append(note)
            p.tracks[kind]?.sort { ($0.step, $0.pitch) < ($1.step, $1.pitch) }
        }
        return note
    }

    /// Removes the note covering the cursor (a right click). True when there was one.
    @discardableResult
    public mutating func remove() -> Bool {
        guard let existing = noteUnderCursor else { return false }
        let kind = track
        edit { $0.tracks[kind]?.removeAll { $0 == existing } }
        return true
    }

    /// Keys 1, 2, 3: the velocity for new notes, and for the note under the cursor.
    public mutating func setVelocity(_ v: Velocity) {
        velocity = v
        guard let existing = noteUnderCursor, existing.velocity != v else { return }
        replace(existing) { $0.velocity = v }
    }

    /// `]` / `[`: the note under the cursor one step longer or shorter (1 ... to the pattern's end).
    public mutating func changeLength(by delta: Int) {
        guard let existing = noteUnderCursor else {
            message = "no note under the cursor"
            return
        }
        let length = min(max(existing.length + delta, 1), pattern.length - existing.step)
        guard length != existing.length else { return }
        replace(existing) { $0.length = length }
    }

    /// `+` / `-`: tempo in steps of 5 within 60 ... 200 BPM.
    public mutating func changeBPM(by delta: Double) {
        let bpm = min(max((pattern.bpm + delta).rounded(), Pattern.bpmRange.lowerBound), Pattern.bpmRange.upperBound)
        guard bpm != pattern.bpm else { return }
        edit { $0.bpm = bpm }
    }

    /// `<` / `>`: the next allowed length. Growing applies at once; shrinking asks first when it
    /// would remove or trim notes (`question`), and `confirmShorten` applies it.
    public mutating func changeLength(steps direction: Int) {
        let lengths = Pattern.allowedLengths
        let i = lengths.firstIndex(of: pattern.length) ?? 1
        let j = min(max(i + direction, 0), lengths.count - 1)
        guard j != i else { return }
        let newLength = lengths[j]
        let affected = pattern.tracks.values.joined().filter { $0.step + $0.length > newLength }.count
        if newLength < pattern.length && affected > 0 {
            question = .shorten(to: newLength, affected: affected)
            return
        }
        applyLength(newLength)
    }

    public mutating func confirmShorten() {
        guard case .shorten(let newLength, _) = question else { return }
        question = nil
        applyLength(newLength)
    }

    private mutating func applyLength(_ newLength: Int) {
        edit { p in
            for kind in TrackKind.allCases {
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
    }

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
        if let last = undoStack.last, last == pattern { undoStack.removeLast() }
    }

    public mutating func undo() {
        guard let previous = undoStack.popLast() else {
            message = "nothing to undo"
            return
        }
        redoStack.append(pattern)
        pattern = previous
        step = min(step, pattern.length - 1)
    }

    public mutating func redo() {
        guard let next = redoStack.popLast() else {
            message = "nothing to redo"
            return
        }
        undoStack.append(pattern)
        pattern = next
        step = min(step, pattern.length - 1)
    }

    /// After a successful save: this is the pattern on disk now.
    public mutating func markSaved() { savedPattern = pattern }

    private mutating func pushUndo() {
        undoStack.append(pattern)
        if undoStack.count > EditorModel.undoLevels { undoStack.removeFirst(undoStack.count - EditorModel.undoLevels) }
        redoStack.removeAll()
    }

    private mutating func edit(_ change: (inout Pattern) -> Void) {
        if !grouping { pushUndo() }
        change(&pattern)
        if pattern.tracks[track]?.isEmpty == true { pattern.tracks[track] = nil }
        if !grouping, let last = undoStack.last, last == pattern { undoStack.removeLast() }
    }

    private mutating func replace(_ note: Note, _ change: (inout Note) -> Void) {
        let kind = track
        edit { p in
            guard let i = p.tracks[kind]?.firstIndex(of: note) else { return }
            change(&p.tracks[kind]![i])
        }
    }

    /// Equal as music: the same name, tempo, length and notes per track (empty tracks and note
    /// order do not matter).
    public static func sameNotes(_ a: Pattern, _ b: Pattern) -> Bool {
        guard a.name == b.name, a.bpm == b.bpm, a.length == b.length else { return false }
        for kind in TrackKind.allCases where Set(a.notes(kind)) != Set(b.notes(kind)) { return false }
        return true
    }
}

extension Pattern {
    /// The pattern as a file: pretty-printed JSON with sorted keys, empty tracks left out, notes
    /// in step order. It always parses with the strict loader back to an equal pattern.
    public func fileData() throws -> Data {
        var clean = self
        for (kind, notes) in tracks {
            clean.tracks[kind] = notes.isEmpty ? nil : notes.sorted { ($0.step, $0.pitch) < ($1.step, $1.pitch) }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(clean)
        data.append(0x0A)
        return data
    }
}
