import Glibc

/// Plays one note at a time: a frequency in Hz for a duration, with its envelope built in (seed
/// 001's `NotePlayer`). It knows nothing of MIDI, note names or training sessions: callers turn
/// those into Hz first (`Pitch`, `NoteSpec`).
///
/// Conforming types are reference types shared between tasks (a training session plays while a
/// UI task may stop it), hence `AnyObject & Sendable`.
public protocol NotePlayer: AnyObject, Sendable {
    /// Plays `frequency` Hz for `duration` seconds and returns when the note has finished. The
    /// attack and release lie inside `duration`, so notes played one after another abut without
    /// overlapping. Throws `AudioError.invalidFrequency` for a frequency that is not finite or
    /// outside `Limits.toneHz`, `AudioError.invalidConfiguration` for a duration that is not a
    /// positive finite number, and the player's device errors. Cancelling the calling task fades
    /// the note out and throws `CancellationError`.
    func play(frequency: Double, duration: Double) async throws

    /// Fades out whatever sounds (within 20 ms) and makes pending `play` calls return.
    func stop() async throws
}
