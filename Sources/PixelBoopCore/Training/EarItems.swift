import Glibc

/// What an identification exercise asks: its items (the names a listener answers with), the key
/// of each answer, and how an item sounds.
public enum EarDrill: String, Sendable, Equatable, CaseIterable {
    /// Intervals m2 ... P8, played up, down or together.
    case intervals
    /// Root-position chords: major, minor, diminished, augmented and three sevenths.
    case chords
    /// Scale degrees 1 ... 7 of a major key set by a cadence or a drone.
    case degrees

    /// The items in answer order; each item's key is `keys[i]`.
    public var items: [String] {
        switch self {
        case .intervals: EarItems.intervalNames
        case .chords: EarItems.chords.map(\.name)
        case .degrees: ["1", "2", "3", "4", "5", "6", "7"]
        }
    }

    /// One key per item: 1-9, 0, - and = for the twelve intervals.
    public var keys: [Character] { Array("1234567890-=".prefix(items.count)) }
}

public enum EarItems {
    public static let intervalNames = ["m2", "M2", "m3", "M3", "P4", "TT", "P5", "m6", "M6", "m7", "M7", "P8"]
    /// How an interval is played: lower note first, upper first, or both at once.
    public static let directions = ["up", "down", "harmonic"]
    public static let chords: [(name: String, semitones: [Int])] = [
        ("maj", [0, 4, 7]), ("min", [0, 3, 7]), ("dim", [0, 3, 6]), ("aug", [0, 4, 8]),
        ("dom7", [0, 4, 7, 10]), ("maj7", [0, 4, 7, 11]), ("min7", [0, 3, 7, 10])
    ]
    public static let solfege = ["do", "re", "mi", "fa", "sol", "la", "ti"]
    /// Semitones above the tonic of the major scale's degrees.
    public static let major = [0, 2, 4, 5, 7, 9, 11]
    public static let keyNames = ["C", "C#", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B"]

    public static func hz(_ midi: Int) -> Double { 440 * pow(2, Double(midi - 69) / 12) }
}

/// One identification trial: the item asked, how it was played (a direction, a chord's
/// position, or the key of a degree) and its sound as phrases of notes; `together` phrases
/// sound at once (onsets 1 ms apart), the others one note after another.
public struct EarTrialPlan: Sendable, Equatable {
    public var number: Int
    public var drill: EarDrill
    public var item: String
    /// "up", "down", "harmonic"; "root" for a chord; the key ("Eb") for a degree.
    public var variant: String
    /// The lowest note of the item (the root, or the tonic for a degree), MIDI.
    public var base: Int
    public var phrases: [[Double]]
    public var together: Bool

    /// An interval or chord on a root drawn from `roots`; the top note stays within two
    /// octaves of it.
    public static func identify(
        number: Int, drill: EarDrill, item: String, roots: ClosedRange<Int>, directions: [String],
        rng: inout SeededGenerator, hz: (Int) -> Double = EarItems.hz
    ) -> EarTrialPlan {
        let root = Int.random(in: roots, using: &rng)
        if drill == .chords {
            let shape = EarItems.chords.first { $0.name == item }!.semitones
            return EarTrialPlan(
                number: number, drill: drill, item: item, variant: "root", base: root,
                phrases: [shape.map { hz(root + $0) }], together: true)
        }
        let width = EarItems.intervalNames.firstIndex(of: item)! + 1
        let direction = directions.randomElement(using: &rng)!
        let notes = [hz(root), hz(root + width)]
        return EarTrialPlan(
            number: number, drill: drill, item: item, variant: direction, base: root,
            phrases: [direction == "down" ? notes.reversed() : notes], together: direction == "harmonic")
    }

    /// A degree of the major key on `tonic` (MIDI), after the cadence I-IV-V-I or, with `drone`,
    /// with the tonic and fifth an octave below (alone, then under the note); the note lies
    /// within the octave above the tonic. `hz` gives a key's pitch (a tuning's, or equal temperament).
    public static func degree(
        number: Int, degree: String, tonic: Int, drone: Bool, hz: (Int) -> Double = EarItems.hz
    ) -> EarTrialPlan {
        let name = EarItems.keyNames[tonic % 12]
        func triad(_ step: Int) -> [Double] { [0, 2, 4].map { hz(tonic + scale(step + $0)) } }
        let note = hz(tonic + scale(Int(degree)! - 1))
        // The drone sounds alone, then again under the note: the note is heard against the key.
        let held = [hz(tonic - 12), hz(tonic - 5)]
        let phrases = drone ? [held, held + [note]] : [triad(0), triad(3), triad(4), triad(0), [note]]
        return EarTrialPlan(
            number: number, drill: .degrees, item: degree, variant: name, base: tonic, phrases: phrases, together: true)
    }

    /// Semitones above the tonic of scale step `step` (0 the tonic; 7 the octave).
    static func scale(_ step: Int) -> Int { 12 * (step / 7) + EarItems.major[step % 7] }
}
