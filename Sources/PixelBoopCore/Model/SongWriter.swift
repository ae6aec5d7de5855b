import Glibc

extension Song {
    /// True when the song says something a version-1 file cannot: more than one pattern, a chain
    /// of its own, a length other than 8/16/24/32, groove, instruments or a mix.
    public var needsVersion2: Bool { version2Reason != nil }

    /// What the song says that a version-1 file cannot, in words for the editor's status line
    /// ("a second pattern", "a mute, solo or instrument setting"), or nil.
    public var version2Reason: String? {
        guard patterns.count == 1, let only = patterns.first else { return "a second pattern" }
        if chain != [ChainEntry(pattern: only.name)] { return "a chain" }
        if swing != 50 || only.swing != nil { return "swing" }
        if seed != 0 { return "a seed" }
        if !Song.version1Lengths.contains(only.length) { return "a length of \(only.length) steps" }
        if !only.trackLengths.isEmpty { return "a track length of its own" }
        if instruments.values.contains(where: { $0 != Instrument() }) { return "a mute, solo or instrument setting" }
        if only.tracks.values.joined().contains(where: { $0.velocity.isLevel }) {
            return "a velocity of \(Limits.text(Velocity.levels))"
        }
        let groove = only.tracks.values.joined().contains { $0.probability != 100 || $0.condition != nil || $0.ratchet != 1 }
        if groove { return "probability, a condition or a ratchet" }
        return only.tracks.values.joined().contains { $0.offset != 0 } ? "micro-timing" : nil
    }

    /// The song with notes in step order, empty tracks and default instruments left out: two
    /// songs equal as music are equal here.
    public var normalized: Song {
        var s = self
        for i in s.patterns.indices {
            for (kind, notes) in s.patterns[i].tracks {
                s.patterns[i].tracks[kind] = notes.isEmpty ? nil : notes.sorted { ($0.step, $0.pitch) < ($1.step, $1.pitch) }
            }
        }
        s.instruments = s.instruments.filter { $0.value != Instrument() }
        return s
    }

    /// The song as a version-2 file: pretty-printed JSON, patterns and notes in their order, only
    /// what differs from the defaults. It always parses with the strict loader back to an equal song.
    public func fileData() -> Bytes {
        // Notes keep their order: a note's index in its track picks its probability draw.
        var s = self
        for i in s.patterns.indices { s.patterns[i].tracks = s.patterns[i].tracks.filter { !$0.value.isEmpty } }
        s.instruments = s.instruments.filter { $0.value != Instrument() }
        var top: [(String, String)] = [
            ("version", "2"), ("name", Song.quote(s.name)), ("bpm", Song.number(s.bpm)), ("swing", Song.number(s.swing)),
            ("seed", String(s.seed))
        ]
        if let tuning = s.tuning {
            top.append(
                ("tuning", Song.inline([("scl", Song.quote(tuning.scl))] + (tuning.kbm.map { [("kbm", Song.quote($0))] } ?? []))))
        }
        if let scale = s.scale { top.append(("scale", Song.quote(scale.name))) }
        var inst: [(String, String)] = []
        for kind in TrackKind.allCases {
            if let i = s.instruments[kind] { inst.append((kind.rawValue, Song.object(i.fields(kind), 3))) }
        }
        if !inst.isEmpty { top.append(("instruments", Song.object(inst, 2))) }
        top.append(("patterns", Song.object(s.patterns.map { ($0.name, Song.patternText($0)) }, 2)))
        let chainText = s.chain.map { e -> String in
            var f: [(String, String)] = [("pattern", Song.quote(e.pattern)), ("repeat", String(e.repeats))]
            if let bpm = e.bpm { f.append(("bpm", Song.number(bpm))) }
            if e.transpose != 0 { f.append(("transpose", String(e.transpose))) }
            if e.fill { f.append(("fill", "true")) }
            return Song.inline(f)
        }
        top.append(("song", "[\n    " + chainText.joined(separator: ",\n    ") + "\n  ]"))
        return Bytes((Song.object(top, 1) + "\n").utf8)
    }

    static func patternText(_ p: SongPattern) -> String {
        var f: [(String, String)] = [("length", String(p.length))]
        if let swing = p.swing { f.append(("swing", number(swing))) }
        let own = TrackKind.allCases.compactMap { k in p.trackLengths[k].map { (k.rawValue, String($0)) } }
        if !own.isEmpty { f.append(("track_lengths", inline(own))) }
        var tracks: [(String, String)] = []
        for kind in TrackKind.allCases {
            guard let notes = p.tracks[kind], !notes.isEmpty else { continue }
            let lines = notes.map { inline($0.fields) }
            tracks.append((kind.rawValue, "[\n        " + lines.joined(separator: ",\n        ") + "\n      ]"))
        }
        f.append(("tracks", tracks.isEmpty ? "{}" : object(tracks, 4)))
        return object(f, 3)
    }

    static func object(_ fields: [(String, String)], _ depth: Int) -> String {
        let pad = String(repeating: "  ", count: depth)
        let body = fields.map { "\(pad)\(quote($0.0)): \($0.1)" }.joined(separator: ",\n")
        return "{\n" + body + "\n" + String(repeating: "  ", count: depth - 1) + "}"
    }

    static func inline(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(quote($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }

    static func quote(_ s: String) -> String {
        JSONText.quote(s, escapeSlashes: false)
    }

    /// Whole numbers without a fraction; others as Swift's shortest exact form.
    static func number(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : "\(d)"
    }
}

extension SongNote {
    var fields: [(String, String)] {
        var f: [(String, String)] = [("step", String(step)), ("pitch", String(pitch))]
        if velocity != .normal { f.append(("velocity", velocity.isLevel ? velocity.rawValue : Song.quote(velocity.rawValue))) }
        if length != 1 { f.append(("length", String(length))) }
        if probability != 100 { f.append(("probability", String(probability))) }
        if let c = condition { f.append(("condition", Song.quote(c.text))) }
        if ratchet != 1 { f.append(("ratchet", String(ratchet))) }
        if offset != 0 { f.append(("offset", Song.number(offset))) }
        return f
    }
}

extension Instrument {
    func fields(_ kind: TrackKind) -> [(String, String)] {
        var f: [(String, String)] = []
        if kind == .rhythm {
            if kit != .gm { f.append(("kit", Song.quote(kit.rawValue))) }
        } else {
            if let voice { f.append(("voice", Song.quote(voice.rawValue))) }
            if width != 0.5 { f.append(("width", Song.number(width))) }
            let sound: [(String, Double?)] = [
                ("attack", attack), ("decay", decay), ("sustain", sustain), ("release", release), ("cutoff", cutoff),
                ("resonance", resonance)
            ]
            for (key, value) in sound { if let value { f.append((key, Song.number(value))) } }
        }
        if level != 1 { f.append(("level", Song.number(level))) }
        if pan != 0 { f.append(("pan", Song.number(pan))) }
        if mute { f.append(("mute", "true")) }
        if solo { f.append(("solo", "true")) }
        return f
    }
}
