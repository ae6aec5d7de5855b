import ArgumentParser
import Glibc
import PixelBoopCore

struct TrainIdentifyCommand: ParsableCommand, EarSessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "identify",
        abstract: "Interval and chord identification: name what was played.",
        discussion: """
            Each trial plays an interval (m2 ... P8; up, down or both notes together, --directions) \
            or, with --chords, a root-position chord (maj, min, dim, aug, dom7, maj7, min7). Answer \
            with the key shown before its name; r replays, q ends (the trial in progress is not \
            stored). Each answer is said right or wrong with the right answer, and stored at once. \
            The next item is drawn from the history by spaced repetition (Leitner boxes): an item \
            missed comes back soonest, with the item named in its place; one answered right \
            several times running is asked less. --json prints {"trial","drill","variant", \
            "together","phrases_hz","choices"} and reads an item's name or quit; at the end \
            {"trials","right","accuracy","items"}. --scl FILE [--kbm FILE] sounds every note at its \
            key's pitch in that Scala tuning (an interval is then its keys apart in the tuning).
            """)

    @Flag(name: .long, help: "Chords instead of intervals.")
    var chords = false

    @Option(name: .long, help: "How intervals are played: a list of up, down, harmonic (default all three).")
    var directions: String = "up,down,harmonic"

    @Option(name: .long, help: "Lowest notes (roots): LOW..HIGH (default C4..C5).")
    var range: String?

    @OptionGroup var session: EarSessionOptions

    @OptionGroup var tuningOptions: TuningOptions

    static let sessionDefaults = (trials: 30, duration: 0.7)

    mutating func validate() throws {
        _ = try directionList()
        if chords && directions != "up,down,harmonic" {
            throw ValidationError("--directions: for intervals only (a chord's notes sound together)")
        }
        _ = try TrainingNotes.range(range, fallback: 60...72)
    }

    func directionList() throws -> [String] {
        let list = directions.split(separator: ",").map { String($0).trimmingWhitespace() }
        guard !list.isEmpty, list.allSatisfy(EarItems.directions.contains) else {
            throw ValidationError(
                "--directions \(OneLine.escape(directions)): expected a list of \(EarItems.directions.joined(separator: ", "))")
        }
        return list
    }

    func run() throws {
        runReportingErrors {
            let drill: EarDrill = chords ? .chords : .intervals
            let roots = try TrainingNotes.range(range, fallback: 60...72)
            let directions = chords ? ["root"] : try directionList()
            let pitch = try ReferencePitch(tuningOptions)
            try pitch.check(keys: roots.lowerBound...(roots.upperBound + 12), option: "--range")
            let settings: [String: Any] = [
                "drill": drill.rawValue, "directions": directions.joined(separator: ","), "range": range ?? "C4..C5"
            ]
            try runIdentification(drill, .identify, labels: drill.items, pitch: pitch, settings: settings) {
                number, item, rng in
                EarTrialPlan.identify(
                    number: number, drill: drill, item: item, roots: roots, directions: directions, rng: &rng, hz: pitch.hz)
            }
        }
    }
}

struct TrainDegreesCommand: ParsableCommand, EarSessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "degrees",
        abstract: "Scale degrees: a cadence or a drone sets a major key; name the degree of the note played.",
        discussion: """
            Each trial plays the cadence I-IV-V-I in a key (random each trial, or --key), then one \
            note of the scale within the octave above the tonic (with --drone: the tonic and fifth \
            an octave below, alone, then again under the note); name its degree with 1-7 (shown as do re mi fa sol la ti \
            with --solfege). r replays, q ends (the trial in progress is not stored). Items are \
            scheduled and stored as in `train identify`; --json as there, answering 1-7 or the \
            solfège name; --scl/--kbm as there.
            """)

    @Option(name: .long, help: "The key: C, C#, D, Eb, E, F, F#, G, Ab, A, Bb or B (default: a random key per trial).")
    var key: String?

    @Flag(name: .long, help: "The tonic and fifth an octave below, alone and then under the note, instead of the cadence.")
    var drone = false

    @Flag(name: .long, help: "Name degrees by solfège (do re mi fa sol la ti).")
    var solfege = false

    @OptionGroup var session: EarSessionOptions

    @OptionGroup var tuningOptions: TuningOptions

    static let sessionDefaults = (trials: 30, duration: 0.6)

    mutating func validate() throws {
        _ = try tonic()
    }

    /// The key's tonic in octave 4 (MIDI 60...71), nil for a random key per trial.
    func tonic() throws -> Int? {
        guard let key else { return nil }
        let spellings = ["C#": "Db", "Eb": "D#", "F#": "Gb", "Ab": "G#", "Bb": "A#"]
        guard
            let i = EarItems.keyNames.firstIndex(where: {
                $0.lowercased() == key.lowercased() || spellings[$0]?.lowercased() == key.lowercased()
            })
        else {
            throw ValidationError("--key \(OneLine.escape(key)): expected one of \(EarItems.keyNames.joined(separator: ", "))")
        }
        return 60 + i
    }

    func run() throws {
        runReportingErrors {
            let fixed = try tonic()
            let pitch = try ReferencePitch(tuningOptions)
            // The drone an octave below the lowest tonic, up to the octave above the highest.
            try pitch.check(keys: (fixed ?? 60) - 12...(fixed ?? 71) + 12, option: key == nil ? "a random key" : "--key")
            let settings: [String: Any] = ["key": key ?? "random", "drone": drone, "solfege": solfege]
            let drone = drone
            let labels = solfege ? EarItems.solfege : EarDrill.degrees.items
            try runIdentification(.degrees, .degrees, labels: labels, pitch: pitch, settings: settings) {
                number, item, rng in
                let tonic = fixed ?? Int.random(in: 60...71, using: &rng)
                return EarTrialPlan.degree(number: number, degree: item, tonic: tonic, drone: drone, hz: pitch.hz)
            }
        }
    }
}

extension EarSessionCommand {
    /// An identification session of this exercise (`identify`, `degrees`): stored with the
    /// exercise's own `settings`, the session's trials, duration and seed, and the tuning's files.
    func runIdentification(
        _ drill: EarDrill, _ exercise: TrainingExercise, labels: [String], pitch: ReferencePitch,
        settings: [String: Any], plan: @escaping (_ number: Int, _ item: String, _ rng: inout SeededGenerator) -> EarTrialPlan
    ) throws {
        let seed = session.seedOrDrawn()
        let stored = settings.merging(["trials": trials, "duration": duration, "seed": seed]) { a, _ in a }
            .merging(pitch.settings) { a, _ in a }
        let ear = EarSessionSettings(
            drill: drill, exercise: exercise, command: self, seed: seed, labels: labels,
            settingsJSON: JSONText.encode(stored) ?? "", plan: plan)
        try EarSessionRunner.run(ear)
    }
}
