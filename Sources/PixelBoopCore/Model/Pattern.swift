import Glibc

/// The four tracks of a PixelBoop pattern, each with its own timbre.
public enum TrackKind: String, Codable, Sendable, CaseIterable, Comparable {
    case melody, chords, bass, rhythm

    public static func < (a: TrackKind, b: TrackKind) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// One note on the step grid. `pitch` is MIDI (rhythm: a General MIDI drum key); `length` is in
/// steps (sixteenth notes).
public struct Note: Codable, Sendable, Equatable, Hashable {
    public var step: Int
    public var pitch: Int
    public var velocity: Velocity
    public var length: Int

    public init(step: Int, pitch: Int, velocity: Velocity = .normal, length: Int = 1) {
        self.step = step
        self.pitch = pitch
        self.velocity = velocity
        self.length = length
    }
}

/// A looping step-sequencer pattern (DESIGN.md, "Pattern files").
public struct Pattern: Codable, Sendable, Equatable {
    public static let bpmRange: ClosedRange<Double> = Limits.tempoBPM
    public static let allowedLengths = [8, 16, 24, 32]

    public var name: String
    public var bpm: Double
    public var length: Int
    public var tracks: [TrackKind: [Note]]

    public init(name: String, bpm: Double = 120, length: Int = 16, tracks: [TrackKind: [Note]] = [:]) {
        self.name = name
        self.bpm = bpm
        self.length = length
        self.tracks = tracks
    }

    /// Notes of a track (empty when absent).
    public func notes(_ kind: TrackKind) -> [Note] { tracks[kind] ?? [] }

    /// Duration of one step in seconds at the pattern's tempo.
    public var stepSeconds: Double { 60.0 / (bpm * 4.0) }

    private enum CodingKeys: String, CodingKey { case name, bpm, length, tracks }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(bpm, forKey: .bpm)
        try c.encode(length, forKey: .length)
        var byName: [String: [Note]] = [:]
        for (k, v) in tracks { byName[k.rawValue] = v }
        try c.encode(byName, forKey: .tracks)
    }

    /// Decoding goes through the strict validator, so a Pattern can never hold an invalid value.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let byName = try c.decodeIfPresent([String: [Note]].self, forKey: .tracks) ?? [:]
        var tracks: [TrackKind: [Note]] = [:]
        for (k, v) in byName {
            guard let kind = TrackKind(rawValue: k) else {
                throw DecodingError.dataCorruptedError(forKey: .tracks, in: c, debugDescription: "unknown track \(k)")
            }
            tracks[kind] = v
        }
        self.init(
            name: try c.decodeIfPresent(String.self, forKey: .name) ?? "Untitled",
            bpm: try c.decodeIfPresent(Double.self, forKey: .bpm) ?? 120,
            length: try c.decodeIfPresent(Int.self, forKey: .length) ?? 16,
            tracks: tracks)
    }
}

extension Note {
    private enum CodingKeys: String, CodingKey { case step, pitch, velocity, length }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            step: try c.decode(Int.self, forKey: .step),
            pitch: try c.decode(Int.self, forKey: .pitch),
            velocity: try c.decodeIfPresent(Velocity.self, forKey: .velocity) ?? .normal,
            length: try c.decodeIfPresent(Int.self, forKey: .length) ?? 1)
    }
}

extension Pattern {
    /// The pitched notes that cannot sound at `sampleRate` (at or above half of it): the engine
    /// skips them, so `render` and `play` warn with one line rather than drop them silently.
    /// Rhythm keys are drum sounds, not pitches, and are never above Nyquist.
    public func notesAboveNyquist(sampleRate: Double, reference: Double = 440) -> [(
        track: TrackKind, index: Int, note: Note, hz: Double
    )] {
        var found: [(track: TrackKind, index: Int, note: Note, hz: Double)] = []
        for kind in TrackKind.allCases where kind != .rhythm {
            for (i, note) in (tracks[kind] ?? []).enumerated() {
                let hz = Pitch.frequency(midi: Double(note.pitch), reference: reference)
                if hz >= sampleRate / 2 { found.append((kind, i, note, hz)) }
            }
        }
        return found
    }
}
