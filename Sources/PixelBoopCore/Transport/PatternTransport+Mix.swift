import Foundation

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
