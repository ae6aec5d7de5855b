import Glibc
import PixelBoopCore

/// `*`: live recording from the MIDI keyboard (`--midi`) while the loop plays. Each note is placed
/// where it was heard: on JACK at the frame its event carried (the keyboard and the loop share
/// the server's clock); on the ALSA sequencer at its arrival time less the output's latency (the
/// frame the listener heard then). Started with the loop stopped, a bar of metronome clicks comes
/// first and the loop starts from its first step; started while it plays, recording begins at
/// once, as a DAW punches in.
extension EditSession {
    /// The recording keys on the grid; false for any other key.
    func recordKey(_ event: InputEvent) -> Bool {
        switch event {
        case .char("*"): toggleRecording()
        case .char("%"):
            ask(
                .quantize, label: "quantize strength (0...100 %; 100: on the step, 0: as played)",
                text: "\(model.recording.strength)")
        case .char("&"): model.toggleRecordReplace()
        case .char("!"):
            model.toggleClick()
            clickChanged()
        case .char("@"): ask(.clickLevel, label: "metronome level (0...100 %)", text: "\(model.recording.clickLevel)")
        default: return false
        }
        return true
    }

    /// The typed quantize strength or metronome level.
    func recordLine(_ text: String, for purpose: PromptPurpose) {
        guard let percent = Int(text), (0...100).contains(percent) else {
            model.message = "\(purpose == .quantize ? "quantize strength" : "metronome level"): expected a whole number 0...100"
            return
        }
        if purpose == .quantize {
            model.setQuantizeStrength(percent)
        } else {
            model.setClickLevel(percent)
            clickChanged()
        }
    }

    private func toggleRecording() {
        guard !model.recording.armed else {
            model.toggleRecording()
            transport?.setClick(nil)
            return
        }
        guard keyboard != nil || voice != nil else {
            model.message = "recording needs a MIDI keyboard or a microphone: boop edit --midi PORT or -C DEVICE"
            return
        }
        guard let transport else {
            model.message = "no sound device: recording needs the loop playing"
            return
        }
        model.toggleRecording()
        transport.setClick(model.recording.clickGain)
        let track = model.track.rawValue
        if transport.state == .playing {
            model.message = "recording on the \(track) (drums on channel 10: rhythm) from now; * stops"
            startVoiceTake()
            return
        }
        do {
            if transport.state == .paused { try transport.stopLoop() }
            transport.playSong(model.audibleSong)
            try transport.start(countInBeats: LiveRecording.countInBeats)
            model.message = "count-in: one bar, then recording on the \(track); * stops"
            startVoiceTake()
        } catch {
            model.toggleRecording()
            transport.setClick(nil)
            model.message = "\(error)"
        }
    }

    /// The loop stopped (`p`): recording ends with it.
    func endRecording() {
        guard model.recording.armed else { return }
        model.toggleRecording()
        transport?.setClick(nil)
    }

    private func clickChanged() {
        if model.recording.armed { transport?.setClick(model.recording.clickGain) }
    }

    /// A played note while recording: placed where it was heard. Returns the note to sound, as
    /// `EditorModel.play` does, or nil when it was not recording (the caller plays it then).
    func recordPlayed(_ played: PlayedNote, soundedAlready: Bool) -> SongNote?? {
        guard model.recording.armed, let transport, transport.state == .playing else { return nil }
        let frame = soundedAlready ? played.time : transport.heardFrame(arrivalNanoseconds: played.time)
        let position = played.on ? transport.position(atFrame: frame) : nil
        return .some(model.record(played, at: position, frame: frame))
    }
}
