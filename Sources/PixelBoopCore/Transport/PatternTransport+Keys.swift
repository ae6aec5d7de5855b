import CAudioEngine

/// `edit --backend jack --midi`: the keyboard's notes sound in the playback's process callback,
/// each on its own frame (as `boop synth --backend jack` plays them); the editor only says with
/// what, and places the notes it takes from the keyboard's queue.
extension PatternTransport {
    /// True when the keyboard's notes sound by themselves (a JACK keyboard): no audition for them.
    public var keysSoundThemselves: Bool { sync.locked { $0.midiKeys?.jackSource != nil } }

    /// The keyboard's notes sound with `track`'s instrument in the song's mix, as an audition of
    /// that track does (the level scales the velocity's gain, at or above `accentVelocity` an
    /// accent); only keys for which `accepts` is true sound. With `drumKeys` (the editor recording,
    /// which puts channel 10's notes on the rhythm track) channel 10's keys sound as the rhythm
    /// track's kit, those for which it is true. Given to the playback only when it changed, and
    /// again after each open.
    public func soundKeys(
        track: TrackKind, accentVelocity: Int, drumKeys: ((Int) -> Bool)? = nil, accepts: (Int) -> Bool
    ) throws(AudioError) {
        guard keysSoundThemselves else { return }
        let keys = Self.keyBits(accepts)
        let drumBits = drumKeys.map { Self.keyBits($0) }
        try sync.locked { (s: inout Shared) throws(AudioError) -> Void in
            guard let midiKeys = s.midiKeys, midiKeys.jackSource != nil else { return }
            let sound = Self.keysSound(track: track, mix: s.mix, accentVelocity: accentVelocity, keys: keys)
            if sound != s.keysSent {
                try midiKeys.setSound(engine: s.engine, sound: sound)
                s.keysSent = sound
            }
            let drums = drumBits.map {
                Self.keysSound(track: .rhythm, mix: s.mix, accentVelocity: accentVelocity, keys: $0)
            }
            guard s.drumKeysSent != .some(drums) else { return }
            try midiKeys.setChannelSound(engine: s.engine, channel: PlayedNote.drumChannel, sound: drums)
            s.drumKeysSent = .some(drums)
        }
    }

    /// Bit (k & 7) of byte k >> 3 set for each key k that `accepts`.
    private static func keyBits(_ accepts: (Int) -> Bool) -> [UInt8] {
        var keys = [UInt8](repeating: 0, count: 16)
        for k in Limits.midiNote where accepts(k) { keys[k >> 3] |= UInt8(1 << (k & 7)) }
        return keys
    }

    /// `track`'s sound in `mix`: its kit, instrument or timbre, the gains scaled by its level.
    private static func keysSound(track: TrackKind, mix: [TrackKind: Instrument], accentVelocity: Int, keys: [UInt8])
        -> KeysSound
    {
        let inst = mix[track]
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
        return KeysSound(
            kind: kind, index: index, gain: Velocity.normal.gain * level, accentGain: Velocity.accent.gain * level,
            accentVelocity: UInt32(accentVelocity), keys: keys)
    }
}
