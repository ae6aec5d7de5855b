import Glibc

/// A key and a scale for the editor's scale lock: "C major", "A minor", "D dorian", ...
public struct Scale: Sendable, Equatable {
    /// Every scale the lock knows, one line each: the seven diatonic modes (major and minor are
    /// ionian and aeolian under their everyday names), harmonic and melodic minor, the two
    /// pentatonics, the blues scale and the chromatic scale.
    public static let kinds: [(name: String, steps: [Int])] = [
        ("major", [0, 2, 4, 5, 7, 9, 11]), ("minor", [0, 2, 3, 5, 7, 8, 10]), ("dorian", [0, 2, 3, 5, 7, 9, 10]),
        ("mixolydian", [0, 2, 4, 5, 7, 9, 10]), ("pentatonic", [0, 2, 4, 7, 9]),
        ("minor-pentatonic", [0, 3, 5, 7, 10]), ("blues", [0, 3, 5, 6, 7, 10]), ("harmonic-minor", [0, 2, 3, 5, 7, 8, 11]),
        ("phrygian", [0, 1, 3, 5, 7, 8, 10]), ("lydian", [0, 2, 4, 6, 7, 9, 11]), ("locrian", [0, 1, 3, 5, 6, 8, 10]),
        ("ionian", [0, 2, 4, 5, 7, 9, 11]), ("aeolian", [0, 2, 3, 5, 7, 8, 10]), ("melodic-minor", [0, 2, 3, 5, 7, 9, 11]),
        ("major-pentatonic", [0, 2, 4, 7, 9]), ("chromatic", Array(0..<12))
    ]

    public let root: Int
    public let kind: Int

    public init(root: Int, kind: Int) {
        self.root = ((root % 12) + 12) % 12
        self.kind = kind
    }

    /// "C major", "f# minor", "Bb pentatonic", "a" (major); nil when not a scale. The root is
    /// spelled as `NoteName` reads a note, without its octave (so `E#`, `Cb` and `♭` are taken too).
    public init?(parsing text: String) {
        let words = text.split(separator: " ").map(String.init)
        guard let first = words.first, words.count <= 3,
            first.allSatisfy({ !$0.isNumber && $0 != "-" && $0 != "+" }),
            let note = NoteName(first + "4")
        else { return nil }
        let root = note.midi
        // "A harmonic minor" and "A harmonic-minor" name the same scale.
        let kindName = words.count >= 2 ? words[1...].joined(separator: "-").lowercased() : "major"
        guard let kind = Scale.kinds.firstIndex(where: { $0.name == kindName }) else { return nil }
        self.init(root: root, kind: kind)
    }

    /// The root as the engine's table spells it with sharps ("A# minor").
    public var name: String { "\(String(NoteName(midi: 60 + root).description.dropLast())) \(Scale.kinds[kind].name)" }

    public func contains(_ pitch: Int) -> Bool { Scale.kinds[kind].steps.contains(((pitch - root) % 12 + 12) % 12) }

    /// The scale note nearest `pitch` (the lower one on a tie), within 0...127.
    public func nearest(_ pitch: Int) -> Int {
        for d in 0...6 {
            if pitch - d >= 0 && contains(pitch - d) { return pitch - d }
            if pitch + d <= Limits.midiNote.upperBound && contains(pitch + d) { return pitch + d }
        }
        return pitch
    }

    /// The pitch `degrees` notes of the scale above (or below) `pitch`: from a note outside the
    /// scale the first step lands on the nearest scale note that way. Stays within 0 ... 127
    /// (nil past it).
    public func pitch(_ pitch: Int, movedBy degrees: Int) -> Int? {
        var p = pitch
        for _ in 0..<abs(degrees) {
            repeat {
                p += degrees.signum()
                if !Limits.midiNote.contains(p) { return nil }
            } while !contains(p)
        }
        return p
    }

    public static let help =
        "a key and a scale: C major, A minor, D dorian, E phrygian, F lydian, G mixolydian, B locrian, "
        + "A harmonic minor, A melodic minor, C pentatonic, A minor-pentatonic, A blues, C chromatic; off ends the lock"
}
