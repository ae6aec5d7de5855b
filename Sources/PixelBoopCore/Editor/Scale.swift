import FoundationEssentials
import Glibc

/// A key and a scale for the editor's scale lock: "C major", "A minor", "D dorian", ...
public struct Scale: Sendable, Equatable {
    public static let kinds: [(name: String, steps: [Int])] = [
        ("major", [0, 2, 4, 5, 7, 9, 11]), ("minor", [0, 2, 3, 5, 7, 8, 10]), ("dorian", [0, 2, 3, 5, 7, 9, 10]),
        ("mixolydian", [0, 2, 4, 5, 7, 9, 10]), ("pentatonic", [0, 2, 4, 7, 9]),
        ("minor-pentatonic", [0, 3, 5, 7, 10]), ("blues", [0, 3, 5, 6, 7, 10]), ("harmonic-minor", [0, 2, 3, 5, 7, 8, 11])
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
        guard let first = words.first, words.count <= 2,
            first.allSatisfy({ !$0.isNumber && $0 != "-" && $0 != "+" }),
            let note = NoteName(first + "4")
        else { return nil }
        let root = note.midi
        let kindName = words.count == 2 ? words[1].lowercased() : "major"
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
            if pitch + d <= 127 && contains(pitch + d) { return pitch + d }
        }
        return pitch
    }

    public static let help =
        "a key and a scale: C major, A minor, D dorian, G mixolydian, E pentatonic, A minor-pentatonic, A blues, A harmonic-minor; off ends the lock"
}
