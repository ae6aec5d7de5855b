import Glibc
import PixelBoopCore

extension TrainMatchCommand {
    /// `--input`: every steady note of the recording heard first, then lined up with the references by
    /// pitch (`NoteAlignment`), so a note missing or added shifts nothing after it; a count that
    /// differs (or a note left over) is said on stderr, with what was left unsung or left over.
    func runRecording(_ wav: RecordingFile, recorder: MatchRecorder, pitch: ReferencePitch) throws {
        let tracker = try PitchTracker(sampleRate: wav.sampleRate)
        // A sound with no steady note in it (a cough, a breath, a blip) is set aside, as it is
        // live: it is no attempt, and must not be lined up with a reference.
        var notes: [Range<Int>] = []
        var pitches: [SungPitch?] = []
        for range in SungNotes.split(wav.samples, rate: wav.sampleRate) {
            guard let p = SungNotes.stablePitch(Array(wav.samples[range]), tracker: tracker) else { continue }
            notes.append(range)
            pitches.append(p)
        }
        let fixed = try fixedReferences()?.count
        let count = self.trials ?? fixed ?? max(1, notes.count)
        let refs = try referenceNotes(count: count)
        let sungInterval = interval.flatMap(SungInterval.init)
        let targets = refs.map { targetHz($0, pitch: pitch, interval: sungInterval) }
        let aligned = NoteAlignment.align(sung: pitches.map { $0?.frequency }, targets: targets)
        let missing = Set(aligned.sungFor.indices.filter { aligned.sungFor[$0] == nil })
        if notes.count != count || !missing.isEmpty || !aligned.extra.isEmpty {
            StandardError.line(mismatch(notes: notes, rate: wav.sampleRate, refs: refs, aligned: aligned))
        }
        // A reference left without a note is said as such, not as a note too unsteady to hear.
        try session(count: count, refs: refs, missing: missing, recorder: recorder, pitch: pitch) { k, _, _, announce in
            announce()
            return aligned.sungFor[k].flatMap { pitches[$0] }
        }
    }

    /// "sung.wav: 9 notes for 10 references, lined up by pitch: none for trial 5 (E4)".
    private func mismatch(notes: [Range<Int>], rate: Double, refs: [Int], aligned: NoteAlignment.Result) -> String {
        var parts: [String] = []
        let unsung = aligned.sungFor.indices.filter { aligned.sungFor[$0] == nil }
        if !unsung.isEmpty {
            parts.append("none for " + unsung.map { "trial \($0 + 1) (\(NoteName(midi: refs[$0])))" }.joined(separator: ", "))
        }
        if !aligned.extra.isEmpty {
            let list = aligned.extra.map { String(cFormat: "note %d at %.1f s", $0 + 1, Double(notes[$0].lowerBound) / rate) }
            parts.append("left over: " + list.joined(separator: ", "))
        }
        return "\(self.input ?? "--input"): \(TrainStatsCommand.count(notes.count, "note")) for "
            + "\(TrainStatsCommand.count(refs.count, "reference")), lined up by pitch: " + parts.joined(separator: "; ")
    }

    /// The pitch asked for at a reference note: the note itself (its pitch in the --scl tuning, or
    /// equal temperament on --reference), or the interval from it in equal or just intonation.
    func targetHz(_ midi: Int, pitch: ReferencePitch, interval: SungInterval?) -> Double {
        let tuning = SungInterval.Tuning(rawValue: self.tuning) ?? .equal
        return interval?.target(from: pitch.hz(midi), tuning: tuning) ?? pitch.hz(midi)
    }
}
