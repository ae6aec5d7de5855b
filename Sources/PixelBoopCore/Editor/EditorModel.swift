import Glibc

/// A drum lane of the rhythm track: its General MIDI key and the name the grid shows.
public struct DrumLane: Sendable, Equatable {
    public let key: Int
    public let name: String

    /// The rhythm track's rows, top to bottom: the ten a beat is made of first, then every other
    /// General MIDI percussion key (35 ... 81) in key order, so that every note a file or a MIDI
    /// keyboard puts on the rhythm track has a row where it is seen, edited and deleted. Names are
    /// the General MIDI ones, shortened to the grid's ten columns.
    public static let all: [DrumLane] = main + others.map { DrumLane(key: $0.0, name: $0.1) }

    private static let main: [DrumLane] = [
        DrumLane(key: 36, name: "kick"), DrumLane(key: 38, name: "snare"), DrumLane(key: 39, name: "clap"),
        DrumLane(key: 42, name: "closed hat"), DrumLane(key: 46, name: "open hat"),
        DrumLane(key: 45, name: "low tom"), DrumLane(key: 47, name: "mid tom"), DrumLane(key: 50, name: "high tom"),
        DrumLane(key: 49, name: "crash"), DrumLane(key: 51, name: "ride")
    ]

    private static let others: [(Int, String)] = [
        (35, "bass drum"), (37, "rim"), (40, "e. snare"), (41, "floor tom"), (43, "hi floor"), (44, "pedal hat"),
        (48, "hi-mid tom"), (52, "china"), (53, "ride bell"), (54, "tambourine"), (55, "splash"), (56, "cowbell"),
        (57, "crash 2"), (58, "vibraslap"), (59, "ride 2"), (60, "hi bongo"), (61, "low bongo"), (62, "mute conga"),
        (63, "hi conga"), (64, "low conga"), (65, "hi timbale"), (66, "lo timbale"), (67, "hi agogo"),
        (68, "low agogo"), (69, "cabasa"), (70, "maracas"), (71, "whistle"), (72, "whistle 2"), (73, "guiro"),
        (74, "long guiro"), (75, "claves"), (76, "hi wood"), (77, "low wood"), (78, "mute cuica"),
        (79, "open cuica"), (80, "mute tri"), (81, "triangle")
    ]

    public static func name(forKey key: Int) -> String? { all.first { $0.key == key }?.name }
}

/// The editor's state, free of terminal and sound: the whole song (patterns, chain, instruments),
/// the pattern being edited, the cursor, the current track, the velocity for new notes, the block
/// selection, undo and redo over the whole song. Every edit goes through here, so the tests drive
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
        /// Another editor holds the edited file's lock: y saves all the same, W saves elsewhere.
        case openElsewhere(path: String, holder: String)
        /// The file changed on disk since it was read or saved here: o overwrites it, r reloads it
        /// (an undo step: u brings this session's version back), W saves elsewhere.
        case changedOnDisk(path: String)
        /// Export named a file that exists: y replaces it.
        case replaceExport(path: String)
    }

    /// A panel over the grid that takes the keys while it is open.
    public enum Panel: Sendable, Equatable {
        /// The song chain (`g`).
        case chain
        /// The current track's instrument and mix (`I`).
        case instrument
    }

    /// One state undo returns to: the song and the pattern that was being edited.
    struct Snapshot: Sendable, Equatable {
        var song: Song
        var current: Int
    }

    public static let undoLevels = 500
    public static let pitchRange = Limits.midiNote

    public internal(set) var song: Song
    /// The song as last saved (or loaded): `isModified` compares with it.
    public internal(set) var savedSong: Song
    /// The index (in `song.patterns`) of the pattern on the grid.
    public internal(set) var current = 0
    /// The file was version 1 (or is new): it is saved as version 1 while nothing needs version 2.
    public var version1: Bool
    /// The instrument panel's field stays within the new track's fields (rhythm has fewer).
    public internal(set) var track: TrackKind = .melody {
        didSet { instrumentField = min(instrumentField, EditorModel.instrumentFields(track).count - 1) }
    }
    /// The cursor's step, 0-based.
    public internal(set) var step = 0
    /// The cursor's row per track: a MIDI pitch for melody, chords and bass; a lane index for rhythm.
    public internal(set) var rows: [TrackKind: Int] = [.melody: 60, .chords: 60, .bass: 48, .rhythm: 0]
    /// The velocity of notes placed from now on (keys 1, 2, 3).
    public internal(set) var velocity: Velocity = .normal
    public var question: Question?
    /// A line of typed text (the path to save to); keys go to it while it is open.
    public var prompt: PathPrompt?
    /// Where the unsaved work offered by `.restore` was found.
    public var restoreSource: String?
    public var showHelp = false
    /// One line for the user (saved, nothing to undo, ...), cleared by the next key.
    public var message: String?
    public var panel: Panel?
    /// The chain entry the chain panel points at; the instrument field the track panel points at.
    public internal(set) var chainIndex = 0
    public internal(set) var instrumentField = 0
    /// The block: its anchor, and its other corner once `v` ended it (nil: it follows the cursor).
    public internal(set) var blockAnchor: (step: Int, row: Int)?
    public internal(set) var blockEnd: (step: Int, row: Int)?
    var clipboard: Clipboard?
    /// Scale lock: rows outside it are dimmed, the cursor and the mouse land on its notes.
    public var scale: Scale?
    /// `G`: the loop plays the song chain instead of the pattern on the grid (not an edit).
    public var playsChain = false
    /// The entries the chain loop plays (`p` and `v` in the chain panel); nil: the whole chain.
    public var chainRange: ClosedRange<Int>?
    /// `v` in the chain panel: the first entry of a range being marked.
    public var chainRangeAnchor: Int?
    /// `Q`: fill mode, as a groovebox's held fill key (a terminal cannot see a key held, so it
    /// toggles): every entry the loop plays is a fill while it is on. Not an edit.
    public var fillMode = false
    /// Where the playing song is heard (set by the editor's session before each frame).
    public var heard: SongPosition?
    /// `i`: notes played on a MIDI keyboard are placed at the cursor (else they only sound).
    public internal(set) var stepEntry = false
    /// `*`: live recording, and its settings (quantize, overdub or replace, the metronome).
    public internal(set) var recording = LiveRecording()
    /// The pitch a capture device hears now ("A4 +12c"), shown while recording.
    public var heardVoice: String?
    /// The keys of the step-entry group still held, and the step they are placed on.
    var chordKeys: Set<Int> = []
    var chordStep: Int?
    /// `K`: notes typed on the computer keyboard's two piano rows (nil: off).
    public internal(set) var piano: PianoEntry?

    var undoStack: [Snapshot] = []
    var redoStack: [Snapshot] = []
    var grouping = false

    /// A version-1 pattern file's one-pattern song (saved as version 1 while it fits).
    public init(version1 song: Song, saved: Song? = nil) {
        self.init(song: song, saved: saved, version1: true)
    }

    public init(song: Song, saved: Song? = nil, version1: Bool) {
        self.song = song
        self.savedSong = saved ?? song
        self.version1 = version1
        // The grid opens on the pattern the song starts with.
        current = song.chain.first.flatMap { e in song.patterns.firstIndex { $0.name == e.pattern } } ?? 0
        placeCursorOnFirstNotes()
    }

    /// A tonal track's cursor starts on its first note (earliest step, then highest pitch), so a
    /// reopened file shows its notes wherever they lie; an empty track starts at C4 (C3 bass).
    mutating func placeCursorOnFirstNotes() {
        let p = songPattern
        for kind in TrackKind.allCases where kind != .rhythm {
            let first = p.notes(kind).filter { EditorModel.pitchRange.contains($0.pitch) }
                .min { ($0.step, -$0.pitch) < ($1.step, -$1.pitch) }
            if let first { rows[kind] = first.pitch }
        }
        if let lane = p.notes(.rhythm).compactMap({ n in DrumLane.all.firstIndex { $0.key == n.pitch } }).min() {
            rows[.rhythm] = lane
        }
    }

    /// The pattern on the grid.
    public var songPattern: SongPattern { song.patterns[current] }
    /// The pattern as the loop plays it: muted tracks (and those a solo silences) left out.
    public var audiblePattern: SongPattern {
        var p = songPattern
        for kind in TrackKind.allCases where !song.isAudible(kind) { p.tracks[kind] = nil }
        return p
    }

    public var isModified: Bool { song.normalized != savedSong.normalized }
    public var canUndo: Bool { !undoStack.isEmpty }
    public var canRedo: Bool { !redoStack.isEmpty }
    /// True when the next save writes version 1.
    public var savesVersion1: Bool { version1 && !song.needsVersion2 }

    /// The cursor's row on the current track (pitch, or lane index for rhythm).
    public var row: Int { rows[track] ?? 0 }

    /// The MIDI pitch (or GM drum key) under the cursor.
    public var cursorPitch: Int { track == .rhythm ? DrumLane.all[row].key : row }

    /// "C4", "F#3", or the drum's name.
    public var cursorLabel: String {
        track == .rhythm ? DrumLane.all[row].name : NoteName(midi: row).description
    }

    /// The note of the current track that covers the cursor's cell (its start or its tail).
    public var noteUnderCursor: SongNote? { note(at: step, pitch: cursorPitch, in: track) }

    public func note(at step: Int, pitch: Int, in kind: TrackKind) -> SongNote? {
        songPattern.notes(kind).first { $0.pitch == pitch && $0.step <= step && step < $0.step + $0.length }
    }

    /// The pitch (or GM key) of a row value of the current track.
    func pitch(ofRow value: Int) -> Int { track == .rhythm ? DrumLane.all[value].key : value }
    /// The row value of a pitch on the current track (nil: a drum key without a lane).
    func row(ofPitch pitch: Int) -> Int? { track == .rhythm ? DrumLane.all.firstIndex { $0.key == pitch } : pitch }
}
