import ArgumentParser
import Glibc
import PixelBoopCore

/// What `train match` can measure, and the voice a history remembers.
extension TrainMatchCommand {
    /// Refuses a reference whose target the tracker cannot measure (`PitchTracker.voiceRange`):
    /// above it a note would be reported an octave low, below it not at all; and one the --kbm
    /// mapping leaves without a pitch. `intervals`: those that may be asked (nil: the note itself);
    /// `span` narrows a drawn range as `referenceNotes` does.
    func checkMeasurable(
        pitch: ReferencePitch, intervals: [SungInterval?], span: (up: Int, down: Int)? = nil
    ) throws {
        let limits = PitchTracker.voiceRange
        let notes: [(Int, String)]
        if let fixed = try fixedReferences() {
            notes = fixed.map { ($0, "--references") }
        } else {
            var r = try drawRange()
            if let span, r.count > span.up + span.down { r = (r.lowerBound + span.down)...(r.upperBound - span.up) }
            let option = self.voice != nil ? "--voice \(self.voice ?? "")" : "--range"
            // Every key a reference may be drawn from has a pitch in the tuning.
            try pitch.check(keys: r, option: option)
            notes = [(r.lowerBound, option), (r.upperBound, option)]
        }
        for (midi, option) in notes {
            try pitch.check(keys: midi...midi, option: option)
            for interval in intervals {
                let hz = targetHz(midi, pitch: pitch, interval: interval)
                guard !limits.contains(hz) else { continue }
                let low = PitchDetector.nearestNote(to: limits.lowerBound, reference: self.reference).name
                let high = PitchDetector.nearestNote(to: limits.upperBound, reference: self.reference).name
                let target =
                    interval == nil ? "" : " (target \(PitchDetector.nearestNote(to: hz, reference: self.reference).name))"
                throw BoopExit(
                    .usage,
                    String(
                        cFormat: "%@ %@%@: %.0f Hz, outside %.0f...%.0f Hz (%@...%@), the pitches the voice tracker measures",
                        option, NoteName(midi: midi).description, target, hz, limits.lowerBound, limits.upperBound, low,
                        high))
            }
        }
    }

    /// The voice of the latest session in the history that named one (`--voice`), when this one
    /// names no range of its own.
    func rememberedVoice(_ store: TrainingStore) -> String? {
        guard self.voice == nil, self.range == nil, self.references == nil else { return nil }
        guard let sessions = try? store.sessions() else { return nil }
        for s in sessions.reversed() where s.exercise == .match {
            let settings = (try? JSONReader.parse(Array(s.settings.utf8))) as? [String: Any]
            if let v = settings?["voice"] as? String, VoiceRange.ranges[v] != nil { return v }
        }
        return nil
    }
}
