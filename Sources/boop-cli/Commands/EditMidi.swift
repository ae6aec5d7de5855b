import Foundation
import PixelBoopCore

/// `boop edit --midi SRC`: a MIDI keyboard in the editor. The sequencer's reader thread only
/// queues the notes; they are taken here, on the editor's loop, like keys: heard on the current
/// track, and with step entry (`i`) placed at the cursor (EditorModel.play).
extension EditCommand {
    /// Opened before the terminal is taken, so a missing sequencer or source is one line and an exit.
    func openKeyboard() throws -> MidiKeyboard? {
        guard let midi else { return nil }
        do {
            return try MidiKeyboard(clientName: "boop-edit", source: midi)
        } catch .deviceUnavailable(let reason) {
            throw BoopExit(.unavailable, "edit: --midi: \(OneLine.escape(reason))")
        } catch {
            throw BoopExit(.usage, "edit: --midi \(OneLine.escape(midi)): \(OneLine.escape(error.context))")
        }
    }
}

extension EditSession {
    /// The keyboard's descriptor woke the loop: every note waiting, in order, then one redraw.
    func playedNotes() -> LiveLoop.Next {
        guard let keyboard else { return .carryOn }
        let readAt = monotonicSeconds()
        let before = model.audibleSong
        for played in keyboard.take() {
            // While a question or a typed line waits, a played note is only heard.
            if model.question != nil || model.prompt != nil {
                if played.on {
                    audition(
                        Note(step: 0, pitch: played.pitch, velocity: EditorModel.velocity(played: played.velocity), length: 1))
                }
                continue
            }
            if played.on { model.message = nil }
            if let note = model.play(played) { audition(note) }
        }
        if model.audibleSong != before { patternChanged() }
        soundAuditions(readAt: readAt)
        loop.redraw()
        return .carryOn
    }
}
