import Glibc

// A held note under the singer (`train match --drone`): started and released at the engine's
// clock (plus the usual horizon), outside the sequence scheduler, so it sounds while the command
// listens rather than blocking it as play(_:) does.
extension SineWaveNotePlayer {
    /// The drone's note id, apart from the ids notes and sequences use.
    static let droneID = UInt32(0x7FFF_FFF0)

    /// Starts holding `frequency` at `gain` times the player's gain (a drone sits well under the
    /// reference: 0.1 is 20 dB down). Any drone already held is released first.
    public func startDrone(frequency: Double, gain relative: Float = 0.1) throws {
        try locked { () throws -> Void in
            if closed { throw AudioError.deviceLost("the player was closed") }
            let at = engine.frameClock + lookaheadFrames
            try engine.releaseNote(NoteID(rawValue: Self.droneID), at: at)
            try engine.noteOn(
                id: Self.droneID, frequency: frequency, gain: gain * relative, at: at + 1, timbre: timbre)
        }
    }

    /// Releases the drone (its envelope's release); nothing when none is held.
    public func stopDrone() {
        try? locked { () throws -> Void in
            if closed { return }
            try engine.releaseNote(NoteID(rawValue: Self.droneID), at: engine.frameClock + lookaheadFrames)
        }
    }
}
