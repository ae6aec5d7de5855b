/// How hard a note is played: the original design's three names (their gains its own; the
/// engine's master gain, 0.3, follows), or a MIDI velocity 1...127 of a version-2 song, at gain
/// v / 127 and gated as a normal note.
public enum Velocity: Sendable, Hashable, CaseIterable, Codable {
    case normal, accent, sustain
    case level(Int)

    public static let levels = Limits.midiVelocity
    /// The three names (`level` is every other value).
    public static let allCases: [Velocity] = [.normal, .accent, .sustain]

    public var gain: Float {
        switch self {
        case .normal: return 0.6
        case .accent: return 1.0
        case .sustain: return 0.8
        case .level(let v): return Float(v) / 127
        }
    }

    /// "normal", "accent", "sustain", or the level's number ("97").
    public var rawValue: String {
        switch self {
        case .normal: return "normal"
        case .accent: return "accent"
        case .sustain: return "sustain"
        case .level(let v): return String(v)
        }
    }

    /// One of the three names.
    public init?(rawValue: String) {
        guard let named = Velocity.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = named
    }

    /// A level as the file holds it, clamped to 1...127.
    public static func clamped(_ v: Int) -> Velocity { .level(min(max(v, levels.lowerBound), levels.upperBound)) }

    public var isLevel: Bool { if case .level = self { return true } else { return false } }

    // A name as a string, a level as a number: the file's forms.
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let v = try? c.decode(Int.self), Velocity.levels.contains(v) {
            self = .level(v)
        } else if let named = Velocity(rawValue: try c.decode(String.self)) {
            self = named
        } else {
            throw DecodingError.dataCorruptedError(
                in: c, debugDescription: "expected a velocity name or \(Limits.text(Velocity.levels))")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        if case .level(let v) = self { try c.encode(v) } else { try c.encode(rawValue) }
    }
}
