import CAudioEngine
import Glibc

/// A generative-ambient preset: the musical and mix parameters of `boop ambient`, read from JSON
/// with the same strictness as patterns (unknown keys, wrong types, out-of-range or non-finite
/// values are refused with one line naming the file, the field path and what was expected).
/// Every field but `name` is optional in a file; missing fields take the defaults below.
public struct AmbientPreset: Codable, Equatable, Sendable {
    public struct Pad: Codable, Equatable, Sendable {
        public var level = 0.6, octave = 3, detuneCents = 9.0, attack = 3.0, release = 5.0
        public var filterMin = 400.0, filterMax = 2400.0, resonance = 0.2, sweepSeconds = 30.0
        public init() {}
    }
    public struct Lead: Codable, Equatable, Sendable {
        public var level = 0.35, octave = 5, pulses = 5, steps = 16, rotation = 0, probability = 0.8
        public var fmRatio = 2.0, fmIndex = 2.0, attack = 0.005, decay = 1.6
        public init() {}
    }
    public struct Grain: Codable, Equatable, Sendable {
        public var level = 0.3, size = 0.12, density = 10.0, pitchSpread = 0.3
        public init() {}
    }
    public struct Ocean: Codable, Equatable, Sendable {
        public var level = 0.15, swellSeconds = 10.0
        public init() {}
    }
    public struct Delay: Codable, Equatable, Sendable {
        public var time = 0.42, feedback = 0.45, mix = 0.35, damping = 0.4
        public init() {}
    }
    public struct Reverb: Codable, Equatable, Sendable {
        public var size = 0.7, decay = 6.0, mix = 0.45, damping = 0.35
        public init() {}
    }

    public var name: String
    public var description = ""
    /// The tonic, spelled as in the file ("D", "F#", "Bb").
    public var key = "D"
    /// "major", "minor", "dorian", "phrygian", "lydian" or "mixolydian".
    public var scale = "major"
    public var tempo = 72.0
    public var chordSeconds = 10.0
    public var seventhChance = 0.3
    public var modulationChance = 0.3
    public var masterGain = 0.8
    public var drift = 0.4
    public var fadeIn = 1.0
    public var pad = Pad()
    public var lead = Lead()
    public var grain = Grain()
    public var ocean = Ocean()
    public var delay = Delay()
    public var reverb = Reverb()

    public init(name: String) { self.name = name }

    /// Pitch classes by spelling; sharps and flats both accepted.
    /// Key names with at most one accidental ("C", "C#", "Db", ... "B#", "Cb"), read by the one note-name
    /// parser (`NoteName`), mapped to their pitch class.
    public static let keyNames: [String: Int] = {
        var names: [String: Int] = [:]
        for letter in ["C", "D", "E", "F", "G", "A", "B"] {
            for accidental in ["", "#", "b"] {
                guard let note = NoteName(letter + accidental + "4") else { continue }
                names[letter + accidental] = ((note.midi % 12) + 12) % 12
            }
        }
        return names
    }()
    public static let scaleNames = ["major", "minor", "dorian", "phrygian", "lydian", "mixolydian"]

    public var keyIndex: Int { AmbientPreset.keyNames[key] ?? 0 }
    /// The key keeps the accidental it was written with ("C#" stays sharp through the status and
    /// the chord names); a natural key is named conventionally.
    public var keySpelling: boop_ambient_spelling {
        key.hasSuffix("#")
            ? BOOP_AMBIENT_SPELLING_SHARPS
            : key.count > 1 && key.hasSuffix("b") ? BOOP_AMBIENT_SPELLING_FLATS : BOOP_AMBIENT_SPELLING_CONVENTIONAL
    }
    public var scaleIndex: Int { AmbientPreset.scaleNames.firstIndex(of: scale) ?? 0 }

    /// The engine configuration for this preset.
    public func config(seed: UInt64, sampleRate: Double, maxBlockFrames: Int = 4096) -> boop_ambient_config {
        var c = boop_ambient_config()
        boop_ambient_config_default(&c)
        c.sample_rate = sampleRate
        c.seed = seed
        c.max_block_frames = UInt32(clamping: maxBlockFrames)
        c.key = Int32(keyIndex)
        c.key_spelling = Int32(bitPattern: keySpelling.rawValue)
        c.scale = Int32(scaleIndex)
        c.tempo_bpm = tempo
        c.chord_seconds = chordSeconds
        c.seventh_chance = Float(seventhChance)
        c.modulation_chance = Float(modulationChance)
        c.master_gain = Float(masterGain)
        c.drift_amount = Float(drift)
        c.fade_in_seconds = Float(fadeIn)
        c.pad_level = Float(pad.level)
        c.pad_octave = Int32(pad.octave)
        c.pad_detune_cents = Float(pad.detuneCents)
        c.pad_attack_seconds = Float(pad.attack)
        c.pad_release_seconds = Float(pad.release)
        c.filter_min_hz = Float(pad.filterMin)
        c.filter_max_hz = Float(pad.filterMax)
        c.filter_resonance = Float(pad.resonance)
        c.filter_sweep_seconds = Float(pad.sweepSeconds)
        c.lead_level = Float(lead.level)
        c.lead_octave = Int32(lead.octave)
        c.lead_pulses = UInt32(clamping: lead.pulses)
        c.lead_steps = UInt32(clamping: lead.steps)
        c.lead_rotation = UInt32(clamping: lead.rotation)
        c.lead_probability = Float(lead.probability)
        c.fm_ratio = Float(lead.fmRatio)
        c.fm_index = Float(lead.fmIndex)
        c.lead_attack_seconds = Float(lead.attack)
        c.lead_decay_seconds = Float(lead.decay)
        c.grain_level = Float(grain.level)
        c.grain_seconds = Float(grain.size)
        c.grain_density = Float(grain.density)
        c.grain_pitch_spread = Float(grain.pitchSpread)
        c.ocean_level = Float(ocean.level)
        c.ocean_swell_seconds = Float(ocean.swellSeconds)
        c.delay_seconds = Float(delay.time)
        c.delay_feedback = Float(delay.feedback)
        c.delay_mix = Float(delay.mix)
        c.delay_damping = Float(delay.damping)
        c.reverb_size = Float(reverb.size)
        c.reverb_decay_seconds = Float(reverb.decay)
        c.reverb_mix = Float(reverb.mix)
        c.reverb_damping = Float(reverb.damping)
        return c
    }
}

// MARK: - Strict loading

extension AmbientPreset {
    /// Loads and validates a preset file: exit-code kinds as for patterns (missing -> .missingFile,
    /// anything wrong inside -> .invalid).
    public static func load(path: String) throws(PatternError) -> AmbientPreset {
        try StrictJSON.load(path: path, validate)
    }

    /// Parses preset JSON held in memory; `file` names it in messages.
    public static func parse(_ data: Bytes, file: String) throws(PatternError) -> AmbientPreset {
        try StrictJSON.parse(data, file: file, validate)
    }

    /// A numeric field of a preset file: its path in the file, the engine config field whose range
    /// (from the engine's one table, `boop_ambient_range_of`) it must lie in, and where it goes.
    /// Sendable key paths (SE-0418): the table is a static constant shared by every thread.
    private enum NumericField: Sendable {
        case real(String, String, WritableKeyPath<AmbientPreset, Double> & Sendable)
        case whole(String, String, WritableKeyPath<AmbientPreset, Int> & Sendable)

        var path: String {
            switch self {
            case .real(let path, _, _), .whole(let path, _, _): return path
            }
        }
    }

    /// In file order within each object; lead.steps comes before the fields bounded by it.
    private static let numericFields: [NumericField] = [
        .real("tempo", "tempo_bpm", \.tempo), .real("chordSeconds", "chord_seconds", \.chordSeconds),
        .real("seventhChance", "seventh_chance", \.seventhChance),
        .real("modulationChance", "modulation_chance", \.modulationChance),
        .real("masterGain", "master_gain", \.masterGain), .real("drift", "drift_amount", \.drift),
        .real("fadeIn", "fade_in_seconds", \.fadeIn),
        .real("pad.level", "pad_level", \.pad.level), .whole("pad.octave", "pad_octave", \.pad.octave),
        .real("pad.detuneCents", "pad_detune_cents", \.pad.detuneCents),
        .real("pad.attack", "pad_attack_seconds", \.pad.attack),
        .real("pad.release", "pad_release_seconds", \.pad.release),
        .real("pad.filterMin", "filter_min_hz", \.pad.filterMin), .real("pad.filterMax", "filter_max_hz", \.pad.filterMax),
        .real("pad.resonance", "filter_resonance", \.pad.resonance),
        .real("pad.sweepSeconds", "filter_sweep_seconds", \.pad.sweepSeconds),
        .real("lead.level", "lead_level", \.lead.level), .whole("lead.octave", "lead_octave", \.lead.octave),
        .whole("lead.steps", "lead_steps", \.lead.steps), .whole("lead.pulses", "lead_pulses", \.lead.pulses),
        .whole("lead.rotation", "lead_rotation", \.lead.rotation),
        .real("lead.probability", "lead_probability", \.lead.probability),
        .real("lead.fmRatio", "fm_ratio", \.lead.fmRatio), .real("lead.fmIndex", "fm_index", \.lead.fmIndex),
        .real("lead.attack", "lead_attack_seconds", \.lead.attack), .real("lead.decay", "lead_decay_seconds", \.lead.decay),
        .real("grain.level", "grain_level", \.grain.level), .real("grain.size", "grain_seconds", \.grain.size),
        .real("grain.density", "grain_density", \.grain.density),
        .real("grain.pitchSpread", "grain_pitch_spread", \.grain.pitchSpread),
        .real("ocean.level", "ocean_level", \.ocean.level),
        .real("ocean.swellSeconds", "ocean_swell_seconds", \.ocean.swellSeconds),
        .real("delay.time", "delay_seconds", \.delay.time), .real("delay.feedback", "delay_feedback", \.delay.feedback),
        .real("delay.mix", "delay_mix", \.delay.mix), .real("delay.damping", "delay_damping", \.delay.damping),
        .real("reverb.size", "reverb_size", \.reverb.size),
        .real("reverb.decay", "reverb_decay_seconds", \.reverb.decay),
        .real("reverb.mix", "reverb_mix", \.reverb.mix), .real("reverb.damping", "reverb_damping", \.reverb.damping)
    ]

    /// The sections of a preset file, in the order they are read.
    private static let sections = ["pad", "lead", "grain", "ocean", "delay", "reverb"]

    /// The range of an engine config field, from the engine's table.
    static func range(_ field: String) -> ClosedRange<Double> {
        guard let r = boop_ambient_range_of(field) else { preconditionFailure("no range for \(field)") }
        return r.pointee.min...r.pointee.max
    }

    static func validate(_ root: Any, _ json: StrictJSON) throws(PatternError) -> AmbientPreset {
        let topFields = numericFields.map(\.path).filter { !$0.contains(".") }
        let top = try json.object(root, "", allowed: Set(["name", "description", "key", "scale"] + topFields + sections))
        var p = try named(top, json)
        try readNumbers(top, section: nil, into: &p, json)
        for section in sections {
            guard let v = top[section] else { continue }
            let fields = numericFields.map(\.path).filter { $0.hasPrefix(section + ".") }
            let d = try json.object(v, section, allowed: Set(fields.map { String($0.dropFirst(section.count + 1)) }))
            try readNumbers(d, section: section, into: &p, json)
        }
        try checkCrossFields(p, json)
        // The engine checks again in its own units (float conversion at the limits).
        var c = p.config(seed: 1, sampleRate: 44100)
        var field: UnsafePointer<CChar>?
        if boop_ambient_config_check(&c, &field) != BOOP_OK {
            let name = field.map { String(cString: $0) } ?? "?"
            throw PatternError(.invalid, "\(json.file): \(name): value refused by the engine")
        }
        return p
    }

    /// The name (from the file, else the file name), description, key and scale.
    private static func named(_ top: [String: Any], _ json: StrictJSON) throws(PatternError) -> AmbientPreset {
        let fallbackName = PathText.lastComponent(PathText.deletingExtension(json.file))
        var p = AmbientPreset(
            name: try top["name"].map { v throws(PatternError) in try json.string(v, "name", maxLength: 64) } ?? fallbackName)
        guard !p.name.isEmpty, !p.name.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            throw json.fail("name", "a name without spaces (e.g. \"My_Preset\")", got: p.name)
        }
        if let v = top["description"] { p.description = try json.string(v, "description", maxLength: 200) }
        if let v = top["key"] {
            guard let s = v as? String, keyNames[s] != nil else {
                throw json.fail("key", "a key name such as \"C\", \"F#\" or \"Bb\"", got: v)
            }
            p.key = s
        }
        if let v = top["scale"] {
            guard let s = v as? String, scaleNames.contains(s) else {
                throw json.fail("scale", scaleNames.map { "\"\($0)\"" }.joined(separator: ", "), got: v)
            }
            p.scale = s
        }
        return p
    }

    /// Reads the numeric fields of one object (the top level when `section` is nil).
    private static func readNumbers(
        _ dict: [String: Any], section: String?, into p: inout AmbientPreset,
        _ json: StrictJSON
    ) throws(PatternError) {
        let prefix = section.map { $0 + "." } ?? ""
        for field in numericFields where field.path.hasPrefix(prefix) && (section != nil || !field.path.contains(".")) {
            guard let v = dict[String(field.path.dropFirst(prefix.count))] else { continue }
            switch field {
            case .real(let path, let name, let keyPath):
                p[keyPath: keyPath] = try json.double(v, path, in: range(name))
            case .whole(let path, let name, let keyPath):
                let r = range(name)
                var bounds = Int(r.lowerBound)...Int(r.upperBound)
                // Bounded by lead.steps (read before them): the table holds their widest range.
                if path == "lead.pulses" { bounds = 0...p.lead.steps }
                if path == "lead.rotation" { bounds = 0...(p.lead.steps - 1) }
                p[keyPath: keyPath] = try json.integer(v, path, in: bounds)
            }
        }
    }

    /// The rules between fields (the engine's table states them too).
    private static func checkCrossFields(_ p: AmbientPreset, _ json: StrictJSON) throws(PatternError) {
        if p.pad.filterMax < p.pad.filterMin {
            throw json.fail(
                "pad.filterMax", "a frequency at least pad.filterMin (\(StrictJSON.format(p.pad.filterMin)))",
                got: p.pad.filterMax)
        }
        if p.lead.pulses > p.lead.steps {
            throw json.fail("lead.pulses", "at most lead.steps (\(p.lead.steps)) pulses", got: p.lead.pulses)
        }
        if p.lead.rotation >= p.lead.steps {
            throw json.fail("lead.rotation", "an integer 0...\(p.lead.steps - 1) (below lead.steps)", got: p.lead.rotation)
        }
    }
}

// MARK: - Bundled presets and lookup

extension AmbientPreset {
    /// The presets that ship inside the binary (compiled in, so an installed `boop` needs no
    /// resource folder), sorted by name.
    public static let bundled: [AmbientPreset] = BundledPresets.sources.compactMap { source in
        try? AmbientPreset.parse(Bytes(source.json.utf8), file: "\(source.name).json (bundled)")
    }.sorted { $0.name < $1.name }

    /// A bundled preset by name (case-insensitive).
    public static func named(_ name: String) -> AmbientPreset? {
        bundled.first { $0.name.lowercased() == name.lowercased() }
    }

    /// `--preset` semantics: a bundled name, or else a JSON file path.
    public static func resolve(_ nameOrPath: String) throws(PatternError) -> AmbientPreset {
        if let preset = named(nameOrPath) { return preset }
        let looksLikePath = nameOrPath.contains("/") || nameOrPath.hasSuffix(".json")
        if !looksLikePath && !FileBytes.exists(nameOrPath) {
            let shown = nameOrPath.isEmpty ? "(empty name)" : nameOrPath
            throw PatternError(
                .missingFile,
                "\(shown): no bundled preset or file of that name (bundled: \(bundled.map(\.name).joined(separator: ", ")))")
        }
        return try load(path: nameOrPath)
    }

    /// One line per bundled preset: `name  description`.
    public static var listing: [String] { bundled.map { "\($0.name)  \($0.description)" } }
}
