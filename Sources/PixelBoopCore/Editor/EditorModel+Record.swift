import Glibc

/// Live recording (`*`): notes played while the loop runs land where they were heard, as a
/// DAW's MIDI record and the Polyend Tracker's live record place them.
public struct LiveRecording: Sendable, Equatable {
    /// Quantize strength in percent: 100 puts a note on its step, 0 keeps the played offset as the
    /// note's micro-timing, and between moves it that share of the way to the step.
    public var strength = 100
    /// Replace: a pass that records a note on a track first clears that track of the pattern
    /// (a pass with no notes leaves it alone); overdub (the default) adds to what is there.
    public var replace = false
    /// The metronome, which clicks on each beat while recording and through the count-in, and its
    /// level in percent.
    public var click = true
    public var clickLevel = 50
    public internal(set) var armed = false
    /// Notes recorded since `*` armed it, and the passes that took any.
    public internal(set) var notes = 0
    public internal(set) var passes = 0

    /// The pass (`PlayedPosition.pass`) being recorded, the undo depth its one undo step left,
    /// and the tracks it has cleared (replace).
    var pass: Int?
    var undoDepth = 0
    var cleared: Set<TrackKind> = []
    /// Keys down, by key and channel (16: a sung note): where their notes were placed, for their
    /// note-offs.
    var held: [Int: Held] = [:]

    struct Held: Sendable, Equatable {
        /// Where the music was when the key went down (its pattern and the step's length).
        var played: PlayedPosition
        var track: TrackKind
        /// The note placed: its step in the track and its pitch, which its note-off finds it by.
        var step: Int
        var pitch: Int
        var frame: UInt64
    }

    public static let countInBeats = 4
    public static let clickLevels = 0...100

    /// The status line's word for it ("REC q100 overdub click 50%").
    public var summary: String {
        "REC q\(strength) \(replace ? "replace" : "overdub") " + (click ? "click \(clickLevel)%" : "click off")
    }

    /// The metronome's gain while recording (nil: silent).
    public var clickGain: Float? { click && clickLevel > 0 ? Float(clickLevel) / 100 : nil }

    /// A played offset (steps) after quantizing at `strength`, on a grid of 1/1000 step (what
    /// the file keeps), inside `SongNote.offsets`.
    public func quantized(_ offset: Double) -> Double {
        let kept = (offset * Double(100 - strength) / 100 * 1000).rounded() / 1000
        return min(max(kept, SongNote.offsets.lowerBound), 0.499)
    }
}

extension EditorModel {
    /// `*`: arms recording, or ends it (notes still held keep the length they have).
    public mutating func toggleRecording() {
        if recording.armed {
            recording.armed = false
            recording.held.removeAll()
            recording.pass = nil
            let took = recording.notes
            message =
                took == 0
                ? "recording off: nothing recorded"
                : "recording off: \(counted(took, "note")) in \(counted(recording.passes, "pass")) (u undoes a pass)"
            return
        }
        recording.armed = true
        (recording.notes, recording.passes, recording.pass) = (0, 0, nil)
        recording.held.removeAll()
    }

    /// A note played while recording, heard at `position` (nil: outside the music, as during the
    /// count-in) on engine frame `frame`. Returns the note to sound (nil for a note-off or a key
    /// the track cannot take). Drums on channel 10 go to the rhythm track by key, anything else
    /// to the track under the cursor.
    public mutating func record(_ played: PlayedNote, at position: PlayedPosition?, frame: UInt64) -> SongNote? {
        let key = played.pitch * 32 + played.channel
        guard played.on else {
            if let held = recording.held.removeValue(forKey: key) { release(held, at: frame) }
            return nil
        }
        let kind: TrackKind = played.isDrum ? .rhythm : track
        let sounded = SongNote(step: step, pitch: played.pitch, velocity: .level(max(1, played.velocity)), length: 1)
        guard let position else {
            message = "\(NoteName(midi: played.pitch)) came before the first step: not recorded"
            return sounded
        }
        let pattern = song.patterns[position.pattern]
        let transpose = kind == .rhythm ? 0 : song.chain[position.entry].transpose
        let pitch = played.pitch - transpose
        let range = PitchRange.useful(kind, song.instrument(kind))
        let takes = kind == .rhythm ? DrumLane.name(forKey: pitch) != nil : range.contains(pitch)
        guard takes, Limits.midiNote.contains(pitch) else {
            message =
                kind == .rhythm
                ? "key \(pitch) has no drum lane: not recorded"
                : "\(NoteName(midi: played.pitch)) is outside the \(kind.rawValue)'s range: not recorded"
            return nil
        }
        let at = position.entryStep % pattern.length(of: kind)
        let note = SongNote(
            step: at, pitch: pitch, velocity: .level(max(1, played.velocity)), length: 1,
            offset: recording.quantized(position.offset))
        recordEdit(pass: position.pass, pattern: position.pattern, kind: kind) { notes in
            notes.removeAll { $0.step == at && $0.pitch == pitch }
            // An earlier note of the key still sounding here ends where this one starts.
            for i in notes.indices where notes[i].pitch == pitch && notes[i].step < at && notes[i].step + notes[i].length > at {
                notes[i].length = at - notes[i].step
            }
            notes.append(note)
            notes.sort { ($0.step, $0.pitch) < ($1.step, $1.pitch) }
        }
        recording.held[key] = LiveRecording.Held(played: position, track: kind, step: at, pitch: pitch, frame: frame)
        recording.notes += 1
        message = nil
        return sounded
    }

    /// A key up: its note lasts the steps it was held (at least one, at most to the track's end).
    private mutating func release(_ held: LiveRecording.Held, at frame: UInt64) {
        guard held.played.pattern < song.patterns.count else { return }
        let own = song.patterns[held.played.pattern].length(of: held.track)
        let steps = Double(frame > held.frame ? frame - held.frame : 0) / held.played.framesPerStep
        let length = min(max(1, Int(steps.rounded())), own - held.step)
        guard length > 1 else { return }
        let pass = recording.pass ?? -1
        recordEdit(pass: pass, pattern: held.played.pattern, kind: held.track, clearing: false) { notes in
            guard let i = notes.firstIndex(where: { $0.step == held.step && $0.pitch == held.pitch }) else { return }
            // A later note of the key, recorded meanwhile, bounds it.
            let next = notes.filter { $0.pitch == held.pitch && $0.step > held.step }.map(\.step).min() ?? own
            notes[i].length = min(length, next - held.step)
            notes[i].ratchet = 1
        }
    }

    /// Changes one track of one pattern as part of pass `pass`'s single undo step: the first
    /// change of a pass (or the first after any other edit) takes the snapshot; replace clears
    /// the track at the pass's first note on it.
    private mutating func recordEdit(
        pass: Int, pattern i: Int, kind: TrackKind, clearing: Bool = true, _ change: (inout [SongNote]) -> Void
    ) {
        if recording.pass != pass || undoStack.count != recording.undoDepth || undoStack.isEmpty {
            if recording.pass != pass {
                recording.cleared.removeAll()
                recording.passes += 1
            }
            pushUndo()
            recording.pass = pass
            recording.undoDepth = undoStack.count
        }
        var notes = song.patterns[i].tracks[kind] ?? []
        if clearing && recording.replace && !recording.cleared.contains(kind) {
            notes.removeAll()
            recording.cleared.insert(kind)
        }
        change(&notes)
        song.patterns[i].tracks[kind] = notes.isEmpty ? nil : notes
    }

    /// `%`: the quantize strength, 0 ... 100.
    public mutating func setQuantizeStrength(_ percent: Int) {
        recording.strength = min(100, max(0, percent))
        message =
            "quantize \(recording.strength)%: " + (recording.strength == 100 ? "notes on their steps" : "played timing kept")
    }

    /// `&`: overdub or replace.
    public mutating func toggleRecordReplace() {
        recording.replace.toggle()
        message =
            recording.replace
            ? "replace: a pass that records on a track clears it first" : "overdub: recorded notes are added to the pattern"
    }

    /// `!`: the metronome on or off; `@` sets its level.
    public mutating func toggleClick() {
        recording.click.toggle()
        message = recording.click ? "metronome on (\(recording.clickLevel)%)" : "metronome off"
    }

    public mutating func setClickLevel(_ percent: Int) {
        recording.clickLevel = min(100, max(0, percent))
        recording.click = recording.clickLevel > 0
        message = "metronome \(recording.clickLevel)%"
    }
}
