import Glibc

extension EditorModel {
    /// Played velocities at or above this are placed as accents, those below as normal notes (a
    /// firm strike on most keyboards reaches 100; a normal touch sits around 64 ... 90).
    public static let accentVelocity = 100

    public static func velocity(played: Int) -> Velocity { played >= accentVelocity ? .accent : .normal }

    /// `i`: step entry on or off. Off, played notes only sound; on, they are placed at the cursor.
    public mutating func toggleStepEntry() {
        stepEntry.toggle()
        chordKeys.removeAll()
        chordStep = nil
        message = stepEntry ? "step entry: played notes are placed at the cursor (i: off)" : "step entry off (i: on)"
    }

    /// A note from the keyboard on the current track. Returns the note to sound (the played key
    /// is always heard, placed or not), or nil for a note-off or a key the track cannot take.
    /// With step entry on, a note-on is placed at the cursor with its velocity (one undo step
    /// each); keys pressed while another key of the same group is still held land on the same
    /// step as a chord, and once the group's keys are all up the cursor moves on one step.
    public mutating func play(_ played: PlayedNote) -> SongNote? {
        guard played.on else {
            release(played.pitch)
            return nil
        }
        guard let row = row(ofPitch: played.pitch), keyboardRange.contains(played.pitch) else {
            message = refusal(played.pitch)
            return nil
        }
        let velocity = EditorModel.velocity(played: played.velocity)
        let sounded = SongNote(step: step, pitch: played.pitch, velocity: velocity, length: 1)
        guard stepEntry else { return sounded }
        let at = chordStep ?? step
        chordStep = at
        chordKeys.insert(played.pitch)
        rows[track] = row
        enter(pitch: played.pitch, velocity: velocity, onStep: at)
        return sounded
    }

    /// Whether a played key sounds now (a keyboard that sounds by itself, on JACK, is told): any
    /// key while a question or a typed line waits (it is only heard), else one `play` takes.
    public func soundsKey(_ pitch: Int) -> Bool {
        if question != nil || prompt != nil { return true }
        return row(ofPitch: pitch) != nil && keyboardRange.contains(pitch)
    }

    /// The pitches the current track takes from the keyboard: its useful range, or a drum's key.
    var keyboardRange: ClosedRange<Int> { PitchRange.useful(track, song.instrument(track)) }

    private func refusal(_ pitch: Int) -> String {
        let name = NoteName(midi: pitch).description
        if track == .rhythm { return "key \(pitch) (\(name)) has no drum lane: played notes not taken" }
        let range = keyboardRange
        return "\(name) is outside the \(track.rawValue)'s range "
            + "\(NoteName(midi: range.lowerBound))–\(NoteName(midi: range.upperBound)): not taken"
    }

    /// Places (or re-strikes: the velocity of a note starting there changes) one played note.
    private mutating func enter(pitch: Int, velocity: Velocity, onStep at: Int) {
        let kind = track
        if let covering = note(at: at, pitch: pitch, in: kind), covering.step != at {
            message = "\(NoteName(midi: pitch)) is held over step \(at + 1) by an earlier note: not placed"
            return
        }
        editPattern { p in
            var notes = p.tracks[kind, default: []]
            if let i = notes.firstIndex(where: { $0.step == at && $0.pitch == pitch }) {
                notes[i].velocity = velocity
            } else {
                notes.append(SongNote(step: at, pitch: pitch, velocity: velocity, length: 1))
                notes.sort { ($0.step, $0.pitch) < ($1.step, $1.pitch) }
            }
            p.tracks[kind] = notes
        }
    }

    /// A key up: the last key of a step-entry group up moves the cursor one step on (wrapping).
    private mutating func release(_ pitch: Int) {
        guard chordKeys.remove(pitch) != nil, chordKeys.isEmpty, let at = chordStep else { return }
        chordStep = nil
        step = at
        move(steps: 1)
    }
}
