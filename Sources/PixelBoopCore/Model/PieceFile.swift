import Glibc

/// The one reader of the files `play`, `render` and `edit` accept: a version-2 song, or a
/// version-1 pattern read as a one-pattern song (`Song(version1:present:)`), so both play, render and
/// export through the one timeline. Every field is checked by `StrictJSON` (DESIGN.md's tables:
/// unknown keys, duplicates, wrong types, ranges, absurd nesting and size).
public enum PieceFile {
    /// Reads the file once: `"version": 2` is a song, anything else a version-1 pattern.
    public static func load(path: String) throws(PatternError) -> Song {
        let data = try StrictJSON.readInput(path, limit: StrictJSON.maxBytes)
        let json = StrictJSON(file: path)
        let root = try json.parse(data)
        if let top = root as? [String: Any], let v = top["version"] {
            guard let n = StrictJSON.number(v), n == 1 || n == 2 else {
                throw json.fail("version", "1 (a pattern) or 2 (a song)", got: v)
            }
        }
        if let top = root as? [String: Any], let v = top["version"], StrictJSON.number(v) == 2 {
            return try Song.validate(root, json, order: try json.scanStructure(data, orderOf: "patterns"))
        }
        // A song's keys in a file that says no version: the version is what is missing.
        if let top = root as? [String: Any], top["version"] == nil, top["patterns"] != nil {
            throw json.fail(
                "version", "2 for a song (the file has \"patterns\"; without \"version\" it is read as a version-1 pattern)")
        }
        return try Song.validateVersion1(root, json)
    }
}

extension Song {
    /// Parses a version-1 pattern held in memory (a file's bytes); `file` names it in messages.
    public static func parseVersion1(_ data: Bytes, file: String) throws(PatternError) -> Song {
        try StrictJSON.parse(data, file: file, validateVersion1)
    }

    /// A version-1 pattern (DESIGN.md's table, plus unknown keys, duplicates, wrong types,
    /// non-finite numbers, absurd nesting and size) as the one-pattern song it plays as.
    static func validateVersion1(_ root: Any, _ json: StrictJSON) throws(PatternError) -> Song {
        let top = try json.object(root, "", allowed: ["version", "name", "bpm", "length", "tracks"])
        if let v = top["version"] { _ = try json.integer(v, "version", in: 1...1) }
        let name =
            try top["name"].map { v throws(PatternError) in try json.string(v, "name") }
            ?? PathText.lastComponent(PathText.deletingExtension(json.file))
        let bpm = try top["bpm"].map { v throws(PatternError) in try json.double(v, "bpm", in: Song.bpmRange) } ?? 120
        var length = 16
        if let v = top["length"] {
            // Range-check before Int(n): a double at or past 2^63 (1e19) would trap the conversion.
            guard let n = StrictJSON.number(v), n.isFinite, n == n.rounded(), abs(n) < 1e15,
                Song.version1Lengths.contains(Int(n))
            else {
                throw json.fail("length", "8, 16, 24 or 32 steps", got: v)
            }
            length = Int(n)
        }
        let tracks =
            try top["tracks"].map { v throws(PatternError) in
                try json.perTrack(v, "tracks") { _, list, path throws(PatternError) -> [SongNote] in
                    let entries = try json.array(list, path, maxCount: length * 128)
                    var seen: Set<[Int]> = []
                    var notes: [SongNote] = []
                    for (i, entry) in entries.enumerated() {
                        let p = "\(path)[\(i)]"
                        let note = try parseVersion1Note(entry, p, json, length: length)
                        let (step, pitch) = (note.step, note.pitch)
                        guard seen.insert([step, pitch]).inserted else {
                            throw PatternError(
                                .invalid,
                                "\(json.file): \(p): duplicate note (step \(step), pitch \(pitch) already in \(path)): expected each step and pitch once per track"
                            )
                        }
                        notes.append(note)
                    }
                    return notes
                }
            } ?? [:]
        return Song(version1: Song(name: name, bpm: bpm, length: length, tracks: tracks), present: Array(tracks.keys))
    }

    /// One note object of a track (`p` is its path for messages); steps and lengths are bounded
    /// by the pattern's length.
    private static func parseVersion1Note(_ entry: Any, _ p: String, _ json: StrictJSON, length: Int) throws(PatternError)
        -> SongNote
    {
        let fields = try json.object(entry, p, allowed: ["step", "pitch", "velocity", "length"])
        guard let stepValue = fields["step"] else {
            throw json.fail("\(p).step", "an integer 0...\(length - 1) (required)")
        }
        guard let pitchValue = fields["pitch"] else {
            throw json.fail("\(p).pitch", "a MIDI pitch \(Limits.text(Limits.midiNote)) (required)")
        }
        let step = try json.integer(stepValue, "\(p).step", in: 0...(length - 1))
        let pitch = try json.integer(pitchValue, "\(p).pitch", in: Limits.midiNote)
        var velocity = Velocity.normal
        if let v = fields["velocity"] {
            guard let s = v as? String, let parsed = Velocity(rawValue: s) else {
                throw json.fail("\(p).velocity", "\"normal\", \"accent\" or \"sustain\"", got: v)
            }
            velocity = parsed
        }
        let maxLength = length - step
        let noteLength =
            try fields["length"].map { v throws(PatternError) in
                try json.integer(v, "\(p).length", in: 1...maxLength)
            } ?? 1
        return SongNote(step: step, pitch: pitch, velocity: velocity, length: noteLength)
    }
}

extension Song {
    /// Parses song JSON held in memory; `file` names it in messages.
    public static func parse(_ data: Bytes, file: String) throws(PatternError) -> Song {
        let json = StrictJSON(file: file)
        let root = try json.parse(data)
        return try validate(root, json, order: try json.scanStructure(data, orderOf: "patterns"))
    }

    static let topKeys: Set<String> = [
        "version", "name", "bpm", "swing", "seed", "tuning", "scale", "instruments", "patterns", "song"
    ]

    static func validate(_ root: Any, _ json: StrictJSON, order: [String]) throws(PatternError) -> Song {
        let top = try json.object(root, "", allowed: topKeys)
        guard let version = top["version"] else { throw json.fail("version", "2 (required)") }
        _ = try json.integer(version, "version", in: 2...2)
        let name =
            try top["name"].map { v throws(PatternError) in try json.string(v, "name") }
            ?? PathText.lastComponent(PathText.deletingExtension(json.file))
        let bpm = try top["bpm"].map { v throws(PatternError) in try json.double(v, "bpm", in: Song.bpmRange) } ?? 120
        let swing = try top["swing"].map { v throws(PatternError) in try json.double(v, "swing", in: swingRange) } ?? 50
        let seed = try top["seed"].map { v throws(PatternError) in try json.integer(v, "seed", in: 0...Int(UInt32.max)) } ?? 0
        var instruments: [TrackKind: Instrument] = [:]
        if let v = top["instruments"] {
            let object = try json.object(v, "instruments", allowed: Set(TrackKind.allCases.map(\.rawValue)))
            for kind in TrackKind.allCases {
                if let entry = object[kind.rawValue] { instruments[kind] = try parseInstrument(entry, kind, json) }
            }
        }
        guard let patternsValue = top["patterns"] else { throw json.fail("patterns", "an object of patterns (required)") }
        let object = try json.object(patternsValue, "patterns", allowed: Set(order))
        guard (1...maxPatterns).contains(object.count) else {
            throw json.fail("patterns", "1...\(maxPatterns) patterns", got: "\(object.count) patterns")
        }
        var patterns: [SongPattern] = []
        for name in order { patterns.append(try parsePattern(object[name]!, name: name, json)) }
        var chain: [ChainEntry]?
        if let v = top["song"] {
            let entries = try json.array(v, "song", maxCount: maxChain)
            guard !entries.isEmpty else { throw json.fail("song", "at least one entry", got: "an empty array") }
            // The path counts from 0 as JSON does; the editor's chain panel counts entries from 1,
            // so the message names that number too.
            chain = try entries.enumerated().map { (i, e) throws(PatternError) in
                do throws(PatternError) { return try parseEntry(e, "song[\(i)]", json, patterns: Set(order)) } catch {
                    throw error.inEntry(i)
                }
            }
            for (i, entry) in (chain ?? []).enumerated() where entry.transpose != 0 {
                do throws(PatternError) {
                    try checkTranspose(entry, "song[\(i)].transpose", patterns.first { $0.name == entry.pattern }!, json)
                } catch { throw error.inEntry(i) }
            }
        }
        var song = Song(
            name: name, bpm: bpm, swing: swing, seed: UInt64(seed), instruments: instruments, patterns: patterns,
            chain: chain)
        song.tuning = try top["tuning"].map { v throws(PatternError) in try parseTuning(v, json) }
        if let v = top["scale"] {
            guard let text = v as? String, let scale = Scale(parsing: text) else { throw json.fail("scale", Scale.help, got: v) }
            song.scale = scale
        }
        return song
    }

    /// `"tuning": {"scl": FILE, "kbm": FILE}`, paths relative to the song's folder. A file that
    /// cannot be read is `.missingFile` (66), a malformed one `.invalid` (65), both naming the song,
    /// the field and the Scala file's line.
    static func parseTuning(_ value: Any, _ json: StrictJSON) throws(PatternError) -> SongTuning {
        let object = try json.object(value, "tuning", allowed: ["scl", "kbm"])
        guard let sclValue = object["scl"] else { throw json.fail("tuning.scl", "a Scala scale file (.scl) (required)") }
        let scl = try json.string(sclValue, "tuning.scl", maxLength: 4096)
        let kbm = try object["kbm"].map { v throws(PatternError) in try json.string(v, "tuning.kbm", maxLength: 4096) }
        let folder = PathText.deletingLastComponent(json.file)
        let place = { (path: String) in path.hasPrefix("/") || folder.isEmpty ? path : PathText.appending(folder, path) }
        do {
            return SongTuning(scl: scl, kbm: kbm, keys: try ScalaTuning.load(scale: place(scl), mapping: kbm.map(place)))
        } catch {
            throw PatternError(error.kind, "\(json.file): tuning: \(error.message)")
        }
    }

    /// A transposed entry keeps every pitched note of its pattern a MIDI note.
    private static func checkTranspose(_ entry: ChainEntry, _ p: String, _ pattern: SongPattern, _ json: StrictJSON)
        throws(PatternError)
    {
        for kind in TrackKind.allCases where kind != .rhythm {
            for note in pattern.notes(kind) where !Limits.midiNote.contains(note.pitch + entry.transpose) {
                let keeping = "a shift keeping pattern \(OneLine.escape(pattern.name))'s notes in \(Limits.text(Limits.midiNote))"
                let example = "\(kind.rawValue) pitch \(note.pitch) would be \(note.pitch + entry.transpose)"
                throw json.fail(p, "\(keeping) (\(example))", got: entry.transpose)
            }
        }
    }

    private static func parseEntry(_ value: Any, _ p: String, _ json: StrictJSON, patterns: Set<String>) throws(PatternError)
        -> ChainEntry
    {
        let fields = try json.object(value, p, allowed: ["pattern", "repeat", "bpm", "transpose", "fill"])
        guard let nameValue = fields["pattern"] else { throw json.fail("\(p).pattern", "a pattern's name (required)") }
        let name = try json.string(nameValue, "\(p).pattern")
        guard patterns.contains(name) else {
            throw json.fail("\(p).pattern", "one of the patterns (\(patterns.sorted().joined(separator: ", ")))", got: name)
        }
        let repeats =
            try fields["repeat"].map { v throws(PatternError) in try json.integer(v, "\(p).repeat", in: repeatRange) } ?? 1
        let bpm = try fields["bpm"].map { v throws(PatternError) in try json.double(v, "\(p).bpm", in: Song.bpmRange) }
        let transpose =
            try fields["transpose"].map { v throws(PatternError) in
                try json.integer(v, "\(p).transpose", in: ChainEntry.transposeRange)
            } ?? 0
        var fill = false
        if let v = fields["fill"] {
            guard let flag = v as? Bool else { throw json.fail("\(p).fill", "true or false", got: v) }
            fill = flag
        }
        return ChainEntry(pattern: name, repeats: repeats, bpm: bpm, transpose: transpose, fill: fill)
    }

    private static func parsePattern(_ value: Any, name: String, _ json: StrictJSON) throws(PatternError) -> SongPattern {
        let p = "patterns.\(name)"
        guard !name.isEmpty, name.count <= 64 else { throw json.fail(p, "a pattern name of 1...64 characters") }
        let fields = try json.object(value, p, allowed: ["length", "swing", "tracks", "track_lengths"])
        let patternLength =
            try fields["length"].map { v throws(PatternError) in try json.integer(v, "\(p).length", in: SongPattern.lengths) }
            ?? 16
        let swing = try fields["swing"].map { v throws(PatternError) in try json.double(v, "\(p).swing", in: swingRange) }
        let trackLengths =
            try fields["track_lengths"].map { v throws(PatternError) in
                try json.perTrack(v, "\(p).track_lengths") { _, n, path throws(PatternError) -> Int in
                    try json.integer(n, path, in: SongPattern.lengths)
                }
            } ?? [:]
        let tracks =
            try fields["tracks"].map { v throws(PatternError) in
                try json.perTrack(v, "\(p).tracks") { kind, list, tp throws(PatternError) -> [SongNote] in
                    let length = trackLengths[kind] ?? patternLength
                    let entries = try json.array(list, tp, maxCount: length * 128)
                    var seen: Set<[Int]> = []
                    var notes: [SongNote] = []
                    for (i, entry) in entries.enumerated() {
                        let note = try parseNote(entry, "\(tp)[\(i)]", json, length: length)
                        guard seen.insert([note.step, note.pitch]).inserted else {
                            throw json.fail(
                                "\(tp)[\(i)]",
                                "each step and pitch once per track (step \(note.step), pitch \(note.pitch) is already there)")
                        }
                        notes.append(note)
                    }
                    return notes
                }
            } ?? [:]
        return SongPattern(name: name, length: patternLength, swing: swing, tracks: tracks, trackLengths: trackLengths)
    }

    private static func parseNote(_ entry: Any, _ p: String, _ json: StrictJSON, length: Int) throws(PatternError) -> SongNote {
        let fields = try json.object(
            entry, p, allowed: ["step", "pitch", "velocity", "length", "probability", "condition", "ratchet", "offset"])
        guard let stepValue = fields["step"] else { throw json.fail("\(p).step", "an integer 0...\(length - 1) (required)") }
        guard let pitchValue = fields["pitch"] else {
            throw json.fail("\(p).pitch", "a MIDI pitch \(Limits.text(Limits.midiNote)) (required)")
        }
        let step = try json.integer(stepValue, "\(p).step", in: 0...(length - 1))
        var note = SongNote(step: step, pitch: try json.integer(pitchValue, "\(p).pitch", in: Limits.midiNote))
        if let v = fields["velocity"] {
            if let s = v as? String, let parsed = Velocity(rawValue: s) {
                note.velocity = parsed
            } else if v is Double {
                note.velocity = .level(try json.integer(v, "\(p).velocity", in: Velocity.levels))
            } else {
                throw json.fail(
                    "\(p).velocity", "\"normal\", \"accent\", \"sustain\" or an integer \(Limits.text(Velocity.levels))", got: v)
            }
        }
        if let v = fields["length"] { note.length = try json.integer(v, "\(p).length", in: 1...(length - step)) }
        if let v = fields["probability"] {
            note.probability = try json.integer(v, "\(p).probability", in: SongNote.probabilities)
        }
        if let v = fields["ratchet"] { note.ratchet = try json.integer(v, "\(p).ratchet", in: SongNote.ratchets) }
        if note.ratchet > 1 && note.length > 1 {
            throw json.fail("\(p).length", "1 for a ratcheted note (its hits fill one step)", got: note.length)
        }
        if let v = fields["condition"] { note.condition = try parseCondition(v, "\(p).condition", json) }
        if let v = fields["offset"] {
            guard let d = v as? Double, SongNote.offsets.contains(d) else {
                throw json.fail(
                    "\(p).offset", "a number of steps -0.5 ... 0.5 (0.5 itself excluded: that is the next step)", got: v)
            }
            note.offset = d
        }
        return note
    }

    private static func parseCondition(_ v: Any, _ p: String, _ json: StrictJSON) throws(PatternError) -> SongNote.Condition {
        let expected =
            "\"a:b\" with 1 <= a <= b <= 64 (the a-th of every b passes), \"FILL\", \"PRE\" or \"NEI\", each may start with \"!\""
        guard let s = v as? String, let condition = SongNote.Condition(text: s) else { throw json.fail(p, expected, got: v) }
        return condition
    }
}

extension StrictJSON {
    /// An object keyed by track kind (`tracks`, `track_lengths`) at `path`: each kind it holds, in
    /// `TrackKind` order, read by `read(kind, value, path of the value)`.
    fileprivate func perTrack<Value>(
        _ value: Any, _ path: String, _ read: (TrackKind, Any, String) throws(PatternError) -> Value
    ) throws(PatternError) -> [TrackKind: Value] {
        let object = try self.object(value, path, allowed: Set(TrackKind.allCases.map(\.rawValue)))
        var values: [TrackKind: Value] = [:]
        for kind in TrackKind.allCases {
            guard let entry = object[kind.rawValue] else { continue }
            values[kind] = try read(kind, entry, "\(path).\(kind.rawValue)")
        }
        return values
    }
}
