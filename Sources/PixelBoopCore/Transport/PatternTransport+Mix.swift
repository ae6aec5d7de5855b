import FoundationEssentials
import Glibc

extension AudioEngine {
    /// Queues a pattern's event through a song's mix, as a song plays it (`SongSequencer`): the
    /// level scales the velocity's gain, a pitched track with a voice of its own plays on its
    /// instrument slot, drums on the track's kit.
    public func schedule(_ event: SequencerEvent, mix: [TrackKind: Instrument]) throws(AudioError) {
        let action: SongEvent.Action
        switch event.action {
        case .noteOn(let track, let pitch, let velocity, let id):
            let inst = mix[track] ?? Instrument()
            action = .noteOn(
                track: track, pitch: pitch, gain: velocity.gain * Float(inst.level), id: id, instrument: !inst.isClassic)
        case .noteOff(let id):
            action = .noteOff(id: id)
        case .drum(let key, let velocity):
            let inst = mix[.rhythm] ?? Instrument()
            action = .drum(key: key, gain: velocity.gain * Float(inst.level), kit: inst.kit)
        }
        try schedule(SongEvent(frame: event.frame, action: action, step: 0))
    }
}

/// The song's mix and the MIDI output of a playing pattern.
extension PatternTransport {
    /// Gives the tracks the song's instruments (and levels) from now on; an empty map plays the
    /// version-1 timbres again.
    public func setMix(_ instruments: [TrackKind: Instrument]) throws(AudioError) {
        try sync.locked { () throws(AudioError) -> Void in
            mix = instruments.filter { $0.value != Instrument() }
            try engine.prepare(song: Song(name: "", instruments: mix, patterns: []), at: engine.frameClock)
        }
    }

    /// Lock held: the MIDI output ends every note it sent on (and a running clock) at its next cycle.
    func midiPanic() {
        guard midi != nil else { return }
        midi!.reset()
        playback.midiPanic()
    }

    /// JACK: connects a MIDI output port to the keyboard's midi_in (after `openSound`).
    public func connectMidiIn(from port: String) throws(AudioError) {
        try sync.locked { () throws(AudioError) -> Void in try playback.connectMidiIn(from: port) }
    }

    /// Connects the MIDI output to another client's input port (after `openSound`, before `start`).
    public func connectMidiOut(to port: String) throws(AudioError) {
        try sync.locked { () throws(AudioError) -> Void in try playback.connectMidiOut(to: port) }
    }
}
