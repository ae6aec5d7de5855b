import ArgumentParser
import PixelBoopCore

/// The notes the training commands take (`--range LOW..HIGH`, `--note`, `--references`): one
/// parser, one message for each mistake, whichever command it is given to.
enum TrainingNotes {
    /// The notes a trainer plays: C1 ... C8.
    static let playable = 24...108

    /// A note name as a MIDI number.
    static func note(_ text: String, _ option: String) throws -> Int {
        guard let n = NoteName(text.trimmingWhitespace()), playable.contains(n.midi) else {
            throw ValidationError("\(option) \(OneLine.escape(text)): expected a note C1...C8 such as A4 or C#5")
        }
        return n.midi
    }

    /// `LOW..HIGH` as MIDI numbers; `fallback` when the option was not given.
    static func range(_ text: String?, fallback: ClosedRange<Int>, option: String = "--range") throws -> ClosedRange<Int> {
        guard let text else { return fallback }
        let parts = text.parts(separatedBy: "..")
        guard parts.count == 2 else {
            throw ValidationError("\(option) \(OneLine.escape(text)): expected LOW..HIGH such as C4..C6")
        }
        let low = try note(parts[0], option)
        let high = try note(parts[1], option)
        guard low <= high else { throw ValidationError("\(option) \(OneLine.escape(text)): expected the low note first") }
        return low...high
    }
}
