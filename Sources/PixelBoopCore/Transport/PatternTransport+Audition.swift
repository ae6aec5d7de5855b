import Glibc

/// Tap-to-sound: a note sounded at once, ahead of anything queued, on the track's instrument,
/// and released by the scheduling thread when its gate is over.
extension PatternTransport {
    /// Sounds one note now, ahead of anything queued (tap-to-sound: the next engine block), for
    /// `gate` seconds; a drum for the rhythm track. Works whether or not the loop plays.
    public func audition(pitch: Int, track: TrackKind, velocity: Velocity, gate: Double = 0.25) throws(AudioError) {
        try openSound()
        try sync.locked { (s: inout Shared) throws(AudioError) -> Void in
            try s.audition(pitch: pitch, track: track, velocity: velocity, gate: gate)
        }
        sync.wake()   // the release is due at the end of the gate
    }

    /// Tap-to-sound (`edit -v`): the engine notes when it has rendered the block after `frame`
    /// (the block holding an audition's first sample), read later with `renderedPast`.
    public func markTap(frame: UInt64) { sync.locked { _ = $0.engine.mark(frame: frame) } }
    /// When (CLOCK_MONOTONIC seconds) the engine finished rendering past `frame`, nil until it has.
    public func renderedPast(frame: UInt64) -> Double? { sync.locked { $0.engine.mark(frame: frame) } }
}

extension PatternTransport.Shared {
    mutating func audition(pitch: Int, track: TrackKind, velocity: Velocity, gate: Double) throws(AudioError) {
        if track == .rhythm {
            if let inst = mix[.rhythm] {
                try engine.schedule(
                    SongEvent(
                        frame: AudioEngine.now, action: .drum(key: pitch, gain: velocity.gain * Float(inst.level), kit: inst.kit),
                        step: 0))
            } else {
                try engine.drumHit(key: pitch, velocity: velocity, at: AudioEngine.now)
            }
            return
        }
        let id = nextAuditionID
        nextAuditionID = nextAuditionID == UInt32.max ? PatternTransport.auditionIDs : nextAuditionID + 1
        // A note placed is heard in the song's tuning, as the loop will play it.
        let tuning = sequencer.song.tuning?.keys
        if let inst = mix[track] {
            let gain = velocity.gain * Float(inst.level)
            try engine.schedule(
                SongEvent(
                    frame: AudioEngine.now,
                    action: .noteOn(track: track, pitch: pitch, gain: gain, id: id, instrument: !inst.isClassic),
                    step: 0),
                tuning: tuning)
        } else {
            let hz = tuning.map { $0.hz(key: pitch) ?? 0 } ?? Pitch.frequency(midi: Double(pitch))
            guard hz > 0 else { return }
            try engine.noteOn(id: id, frequency: hz, gain: velocity.gain, at: AudioEngine.now, timbre: track.timbre ?? .melody)
        }
        // Kept in the order the gates end (a shorter gate may end before an earlier, longer one).
        auditions.add(
            [PatternTransport.AuditionRelease(frame: engine.frameClock + UInt64(gate * sampleRate), id: id)],
            order: { $0.frame < $1.frame })
    }

    mutating func releaseAuditions() throws(AudioError) {
        guard !auditions.isEmpty else { return }
        let engine = self.engine
        // A full immediate lane keeps the rest for a later step.
        try auditions.flush(before: engine.frameClock + 1) { release throws(AudioError) in
            try engine.releaseNote(NoteID(rawValue: release.id), at: AudioEngine.now)
        }
    }
}
