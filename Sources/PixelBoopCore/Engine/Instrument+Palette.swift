import CAudioEngine

extension Instrument {
    /// The sound a song gives a voice where its fields name none.
    public typealias Sound = (
        attack: Double, decay: Double, sustain: Double, release: Double, cutoff: Double, resonance: Double
    )

    /// A pitched track's voice: one of the engine's, read from the library's list (CAudioEngine.h,
    /// BOOP_VOICES), so a voice added there is in song files, the editor, the help and `.mid`
    /// exports with no line here.
    public struct Voice: Hashable, Sendable, EngineListEntry {
        /// Its value in the C API (boop_instrument_voice).
        public let index: UInt32
        /// Its name in song files, e.g. "pluck".
        public let rawValue: String
        /// One line for the help.
        public let summary: String
        /// The General MIDI program (0-based) a `.mid` export gives it.
        public let midiProgram: UInt8
        /// The sound a song gives it where the fields name none.
        public let defaultSound: Sound

        public static let allCases: [Voice] = (0..<boop_voice_count()).map { i in
            let voice = boop_instrument_voice(rawValue: i)
            var s = boop_instrument()
            _ = boop_voice_sound(voice, &s)
            return Voice(
                index: i, rawValue: String(cString: boop_voice_name(voice)),
                summary: String(cString: boop_voice_description(voice)),
                midiProgram: UInt8(clamping: boop_voice_gm_program(voice)),
                defaultSound: (s.attack, s.decay, s.sustain, s.release, s.cutoff, s.resonance))
        }

        /// The voices a classic track's timbre is nearest to (Instrument.resolvedVoice).
        public static let sine = allCases[Int(BOOP_VOICE_SINE.rawValue)]
        public static let triangle = allCases[Int(BOOP_VOICE_TRIANGLE.rawValue)]
        public static let saw = allCases[Int(BOOP_VOICE_SAW.rawValue)]

        var cValue: boop_instrument_voice { boop_instrument_voice(rawValue: index) }
        public static func == (a: Voice, b: Voice) -> Bool { a.index == b.index }
        public func hash(into hasher: inout Hasher) { hasher.combine(index) }
    }

    /// The rhythm's kit: one of the engine's, read from the library's list (BOOP_KITS) as the voices are.
    public struct Kit: Hashable, Sendable, EngineListEntry {
        /// Its value in the C API (boop_kit).
        public let index: UInt32
        /// Its name in song files, e.g. "808".
        public let rawValue: String
        /// One line for the help.
        public let summary: String

        public static let allCases: [Kit] = (0..<boop_kit_count()).map { i in
            let kit = boop_kit(rawValue: i)
            return Kit(
                index: i, rawValue: String(cString: boop_kit_name(kit)), summary: String(cString: boop_kit_description(kit)))
        }

        /// The version-1 kit: a song's unless it names another.
        public static let gm = allCases[Int(BOOP_KIT_GM.rawValue)]

        var cValue: boop_kit { boop_kit(rawValue: index) }
    }
}

/// An entry of one of the engine's lists (a voice, a kit), known by its name in song files: each
/// is found by that name and printed as it.
public protocol EngineListEntry: CaseIterable, RawRepresentable, CustomStringConvertible where RawValue == String {}

extension EngineListEntry {
    public init?(rawValue: String) {
        guard let entry = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = entry
    }

    public var description: String { rawValue }
}
