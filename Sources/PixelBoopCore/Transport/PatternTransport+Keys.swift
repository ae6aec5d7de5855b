import CAudioEngine

/// `edit --backend jack --midi`: the keyboard's notes sound in the playback's process callback,
/// each on its own frame (as `boop synth --backend jack` plays them); the editor only says with
/// what, and places the notes it takes from the keyboard's queue.
extension PatternTransport {
    /// True when the keyboard's notes sound by themselves (a JACK keyboard): no audition for them.
    public var keysSoundThemselves: Bool { sync.locked { $0.midiKeys?.jackSource != nil } }

    /// The keyboard's notes sound with `track`'s instrument in the song's mix, as an audition of
    /// that track does (the level scales the velocity's gain, at or above `accentVelocity` an
    /// accent); only keys for which `accepts` is true sound. Given to the playback only when it
    /// changed, and again after each open.
    public func soundKeys(track: TrackKind, accentVelocity: Int, accepts: (Int) -> Bool) throws(AudioError) {
        guard keysSoundThemselves else { return }
        var keys = [UInt8](repeating: 0, count: 16)
        for k in Limits.midiNote where accepts(k) { keys[k >> 3] |= UInt8(1 << (k & 7)) }
        try sync.locked { (s: inout Shared) throws(AudioError) -> Void in
            guard let midiKeys = s.midiKeys, midiKeys.jackSource != nil else { return }
            let inst = s.mix[track]
            let level = Float(inst?.level ?? 1)
            let kind: boop_keys_kind
            let index: UInt32
            if track == .rhythm {
                (kind, index) = (BOOP_KEYS_DRUMS, UInt32((inst?.kit ?? .gm).cValue.rawValue))
            } else if let inst, !inst.isClassic {
                (kind, index) = (BOOP_KEYS_INSTRUMENT, track.instrumentSlot)
            } else {
                (kind, index) = (BOOP_KEYS_TIMBRE, UInt32((track.timbre ?? .melody).cValue.rawValue))
            }
            let sound = KeysSound(
                kind: kind, index: index, gain: Velocity.normal.gain * level, accentGain: Velocity.accent.gain * level,
                accentVelocity: UInt32(accentVelocity), keys: keys)
            guard sound != s.keysSent else { return }
            try midiKeys.setSound(engine: s.engine, sound: sound)
            s.keysSent = sound
        }
    }
}
