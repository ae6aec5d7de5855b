import Glibc

/// Piano mode (`K`): notes typed from the computer keyboard as in a tracker (Schism Tracker,
/// FastTracker 2 and the Polyend Tracker lay the keys out the same way): `z s x d c v g b h n j m ,`
/// play an octave from C, `q 2 w 3 e r 5 t 6 y 7 u i` the octave above. Each typed note is placed
/// at the cursor with the remembered velocity and length, heard at once, and the cursor moves on
/// by the step set; with chord on, it stays so that several notes land on one step.
public struct PianoEntry: Sendable, Equatable {
    /// The octave of the lower row's C (4: `z` is C4).
    public var octave = 4
    /// The length of each placed note in steps, 1 ... 16.
    public var length = 1
    /// Steps the cursor moves on after a note (0 ... 16; 0 stays).
    public var advance = 1
    /// Chord: the cursor stays on its step until chord is turned off (then it moves on).
    public var chord = false

    public static let octaves = 0...8
    public static let lengths = 1...16
    public static let advances = 0...16

    /// Semitones above the lower row's C, for each key of the two rows.
    public static let keys: [Character: Int] = {
        var map: [Character: Int] = [:]
        for (i, c) in "zsxdcvgbhnjm,".enumerated() { map[c] = i }
        for (i, c) in "q2w3er5t6y7ui".enumerated() { map[c] = 12 + i }
        return map
    }()

    public var summary: String {
        "piano \(NoteName(midi: (octave + 1) * 12)) len \(length) +\(advance)" + (chord ? " chord" : "")
    }
}

extension EditorModel {
    /// `K` on, Esc (or `K`) off.
    public mutating func togglePiano() {
        piano = piano == nil ? PianoEntry() : nil
        message =
            piano == nil
            ? "piano mode off (K: on)"
            : "piano: z s x d c … and q 2 w 3 e … play notes; - = octave, [ ] length, 9 0 step, / chord, Esc off"
    }

    /// A key of the piano rows: the note placed at the cursor (or re-struck there) and returned to
    /// be heard; nil with a message when the track cannot take it.
    @discardableResult
    public mutating func pianoNote(_ key: Character) -> SongNote? {
        guard let entry = piano, let semitones = PianoEntry.keys[key] else { return nil }
        let pitch: Int
        if track == .rhythm {
            // On the rhythm track the keys walk the drum lanes, kick first.
            guard DrumLane.all.indices.contains(semitones) else { return nil }
            pitch = DrumLane.all[semitones].key
        } else {
            pitch = (entry.octave + 1) * 12 + semitones
        }
        guard let row = row(ofPitch: pitch), keyboardRange.contains(pitch) else {
            message = "\(NoteName(midi: pitch)) is outside the \(track.rawValue)'s range: not placed"
            return nil
        }
        rows[track] = row
        let length = min(entry.length, songPattern.length - step)
        let at = step
        let kind = track
        let velocity = self.velocity
        editPattern { p in
            var notes = p.tracks[kind, default: []]
            notes.removeAll { $0.pitch == pitch && $0.step <= at && at < $0.step + $0.length }
            notes.append(SongNote(step: at, pitch: pitch, velocity: velocity, length: length))
            notes.sort { ($0.step, $0.pitch) < ($1.step, $1.pitch) }
            p.tracks[kind] = notes
        }
        if !entry.chord { move(steps: entry.advance) }
        return SongNote(step: at, pitch: pitch, velocity: velocity, length: length)
    }

    /// `-` `=`: the lower row's octave; `[` `]`: the length of placed notes; `9` `0`: the step the
    /// cursor moves on by.
    public mutating func changePiano(octave: Int = 0, length: Int = 0, advance: Int = 0) {
        guard var entry = piano else { return }
        entry.octave = min(max(entry.octave + octave, PianoEntry.octaves.lowerBound), PianoEntry.octaves.upperBound)
        entry.length = min(max(entry.length + length, PianoEntry.lengths.lowerBound), PianoEntry.lengths.upperBound)
        entry.advance = min(max(entry.advance + advance, PianoEntry.advances.lowerBound), PianoEntry.advances.upperBound)
        piano = entry
        message = entry.summary
    }

    /// `/`: chord on (the cursor stays) or off (it moves on by the step, past the chord).
    public mutating func togglePianoChord() {
        guard var entry = piano else { return }
        entry.chord.toggle()
        piano = entry
        if !entry.chord { move(steps: max(entry.advance, 1)) }
        message = entry.chord ? "chord: typed notes stay on this step (/ moves on)" : entry.summary
    }
}
