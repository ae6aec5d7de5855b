import CAudioEngine
import Foundation

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
    public var scaleIndex: Int { AmbientPreset.scaleNames.firstIndex(of: scale) ?? 0 }

    /// The engine configuration for this preset.
    public func config(seed: UInt64, sampleRate: Double, maxBlockFrames: Int = 4096) -> boop_ambient_config {
        var c = boop_ambient_config()
        boop_ambient_config_default(&c)
        c.sample_rate = sampleRate
        c.seed = seed
        c.max_block_frames = UInt32(clamping: maxBlockFrames)
        c.key = Int32(keyIndex)
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
        let (root, json) = try StrictJSON.load(path: path)
        return try validate(root, json)
    }

    /// Parses preset JSON held in memory; `file` names it in messages.
    public static func parse(_ data: Data, file: String) throws(PatternError) -> AmbientPreset {
        let json = StrictJSON(file: file)
        return try validate(try json.parse(data), json)
    }

    static func validate(_ root: Any, _ json: StrictJSON) throws(PatternError) -> AmbientPreset {
        let top = try json.object(root, "", allowed: [
            "name", "description", "key", "scale", "tempo", "chordSeconds", "seventhChance", "modulationChance",
            "masterGain", "drift", "fadeIn", "pad", "lead", "grain", "ocean", "delay", "reverb",
        ])
        let fallbackName = URL(fileURLWithPath: json.file).deletingPathExtension().lastPathComponent
        var p = AmbientPreset(name: try top["name"].map { v throws(PatternError) in try json.string(v, "name", maxLength: 64) } ?? fallbackName)
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
        func num(_ dict: [String: Any], _ key: String, _ path: String, _ range: ClosedRange<Double>, _ into: inout Double) throws(PatternError) {
            if let v = dict[key] { into = try json.double(v, path.isEmpty ? key : "\(path).\(key)", in: range) }
        }
        func int(_ dict: [String: Any], _ key: String, _ path: String, _ range: ClosedRange<Int>, _ into: inout Int) throws(PatternError) {
            if let v = dict[key] { into = try json.integer(v, "\(path).\(key)", in: range) }
        }
        try num(top, "tempo", "", 20...240, &p.tempo)
        try num(top, "chordSeconds", "", 1...120, &p.chordSeconds)
        try num(top, "seventhChance", "", 0...1, &p.seventhChance)
        try num(top, "modulationChance", "", 0...1, &p.modulationChance)
        try num(top, "masterGain", "", 0...2, &p.masterGain)
        try num(top, "drift", "", 0...1, &p.drift)
        try num(top, "fadeIn", "", 0...30, &p.fadeIn)

        if let v = top["pad"] {
            let d = try json.object(v, "pad", allowed: ["level", "octave", "detuneCents", "attack", "release", "filterMin", "filterMax", "resonance", "sweepSeconds"])
            try num(d, "level", "pad", 0...1, &p.pad.level)
            try int(d, "octave", "pad", 1...6, &p.pad.octave)
            try num(d, "detuneCents", "pad", 0...50, &p.pad.detuneCents)
            try num(d, "attack", "pad", 0.01...20, &p.pad.attack)
            try num(d, "release", "pad", 0.05...30, &p.pad.release)
            try num(d, "filterMin", "pad", 40...18000, &p.pad.filterMin)
            try num(d, "filterMax", "pad", 40...18000, &p.pad.filterMax)
            try num(d, "resonance", "pad", 0...1, &p.pad.resonance)
            try num(d, "sweepSeconds", "pad", 2...600, &p.pad.sweepSeconds)
        }
        if p.pad.filterMax < p.pad.filterMin {
            throw json.fail("pad.filterMax", "a frequency at least pad.filterMin (\(StrictJSON.format(p.pad.filterMin)))", got: p.pad.filterMax)
        }
        if let v = top["lead"] {
            let d = try json.object(v, "lead", allowed: ["level", "octave", "pulses", "steps", "rotation", "probability", "fmRatio", "fmIndex", "attack", "decay"])
            try num(d, "level", "lead", 0...1, &p.lead.level)
            try int(d, "octave", "lead", 2...7, &p.lead.octave)
            try int(d, "steps", "lead", 1...64, &p.lead.steps)
            try int(d, "pulses", "lead", 0...p.lead.steps, &p.lead.pulses)
            try int(d, "rotation", "lead", 0...(p.lead.steps - 1), &p.lead.rotation)
            try num(d, "probability", "lead", 0...1, &p.lead.probability)
            try num(d, "fmRatio", "lead", 0.25...16, &p.lead.fmRatio)
            try num(d, "fmIndex", "lead", 0...12, &p.lead.fmIndex)
            try num(d, "attack", "lead", 0.001...2, &p.lead.attack)
            try num(d, "decay", "lead", 0.02...10, &p.lead.decay)
        }
        if p.lead.pulses > p.lead.steps {
            throw json.fail("lead.pulses", "at most lead.steps (\(p.lead.steps)) pulses", got: p.lead.pulses)
        }
        if p.lead.rotation >= p.lead.steps {
            throw json.fail("lead.rotation", "an integer 0...\(p.lead.steps - 1) (below lead.steps)", got: p.lead.rotation)
        }
        if let v = top["grain"] {
            let d = try json.object(v, "grain", allowed: ["level", "size", "density", "pitchSpread"])
            try num(d, "level", "grain", 0...1, &p.grain.level)
            try num(d, "size", "grain", 0.01...0.5, &p.grain.size)
            try num(d, "density", "grain", 0.2...80, &p.grain.density)
            try num(d, "pitchSpread", "grain", 0...1, &p.grain.pitchSpread)
        }
        if let v = top["ocean"] {
            let d = try json.object(v, "ocean", allowed: ["level", "swellSeconds"])
            try num(d, "level", "ocean", 0...1, &p.ocean.level)
            try num(d, "swellSeconds", "ocean", 2...60, &p.ocean.swellSeconds)
        }
        if let v = top["delay"] {
            let d = try json.object(v, "delay", allowed: ["time", "feedback", "mix", "damping"])
            try num(d, "time", "delay", 0.01...2, &p.delay.time)
            try num(d, "feedback", "delay", 0...0.95, &p.delay.feedback)
            try num(d, "mix", "delay", 0...1, &p.delay.mix)
            try num(d, "damping", "delay", 0...1, &p.delay.damping)
        }
        if let v = top["reverb"] {
            let d = try json.object(v, "reverb", allowed: ["size", "decay", "mix", "damping"])
            try num(d, "size", "reverb", 0...1, &p.reverb.size)
            try num(d, "decay", "reverb", 0.1...60, &p.reverb.decay)
            try num(d, "mix", "reverb", 0...1, &p.reverb.mix)
            try num(d, "damping", "reverb", 0...1, &p.reverb.damping)
        }
        // The engine checks again in its own units (float conversion at the limits).
        var c = p.config(seed: 1, sampleRate: 44100)
        var field: UnsafePointer<CChar>?
        if boop_ambient_config_check(&c, &field) != BOOP_OK {
            let name = field.map { String(cString: $0) } ?? "?"
            throw PatternError(.invalid, "\(json.file): \(name): value refused by the engine")
        }
        return p
    }
}

// MARK: - Bundled presets and lookup

extension AmbientPreset {
    /// The presets that ship inside the binary (compiled in, so an installed `boop` needs no
    /// resource folder), sorted by name.
    public static let bundled: [AmbientPreset] = BundledPresets.sources.compactMap { source in
        try? AmbientPreset.parse(Data(source.json.utf8), file: "\(source.name).json (bundled)")
    }.sorted { $0.name < $1.name }

    /// A bundled preset by name (case-insensitive).
    public static func named(_ name: String) -> AmbientPreset? {
        bundled.first { $0.name.lowercased() == name.lowercased() }
    }

    /// `--preset` semantics: a bundled name, or else a JSON file path.
    public static func resolve(_ nameOrPath: String) throws(PatternError) -> AmbientPreset {
        if let preset = named(nameOrPath) { return preset }
        let looksLikePath = nameOrPath.contains("/") || nameOrPath.hasSuffix(".json")
        if !looksLikePath && !FileManager.default.fileExists(atPath: nameOrPath) {
            throw PatternError(.missingFile, "\(nameOrPath): no bundled preset or file of that name (bundled: \(bundled.map(\.name).joined(separator: ", ")))")
        }
        return try load(path: nameOrPath)
    }

    /// One line per bundled preset: `name  description`.
    public static var listing: [String] { bundled.map { "\($0.name)  \($0.description)" } }
}
