import Glibc

/// The pitches each tonal track is worth placing, from the sound's own numbers (docs/DESIGN.md,
/// the README's timbre table): nothing below 20 Hz is heard as a note (MIDI 16, E0 = 20.6 Hz, is the
/// lowest), and nothing more than an octave above the track's lowpass keeps its level (a second-order
/// Butterworth is -12 dB an octave above its cutoff and falls 12 dB an octave beyond; G9 on the
/// melody is -58 dB at 44.1 kHz). The lowpass is the track's instrument's (its `cutoff`, else its
/// voice's or its version-1 timbre's). Outside the range a note may be placed, with a hint.
public enum PitchRange {
    /// The lowest useful MIDI pitch: 20 Hz, the floor of hearing.
    public static let lowest = 16

    /// The track's lowpass cutoff in Hz (nil for rhythm, whose rows are drums): the instrument's
    /// (a version-1 timbre's: melody 2 kHz, chords 2.5 kHz, bass 900 Hz).
    public static func cutoff(_ kind: TrackKind, _ instrument: Instrument = Instrument()) -> Double? {
        kind == .rhythm ? nil : instrument.sound(for: kind).cutoff
    }

    /// The highest useful MIDI pitch: the last at or below twice the cutoff (melody B7 3951 Hz,
    /// chords D#8 4978 Hz, bass A6 1760 Hz).
    public static func highest(_ kind: TrackKind, _ instrument: Instrument = Instrument()) -> Int {
        guard let fc = cutoff(kind, instrument) else { return Limits.midiNote.upperBound }
        return min(Limits.midiNote.upperBound, Int((69 + 12 * log2(2 * fc / 440)).rounded(.down)))
    }

    public static func useful(_ kind: TrackKind, _ instrument: Instrument = Instrument()) -> ClosedRange<Int> {
        kind == .rhythm ? Limits.midiNote : lowest...highest(kind, instrument)
    }

    /// A short tag for the status line ("too low", "too high"), or nil inside the range.
    public static func tag(pitch: Int, kind: TrackKind, _ instrument: Instrument = Instrument()) -> String? {
        guard kind != .rhythm else { return nil }
        if pitch < lowest { return "too low" }
        if pitch > highest(kind, instrument) { return "too high" }
        return nil
    }

    /// One line saying why, or nil inside the range.
    public static func hint(pitch: Int, kind: TrackKind, _ instrument: Instrument = Instrument()) -> String? {
        guard let fc = cutoff(kind, instrument) else { return nil }
        let top = highest(kind, instrument)
        let hz = 440 * pow(2, Double(pitch - 69) / 12)
        let name = NoteName(midi: pitch).description
        let freq = hz < 100 ? String(cFormat: "%.1f Hz", hz) : String(cFormat: "%.0f Hz", hz)
        if pitch < lowest {
            return
                "\(name) (\(freq)) is below hearing (20 Hz): useful \(kind.rawValue) notes are \(NoteName(midi: lowest))–\(NoteName(midi: top))"
        }
        if pitch > top {
            return "\(name) (\(freq)) is far above the \(kind.rawValue)'s \(String(cFormat: "%g", fc / 1000)) kHz lowpass: "
                + "useful notes are \(NoteName(midi: lowest))–\(NoteName(midi: top))"
        }
        return nil
    }
}
