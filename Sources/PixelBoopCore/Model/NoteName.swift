import CAudioEngine
import Glibc

// Pitch utilities for the ear-training tones: note names in both directions, cents
// suffixes, frequencies, and the validation every tone goes through. All arithmetic is Double.

extension Pitch {
    /// The frequencies a tone may have (inclusive): what people hear and speakers reproduce.
    public static let audibleRange: ClosedRange<Double> = Limits.toneHz

    /// Returns `frequency` when it is finite and within `audibleRange`, else throws
    /// `AudioError.invalidFrequency` with the value in its message. `source` (e.g. "C-1") names
    /// where the value came from.
    @discardableResult
    public static func validated(_ frequency: Double, source: String? = nil) throws(AudioError) -> Double {
        guard frequency.isFinite, audibleRange.contains(frequency) else {
            let from = source.map { " (\($0))" } ?? ""
            throw AudioError.invalidFrequency(
                "\(formatHz(frequency)) Hz\(from): expected a finite frequency within \(Limits.text(audibleRange)) Hz")
        }
        return frequency
    }

    /// MIDI + cents + reference -> Hz, validated (within `Limits.toneHz`, finite).
    public static func validFrequency(midi: Int, cents: Double = 0, reference: Double = 440) throws(AudioError) -> Double {
        try validated(
            frequency(midi: Double(midi), cents: cents, reference: reference),
            source: "MIDI \(midi)\(NoteSpec.centsSuffix(cents)) at A4 = \(formatHz(reference)) Hz")
    }

    /// The fractional MIDI number of a frequency (69 = `reference`).
    public static func midi(of frequency: Double, reference: Double = 440) -> Double {
        69.0 + 12.0 * log2(frequency / reference)
    }

    /// The nearest equal-tempered note to `frequency` and the distance from it in cents
    /// (-50 ..< +50; sharps spelled by default).
    public static func nearestNote(
        to frequency: Double, reference: Double = 440,
        preferFlats: Bool = false
    ) throws(AudioError) -> (note: NoteName, cents: Double) {
        try validated(frequency)
        let m = midi(of: frequency, reference: reference)
        var nearest = m.rounded()
        // Exactly half way rounds down, so the cents are always in -50 ..< +50.
        if nearest - m == -0.5 { nearest = m + 0.5 }
        let note = NoteName(midi: Int(nearest), preferFlats: preferFlats)
        let offset = Pitch.cents(from: Pitch.frequency(midi: nearest, reference: reference), to: frequency)
        return (note, offset)
    }

    /// A frequency printed with up to 10 significant digits, no trailing zeros ("440", "27.5").
    public static func formatHz(_ hz: Double) -> String {
        guard hz.isFinite else { return "\(hz)" }
        return String(cFormat: "%.10g", hz)
    }
}

/// A spelled note in scientific pitch notation: letter, accidental and octave (C4 = middle C =
/// MIDI 60, A4 = MIDI 69). The octave belongs to the letter, so `B#3` is MIDI 60 and `Cb4` is 59.
public struct NoteName: Hashable, Sendable, CustomStringConvertible {
    public enum Letter: String, CaseIterable, Sendable {
        case c = "C"
        case d = "D"
        case e = "E"
        case f = "F"
        case g = "G"
        case a = "A"
        case b = "B"

        /// Semitones above C.
        public var semitone: Int {
            switch self {
            case .c: return 0
            case .d: return 2
            case .e: return 4
            case .f: return 5
            case .g: return 7
            case .a: return 9
            case .b: return 11
            }
        }
    }

    /// The octaves a name may carry (C-1 is MIDI 0; B9 is the highest under 20 kHz).
    public static let octaves: ClosedRange<Int> = -1...9

    public let letter: Letter
    /// Semitones: -2 (double flat) ... +2 (double sharp).
    public let accidental: Int
    public let octave: Int

    public init(letter: Letter, accidental: Int = 0, octave: Int) {
        precondition((-2...2).contains(accidental), "accidental \(accidental): expected -2...2")
        self.letter = letter
        self.accidental = accidental
        self.octave = octave
    }

    /// The usual spelling of a MIDI number: sharps (`C#4`) or flats (`Db4`). The pitch-class names
    /// come from the engine's one table of note names (`boop_ambient_spelled_name`), which the
    /// ambient keys and chords are spelled from too.
    public init(midi: Int, preferFlats: Bool = false) {
        let pc = ((midi % 12) + 12) % 12
        let octave = (midi - pc) / 12 - 1
        let spelling = preferFlats ? BOOP_AMBIENT_SPELLING_FLATS : BOOP_AMBIENT_SPELLING_SHARPS
        // The table holds a letter and at most one accidental for every pitch class and spelling.
        let name = Array(String(cString: boop_ambient_spelled_name(Int32(pc), Int32(spelling.rawValue))).utf8)
        let letter = Letter(rawValue: String(UnicodeScalar(name[0])))!
        let accidental = name.count < 2 ? 0 : name[1] == UInt8(ascii: "#") ? 1 : -1
        self.init(letter: letter, accidental: accidental, octave: octave)
    }

    /// Parses a bare name such as `A4`, `C#5`, `Bb2`, `E#3`, `Cbb4`, `F##3`, `C-1` (no cents, no
    /// spaces). Letters may be lower case; `♯`/`♭` are accepted for `#`/`b`.
    public init?(_ text: String) {
        var scanner = NoteScanner(text)
        guard let name = scanner.noteName(), scanner.atEnd else { return nil }
        self = name
    }

    /// MIDI number (may lie outside 0...127 for names at the edges, e.g. `B#9`).
    public var midi: Int { (octave + 1) * 12 + letter.semitone + accidental }

    public var description: String {
        let acc: String
        switch accidental {
        case -2: acc = "bb"
        case -1: acc = "b"
        case 1: acc = "#"
        case 2: acc = "##"
        default: acc = ""
        }
        return "\(letter.rawValue)\(acc)\(octave)"
    }
}

/// One NOTE of `boop tone`: a spelled note with optional cents (`A4`, `C4+12.5c`, `Bb2-3c`) or a
/// frequency (`440Hz`, `440.5hz`).
public enum NoteSpec: Hashable, Sendable, CustomStringConvertible {
    case note(NoteName, cents: Double)
    case frequency(Double)

    /// What a NOTE may be, for error messages.
    public static let accepted =
        "expected a note name A-G with optional #/b and an octave (A4, C#5, Bb2), optionally "
        + "with cents (A4+12.5c, C4-3c), or a frequency in Hz (440Hz, 440.5hz), all within \(Limits.text(Limits.toneHz)) Hz"

    /// Parses one NOTE. Throws `NoteParseError` (the text does not spell a note) or
    /// `AudioError.invalidFrequency` (a frequency outside `Limits.toneHz`).
    public static func parse(_ text: String) throws -> NoteSpec {
        var scanner = NoteScanner(text)
        if let hz = scanner.frequency() {
            guard scanner.atEnd else { throw NoteParseError(text: text) }
            try Pitch.validated(hz)
            return .frequency(hz)
        }
        scanner = NoteScanner(text)
        guard let name = scanner.noteName() else { throw NoteParseError(text: text) }
        var cents = 0.0
        if !scanner.atEnd {
            guard let c = scanner.cents(), scanner.atEnd else { throw NoteParseError(text: text) }
            cents = c
        }
        return .note(name, cents: cents)
    }

    /// The frequency in Hz: notes as `reference x 2^((midi - 69)/12) x 2^((cents + extraCents)/1200)`,
    /// frequencies shifted by `extraCents`. Throws `AudioError.invalidFrequency` outside `Limits.toneHz`.
    public func frequency(reference: Double = 440, extraCents: Double = 0) throws(AudioError) -> Double {
        switch self {
        case .note(let name, let cents):
            let total = cents + extraCents
            return try Pitch.validated(
                Pitch.frequency(midi: Double(name.midi), cents: total, reference: reference),
                source: "\(name)\(NoteSpec.centsSuffix(total)) at A4 = \(Pitch.formatHz(reference)) Hz")
        case .frequency(let hz):
            if extraCents == 0 { return try Pitch.validated(hz) }
            return try Pitch.validated(
                hz * pow(2.0, extraCents / 1200.0),
                source: "\(Pitch.formatHz(hz))Hz\(NoteSpec.centsSuffix(extraCents))")
        }
    }

    /// The canonical spelling, which parses back to the same value: `A4`, `C#4+12.5c`, `440.5Hz`.
    public var description: String {
        switch self {
        case .note(let name, let cents): return "\(name)\(NoteSpec.centsSuffix(cents))"
        case .frequency(let hz): return "\(Pitch.formatHz(hz))Hz"
        }
    }

    /// "" for 0, else `+12.5c` / `-3c` (shortest exact decimal).
    static func centsSuffix(_ cents: Double) -> String {
        if cents == 0 { return "" }
        var digits = "\(abs(cents))"
        if digits.contains("e") {
            // Our grammar has no exponents: spell tiny or huge values out in full.
            digits = String(cFormat: "%.17f", abs(cents))
            while digits.hasSuffix("0") { digits.removeLast() }
        }
        if digits.hasSuffix(".0") { digits.removeLast(2) }
        if digits.hasSuffix(".") { digits.removeLast() }
        return (cents < 0 ? "-" : "+") + digits + "c"
    }
}

/// A NOTE that spells nothing we know.
public struct NoteParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public let text: String
    public var description: String { "note \"\(text)\": \(NoteSpec.accepted)" }
}

/// Hand-written scanner: the grammar is tiny, and a regex would accept things like "nan" or
/// "1e400" through Double's own parser.
private struct NoteScanner {
    private let chars: [Character]
    private var i = 0

    init(_ text: String) { chars = Array(text) }

    var atEnd: Bool { i == chars.count }

    private func peek(_ k: Int = 0) -> Character? { i + k < chars.count ? chars[i + k] : nil }

    /// Letter, up to two like accidentals, octave -1...9.
    mutating func noteName() -> NoteName? {
        guard let ch = peek(), let letter = NoteName.Letter(rawValue: ch.uppercased()) else { return nil }
        i += 1
        var accidental = 0
        while let ch = peek(), abs(accidental) < 2 {
            if ch == "#" || ch == "♯" {
                if accidental < 0 { return nil }
                accidental += 1
            } else if ch == "b" || ch == "♭" {
                if accidental > 0 { return nil }
                accidental -= 1
            } else {
                break
            }
            i += 1
        }
        var negative = false
        if peek() == "-", let next = peek(1), next.isASCII, next.isWholeNumber {
            negative = true
            i += 1
        }
        guard let digit = peek(), digit.isASCII, let value = digit.wholeNumberValue else { return nil }
        i += 1
        // One digit only: "A10" is not a note we can hear; "A4" and "C-1" are.
        if let more = peek(), more.isASCII, more.isWholeNumber { return nil }
        let octave = negative ? -value : value
        guard NoteName.octaves.contains(octave) else { return nil }
        return NoteName(letter: letter, accidental: accidental, octave: octave)
    }

    /// Unsigned decimal: 12, 12.5, .5, 12.
    private mutating func decimal() -> Double? {
        let start = i
        var sawDigit = false
        while let ch = peek(), ch.isASCII, ch.isWholeNumber {
            i += 1
            sawDigit = true
        }
        if peek() == "." {
            i += 1
            while let ch = peek(), ch.isASCII, ch.isWholeNumber {
                i += 1
                sawDigit = true
            }
        }
        guard sawDigit, let value = Double(String(chars[start..<i])) else {
            i = start
            return nil
        }
        return value
    }

    /// `+12.5c` or `-3c`.
    mutating func cents() -> Double? {
        guard let sign = peek(), sign == "+" || sign == "-" else { return nil }
        i += 1
        guard let value = decimal(), peek() == "c" else { return nil }
        i += 1
        return sign == "-" ? -value : value
    }

    /// `440Hz`, `440.5hz` (the unit in any case).
    mutating func frequency() -> Double? {
        guard let value = decimal() else { return nil }
        guard i + 2 == chars.count, String(chars[i...]).lowercased() == "hz" else { return nil }
        i += 2
        return value
    }
}
