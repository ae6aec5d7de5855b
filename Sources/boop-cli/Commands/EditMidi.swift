import Glibc
import PixelBoopCore

/// `boop edit --midi SRC`: a MIDI keyboard in the editor. The sequencer's reader thread, or on
/// JACK the playback's process callback, only queues the notes; they are taken here, on the
/// editor's loop, like keys: heard on the current track, and with step entry (`i`) placed at the
/// cursor (EditorModel.play). The sequencer's reader wakes the loop; JACK's callback cannot (no
/// system call on the audio thread), so the loop takes them on each wake, at least at the
/// screen's cadence.
extension EditCommand {
    /// Opened before the terminal is taken, so a missing sequencer or source is one line and an exit.
    func openKeyboard() throws -> MidiKeyboard? {
        guard let midi else { return nil }
        // JACK: no client of its own; the playback gets a port midi_in and connects `midi` to it.
        if deviceOptions.backend == .jack {
            do {
                return try MidiKeyboard(jackSource: midi)
            } catch {
                throw BoopExit(.unavailable, "edit: --midi: \(OneLine.escape(error.context))")
            }
        }
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
    /// JACK: connects the keyboard's source to the playback's midi_in (after each open); a port
    /// that is not there is said on the status line, and the editing goes on.
    func connectKeyboard(_ transport: PatternTransport) {
        guard let source = keyboard?.jackSource else { return }
        do {
            try transport.connectMidiIn(from: source)
        } catch {
            model.message = OneLine.escape(error.context)
        }
    }

    /// JACK: the keyboard's notes sound in the playback's process callback, on their frames, with
    /// the current track's instrument (while recording, channel 10's with the rhythm track's kit,
    /// where they are recorded); told again on each turn (sent only when it changed).
    func soundKeys() {
        guard let transport, transport.keysSoundThemselves else { return }
        let recording = model.recording.armed && transport.state == .playing
        do {
            try transport.soundKeys(
                track: model.track, accentVelocity: EditorModel.accentVelocity,
                drumKeys: recording ? { DrumLane.name(forKey: $0) != nil } : nil
            ) { model.soundsKey($0) }
        } catch {
            model.message = "MIDI keyboard: \(error)"
        }
    }

    /// The keyboard's descriptor woke the loop: every note waiting, in order, then one redraw.
    func playedNotes() -> LiveLoop.Next {
        guard let keyboard else { return .carryOn }
        let readAt = monotonicSeconds()
        let notes = keyboard.take()
        guard !notes.isEmpty else { return .carryOn }
        let before = model.audibleSong
        // On JACK the notes have sounded already, each on its own frame in the process callback.
        let sounded = transport?.keysSoundThemselves == true
        for played in notes {
            // While a question or a typed line waits, a played note is only heard.
            if model.question != nil || model.prompt != nil {
                if played.on && !sounded {
                    audition(
                        SongNote(step: 0, pitch: played.pitch, velocity: EditorModel.velocity(played: played.velocity), length: 1)
                    )
                }
                continue
            }
            if played.on { model.message = nil }
            if let recorded = recordPlayed(played, soundedAlready: sounded) {
                if let note = recorded, !sounded { audition(note, track: played.isDrum ? .rhythm : model.track) }
                continue
            }
            if let note = model.play(played), !sounded { audition(note) }
        }
        if model.audibleSong != before { patternChanged() }
        soundAuditions(readAt: readAt)
        loop.redraw()
        return .carryOn
    }
}
